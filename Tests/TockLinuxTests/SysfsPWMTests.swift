import Foundation
import Testing
@testable import TockLinux
import TockCore
import TockHardware

/// A pwm class tree of plain files in a temporary directory.
final class FakePWMTree {
    let root: String

    init(exported: Bool = true) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("tock-pwm-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: "\(root)/pwmchip0", withIntermediateDirectories: true)
        try write("pwmchip0/export", "")
        try write("pwmchip0/npwm", "2\n")
        if exported { try exportChannel(0) }
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    func exportChannel(_ channel: Int) throws {
        try FileManager.default.createDirectory(atPath: "\(root)/pwmchip0/pwm\(channel)", withIntermediateDirectories: true)
        for file in ["period", "duty_cycle", "enable"] { try write("pwmchip0/pwm\(channel)/\(file)", "0\n") }
    }

    func write(_ path: String, _ text: String) throws {
        try text.write(toFile: "\(root)/\(path)", atomically: false, encoding: .utf8)
    }

    func read(_ path: String) throws -> String {
        try String(contentsOfFile: "\(root)/\(path)", encoding: .utf8)
    }

    func channel0() throws -> (period: String, duty: String, enable: String) {
        (try read("pwmchip0/pwm0/period"), try read("pwmchip0/pwm0/duty_cycle"), try read("pwmchip0/pwm0/enable"))
    }
}

@Suite struct SysfsPWMTests {
    @Test func anExportedChannelIsUsedAsItIs() throws {
        let tree = try FakePWMTree()
        let pwm = try SysfsPWM(chip: 0, channel: 0, root: tree.root)
        #expect(pwm.channelPath == "\(tree.root)/pwmchip0/pwm0")
        #expect(try tree.read("pwmchip0/export") == "")
    }

    @Test func outputWritesNanosecondsAndEnables() throws {
        let tree = try FakePWMTree()
        let pwm = try SysfsPWM(root: tree.root)
        try pwm.output(period: .microseconds(500), duty: .microseconds(250))
        #expect(try tree.channel0() == ("500000", "250000", "1"))

        try pwm.output(period: .nanoseconds(370_370), duty: .nanoseconds(185_185))
        #expect(try tree.channel0() == ("370370", "185185", "1"))

        try pwm.disable()
        #expect(try tree.channel0() == ("370370", "185185", "0"))
    }

    @Test func unchangedValuesAreNotWrittenAgain() throws {
        let tree = try FakePWMTree()
        let pwm = try SysfsPWM(root: tree.root)
        try pwm.output(period: .microseconds(500), duty: .microseconds(250))
        // Files changed behind its back stay as they are: nothing is written.
        for file in ["period", "duty_cycle", "enable"] { try tree.write("pwmchip0/pwm0/\(file)", "x") }
        try pwm.output(period: .microseconds(500), duty: .microseconds(250))
        #expect(try tree.channel0() == ("x", "x", "x"))
    }

    @Test func aMissingChannelIsExportedFirst() throws {
        let tree = try FakePWMTree(exported: false)
        // The kernel would create pwm1 on the write to export; a plain file
        // does not, so the export is seen and then reported as not done.
        let error = #expect(throws: HardwareError.self) { try SysfsPWM(chip: 0, channel: 1, root: tree.root) }
        #expect(try tree.read("pwmchip0/export") == "1")
        #expect(error?.kind == .notFound)
        #expect(error?.message.contains("\(tree.root)/pwmchip0/export did not create \(tree.root)/pwmchip0/pwm1") == true)
        #expect(error?.message.contains("npwm") == true)
    }

    @Test func aMissingChipSuggestsTheOverlay() throws {
        let tree = try FakePWMTree()
        let error = #expect(throws: HardwareError.self) { try SysfsPWM(chip: 3, channel: 0, root: tree.root) }
        #expect(error?.kind == .notFound)
        #expect(error?.message.hasPrefix("\(tree.root)/pwmchip3 does not exist") == true)
        #expect(error?.message.contains("dtoverlay=pwm") == true)
    }

    @Test func aFailedWriteNamesTheFileAndTheNextOutputStartsOver() throws {
        let tree = try FakePWMTree()
        let pwm = try SysfsPWM(root: tree.root)
        try pwm.output(period: .microseconds(500), duty: .microseconds(250))
        let period = "\(tree.root)/pwmchip0/pwm0/period"
        try FileManager.default.removeItem(atPath: period)
        let error = #expect(throws: HardwareError.self) {
            try pwm.output(period: .microseconds(1_000), duty: .microseconds(500))
        }
        #expect(error?.kind == .notFound)
        #expect(error?.message.hasPrefix("\(period) does not exist") == true)
        #expect(error?.message.contains("dtoverlay=pwm") == true)

        try tree.write("pwmchip0/pwm0/period", "0")
        try tree.write("pwmchip0/pwm0/enable", "0")
        try pwm.output(period: .microseconds(500), duty: .microseconds(250))
        #expect(try tree.channel0() == ("500000", "250000", "1"))
    }

    // MARK: - The order of writes

    typealias Write = SysfsPWM.Write

    @Test func anUnknownChannelGetsDutyZeroFirst() {
        #expect(SysfsPWM.plan(from: .init(), period: 500_000, duty: 250_000) == [
            Write(attribute: .dutyCycle, value: 0),
            Write(attribute: .period, value: 500_000),
            Write(attribute: .dutyCycle, value: 250_000),
            Write(attribute: .enable, value: 1),
        ])
    }

    @Test func aShorterPeriodWritesDutyFirst() {
        let now = SysfsPWM.Setting(period: 1_000_000, duty: 500_000, enabled: true)
        #expect(SysfsPWM.plan(from: now, period: 500_000, duty: 250_000) == [
            Write(attribute: .dutyCycle, value: 250_000),
            Write(attribute: .period, value: 500_000),
        ])
    }

    @Test func aLongerPeriodWritesPeriodFirst() {
        let now = SysfsPWM.Setting(period: 370_370, duty: 185_185, enabled: false)
        #expect(SysfsPWM.plan(from: now, period: 500_000, duty: 250_000) == [
            Write(attribute: .period, value: 500_000),
            Write(attribute: .dutyCycle, value: 250_000),
            Write(attribute: .enable, value: 1),
        ])
    }

    /// Played through a model of the kernel's check (duty <= period, or
    /// EINVAL), every plan from every start is accepted write by write.
    @Test func dutyNeverExceedsPeriodOnTheWay() {
        let values: [Int64] = [0, 1, 185_185, 250_000, 370_370, 500_000, 1_000_000, 2_500_000]
        var starts: [(period: Int64, duty: Int64)] = []
        for p in values { for d in values where d <= p { starts.append((p, d)) } }
        var targets: [(period: Int64, duty: Int64)] = []
        for p in values where p > 0 { for d in [0, p / 2, p] { targets.append((p, d)) } }
        for start in starts {
            for known in [true, false] {
                for target in targets {
                    let shadow = known ? SysfsPWM.Setting(period: start.period, duty: start.duty, enabled: true) : SysfsPWM.Setting()
                    var kernel = start
                    for write in SysfsPWM.plan(from: shadow, period: target.period, duty: target.duty) {
                        switch write.attribute {
                        case .period:
                            #expect(kernel.duty <= write.value, "period \(write.value) written under duty \(kernel.duty)")
                            kernel.period = write.value
                        case .dutyCycle:
                            #expect(write.value <= kernel.period, "duty \(write.value) written over period \(kernel.period)")
                            kernel.duty = write.value
                        case .enable:
                            break
                        }
                    }
                    #expect(kernel.period == target.period && kernel.duty == target.duty)
                }
            }
        }
    }
}

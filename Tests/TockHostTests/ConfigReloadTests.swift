import Foundation
import Logging
import Testing
import TockConfig
import TockCore
import TockDevices
import TockLoop
import TockTestSupport
@testable import TockHost

/// SIGHUP on virtual time, with a real file rewritten between the reads:
/// an empty or torn file read mid-rewrite never replaces the running
/// configuration nor the alarms and presets edited on the box, and a storm
/// of signals leaves a bounded log.
@Suite struct ConfigReloadTests {
    static let epoch = WallTime(secondsSince1970: 1_800_000_000)  // 2027-01-15 08:00 UTC
    let loop = VirtualLoop(epoch: Self.epoch)
    let lines = LogLines()
    let path: String

    static let file = """
        # the kitchen timer
        timer:
          presets:
            - 10m
            - 5m
        alarms:
          - {at: "06:45", days: mon-fri}

        """

    init() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tock-reload-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        path = dir.appendingPathComponent("config.yaml").path
    }

    /// Written in place, as an editor that truncates the file does.
    func write(_ text: String) throws {
        let handle = try #require(FileHandle(forWritingAtPath: path) ?? {
            _ = FileManager.default.createFile(atPath: path, contents: nil)
            return FileHandle(forWritingAtPath: path)
        }())
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(text.utf8))
        try handle.close()
    }

    /// The box as `tock run` wires it, started from the file, with the
    /// owner's edits: a preset of 2 min and an alarm at 07:30.
    func box() throws -> (Box, ConfigReload) {
        try write(Self.file)
        let config = try Configuration.load(path: path)
        let setup = Box.Setup(config: config, devices: Devices.mock(config, clock: { [loop] in loop.instant }))
        let log = Logger(label: "test") { _ in LogCapture(lines: lines) }
        let box = try Box(setup, loop: loop, log: log)
        box.start()
        try box.shell.setPreset(.seconds(120))
        try box.shell.editAlarms(.add(DailyAlarm(minute: 7 * 60 + 30, days: try DailyAlarm.parseDays(["daily"]))))
        loop.advance(by: .seconds(1))
        return (box, ConfigReload(path: path, running: config, shell: box.shell, loop: loop, log: log))
    }

    func presets(_ box: Box) -> [Duration]? { box.shell.core.program.countTimer?.presets }
    func alarms(_ box: Box) -> [String] { box.shell.core.alarms.entries.map(\.alarm.timeText) }
    func logged(_ text: String) -> [String] { lines.messages.filter { $0.contains(text) } }

    @Test func anEmptyFileOnReloadKeepsTheConfigurationAndTheEditsOnTheBox() throws {
        let (box, reload) = try box()
        for empty in ["", "\n  \n", "# being rewritten\n"] {
            try write(empty)
            reload.requested()
            loop.advance(by: .seconds(1))
            #expect(presets(box) == [.seconds(120), .seconds(300)])
            #expect(alarms(box) == ["06:45", "07:30"])
            #expect(reload.running.settings.presets == [.seconds(600), .seconds(300)])
        }
        #expect(logged("is empty (0 bytes): keeping the running configuration").count == 1)
        #expect(logged("is empty (nothing but blanks and comments)").count == 1)  // the same reason again is rate-limited
        #expect(logged("reloaded").isEmpty)
        // The file written back as it was: nothing was lost.
        try write(Self.file)
        reload.requested()
        loop.advance(by: .seconds(1))
        #expect(presets(box) == [.seconds(120), .seconds(300)])
        #expect(alarms(box) == ["06:45", "07:30"])
        #expect(logged("reloaded").count == 1)
    }

    @Test func aRewriteReadMidWayIsNotActedOnUntilTwoReadsAgree() throws {
        let (box, reload) = try box()
        // An editor's rewrite, slowed down: empty, then cut mid-list, then whole.
        try write("")
        reload.requested()
        loop.advance(by: .milliseconds(100))
        try write("# the kitchen timer\ntimer:\n  presets:\n    - 10m\n")
        loop.advance(by: .milliseconds(200))
        try write(Self.file)
        loop.advance(by: .milliseconds(150))
        #expect(reload.reloads == 0)  // still settling: the last two reads differed
        loop.advance(by: .milliseconds(200))
        #expect(reload.reloads == 1)
        #expect(presets(box) == [.seconds(120), .seconds(300)])
        #expect(alarms(box) == ["06:45", "07:30"])
        #expect(logged("is empty").isEmpty)
    }

    @Test func aTornFileActedOnThenWrittenWholeGivesTheEditsBack() throws {
        let (box, reload) = try box()
        // The writer stalled long enough for the torn file to be read twice.
        try write("timer:\n  presets:\n    - 10m\n")
        reload.requested()
        loop.advance(by: .seconds(1))
        #expect(presets(box) == [.seconds(600)])  // the file's new list, as it reads
        #expect(alarms(box).isEmpty)
        #expect(logged("timer.presets changed in \(path): the file's list is used; the presets set on the box are set aside").count == 1)
        #expect(logged("alarms changed in \(path): the file's list is used; the alarms set on the box are set aside").count == 1)
        try write(Self.file)
        reload.requested()
        loop.advance(by: .seconds(1))
        #expect(presets(box) == [.seconds(120), .seconds(300)])
        #expect(alarms(box) == ["06:45", "07:30"])
        #expect(logged("the presets set on the box were made over: they are back").count == 1)
        #expect(logged("the alarms set on the box were made over: they are back").count == 1)
    }

    @Test func aFileThatKeepsChangingIsLeftAlone() throws {
        let (box, reload) = try box()
        reload.requested()
        for i in 0..<30 {
            try write("timer: {presets: [\(i + 1)m]}\n")
            loop.advance(by: .milliseconds(100))
        }
        #expect(reload.reloads == 0)
        #expect(presets(box) == [.seconds(120), .seconds(300)])
        #expect(logged("kept changing for 1800 ms (read 10 times, 200 ms apart): keeping the running configuration").count == 1)
    }

    /// 300 signals at a file that does not change, 10 a second (30 s) or
    /// 2 a second (150 s, across three windows of a minute).
    @Test(arguments: [100, 500]) func aStormOfSignalsGivesABoundedLog(every ms: Int) throws {
        let (box, reload) = try box()
        _ = box
        for _ in 0..<300 {
            reload.requested()
            loop.advance(by: .milliseconds(ms))
        }
        loop.advance(by: .seconds(120))
        let reloaded = logged("reloaded")
        #expect(reload.reloads + reload.coalesced == 300)
        #expect(reloaded.count <= 4)
        print("\(reload.reloads) reloads, \(reload.coalesced) signals served by a read under way, \(reloaded.count) lines:\n" + reloaded.joined(separator: "\n"))
        // What was held back is counted, not lost: a line stands for its
        // own reload and the ones it says were not logged; the summary at
        // the end of the storm for those alone.
        let counted = reloaded.map { line -> Int in
            func number(after pattern: String) -> Int? {
                line.range(of: pattern + #"\d+"#, options: .regularExpression).map { Int(line[$0].drop { !$0.isNumber })! }
            }
            if let n = number(after: "reloaded ") { return n }
            return 1 + (number(after: #"\(and "#) ?? 0)
        }
        #expect(counted.reduce(0, +) == reload.reloads, "\(reloaded)")
        #expect(reload.reloads == (ms < 200 ? 150 : 300))  // one pair of reads, 200 ms apart, serves the signals within it
    }

    @Test func reloadsHeldBackAreCountedWhenTheServiceStops() throws {
        let (box, reload) = try box()
        _ = box
        for _ in 0..<5 {
            reload.requested()
            loop.advance(by: .seconds(1))
        }
        #expect(logged("reloaded").count == 1)
        reload.cancel()
        #expect(logged("reloaded 4 more times since the last such line").count == 1)
    }

    /// A reload that changes the display's width (4 -> 8 digits on the
    /// TM1637 opened at start) keeps the running width, says the rest
    /// waits for a restart in the log and the status, and never makes a
    /// frame the driver cannot show.
    @Test func aReloadThatChangesTheDigitsWaitsForARestart() throws {
        let (box, reload) = try box()
        box.shell.action(.pressed(.start))
        try write(Self.file + "display: {digits: 8}\n")
        reload.requested()
        loop.advance(by: .seconds(1))
        #expect(reload.reloads == 1)
        #expect(reload.waitsForRestart == ["display.digits", "wiring changes"])
        #expect(box.shell.core.settings.display.digits == 4)
        #expect(reload.running.settings.display.digits == 4)
        box.shell.action(.pressed(.stop))
        loop.advance(by: .seconds(2))
        #expect(box.shell.frame?.digits == 4)
        #expect(logged("display.digits, wiring changes in \(path) apply at the next restart").count == 1)
        #expect(logged("frame cannot be shown").isEmpty)
        // Back to the running width: nothing waits any more.
        try write(Self.file)
        reload.requested()
        loop.advance(by: .seconds(1))
        #expect(reload.waitsForRestart.isEmpty)
    }

    /// Until that restart the rest of the file must fit the digits in use:
    /// a program name for 8 digits refuses the file, which is kept whole.
    @Test func aProgramNameForTheNewWidthIsRefusedUntilTheRestart() throws {
        let (box, reload) = try box()
        try write("display: {digits: 8}\ninterval: {programs: [{name: SUPERSET, kind: tabata}]}\n")
        reload.requested()
        loop.advance(by: .seconds(1))
        #expect(reload.reloads == 0)
        #expect(box.shell.core.settings.interval.programs.isEmpty)
        #expect(logged("the program name \"SUPERSET\" does not fit the 4 digits in use").count == 1)
    }
}

import Foundation
import Testing
import TockConfig
import TockControl
import TockCore
import TockLinux
import TockLoop
import TockTestSupport
@testable import TockHost
@testable import TockShell

/// `tock add` through the whole box on virtual time: the request's text,
/// the reply and its refusals, the status and a watcher, a power cut
/// through the real state file, and a flood at the limit against the state
/// file's pacing.
@Suite struct AddTimeOnVirtualTimeTests {
    static let epoch = WallTime(secondsSince1970: 1_800_000_000)
    let loop = VirtualLoop(epoch: Self.epoch)

    func parse(_ line: String) throws(ControlRequest.Invalid) -> ControlRequest { try ControlRequest.parse(Array(line.utf8)) }

    func stateFile() throws -> String { try temporaryStateFile("add") }

    @Test func theRequestParsesAndWritesItsOwnLine() throws {
        #expect(try parse(#"{"cmd":"add","duration":"2m"}"#) == .add(.seconds(120), name: nil))
        #expect(try parse(#"{"cmd":"add","duration":"-1m","name":"EGG"}"#) == .add(.seconds(-60), name: "EGG"))
        #expect(try parse(#"{"cmd":"add","duration":"+30s","name":"t1"}"#) == .add(.seconds(30), name: "t1"))
        for r: ControlRequest in [.add(.seconds(60), name: nil), .add(.seconds(-90), name: "EGG"), .add(.milliseconds(1500), name: #"a"b"#),
                                  .add(.seconds(-359_940), name: nil)] {
            #expect(try parse(r.line) == r)
        }
    }

    @Test(arguments: [
        #"{"cmd":"add"}"#, #"{"cmd":"add","duration":60}"#, #"{"cmd":"add","duration":"soon"}"#, #"{"cmd":"add","duration":"--1m"}"#,
        #"{"cmd":"add","duration":"1m","name":""}"#, #"{"cmd":"add","duration":"1m","name":7}"#, #"{"cmd":"add","duration":"1m","to":"EGG"}"#,
        #"{"cmd":"add","duration":"99999999999999999999h"}"#, #"{"cmd":"add","duration":"-99999h"}"#,
        #"{"cmd":"add","duration":"1m","name":"ABCDEFGHIJKLMNOPQ"}"#, #"{"cmd":"add","duration":"1m","name":null}"#,
    ])
    func malformedRequestsAreRefusedWithWhatToFix(_ line: String) throws {
        #expect(throws: ControlRequest.Invalid.self) { try parse(line) }
        do { _ = try parse(line) } catch { #expect(error.description.contains("add") || error.description.contains("field"), "\(error.description)") }
    }

    @Test func theReplyCarriesTheNewTimeAndTheBoxsRefusalsComeBackInWords() throws {
        let box = try TestBox("timer: {presets: [10m]}", loop: loop)
        loop.advance(by: .seconds(1))
        var r = box.host.service.reply(to: .add(.seconds(60), name: nil))
        #expect(r["ok"] as? Bool == false)
        #expect(r["error"] as? String == "nothing is counting: start the count first (tock start), or change the preset (tock set)")
        _ = box.host.service.reply(to: .start)
        loop.advance(by: .seconds(10))
        r = box.host.service.reply(to: .add(.seconds(120), name: nil))
        #expect(r["ok"] as? Bool == true)
        #expect(r["remaining_ms"] as? Int64 == 710_000)
        #expect(box.shell.frame?.text == "11:50")
        _ = box.host.service.reply(to: .timer(.add(name: "EGG", duration: .seconds(360))))
        r = box.host.service.reply(to: .add(.seconds(-60), name: "EGG"))
        let egg = try #require((r["timers"] as? [[String: Any]])?.first)
        #expect(egg["remaining_ms"] as? Int64 == 300_000 && egg["duration"] as? String == "5m")
        r = box.host.service.reply(to: .add(.seconds(-300), name: "EGG"))
        #expect(r["error"] as? String == "EGG has 5m left; taking away 5m would leave less than 1s (cancel or reset it instead)")
        r = box.host.service.reply(to: .add(.seconds(60), name: "EGGS"))
        #expect(r["error"] as? String == "no timer named EGGS (timers: EGG)")
        // t1 is the box's own count.
        r = box.host.service.reply(to: .add(.seconds(60), name: "t1"))
        #expect(r["remaining_ms"] as? Int64 == 770_000)
    }

    @Test func aWatcherIsToldTheNewTime() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tock-add-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent("s").path
        let box = try TestBox("timer: {presets: [10m]}", loop: loop, control: try UnixListener(path: path))
        func lines(_ c: UnixConnection) -> [String] {
            var text = ""
            while (try? c.waitForInput(milliseconds: 0)) == true, let chunk = try? c.read(), !chunk.isEmpty { text += String(decoding: chunk, as: UTF8.self) }
            return text.split(separator: "\n").map(String.init)
        }
        box.shell.action(.pressed(.start))
        loop.advance(by: .milliseconds(500))
        let watcher = try UnixConnection.connect(to: path)
        try watcher.writeAll(Array(#"{"cmd":"watch"}"#.utf8 + [10]))
        loop.advance(by: .milliseconds(1))
        _ = lines(watcher)
        let client = try UnixConnection.connect(to: path)
        try client.writeAll(Array(#"{"cmd":"add","duration":"5m"}"#.utf8 + [10]))
        loop.advance(by: .milliseconds(1))
        #expect(reply(lines(client).first ?? "")["remaining_ms"] as? Int64 == 899_499)
        let events = lines(watcher).map(reply)
        #expect(events.contains { $0["display"] as? String == "15:00" }, "\(events)")
        loop.advance(by: .seconds(1))
        #expect(lines(watcher).map(reply).contains { $0["display"] as? String == "14:59" })
        client.close()
        watcher.close()
        box.host.stop()
    }

    /// The pasta given 2 minutes, then the plug pulled; back 100 s later:
    /// the count ends where the added time put it, and the file says so.
    @Test func aPowerCutThroughTheStateFileKeepsTheNewEnd() throws {
        let path = try stateFile()
        do {
            let box = try TestBox("timer: {presets: [9m]}", loop: loop, statePath: path)
            loop.advance(by: .seconds(1))
            _ = box.host.service.reply(to: .start)
            _ = box.host.service.reply(to: .timer(.add(name: "EGG", duration: .seconds(360))))
            loop.advance(by: .seconds(60))
            _ = box.host.service.reply(to: .add(.seconds(120), name: nil))
            _ = box.host.service.reply(to: .add(.seconds(60), name: "EGG"))
            loop.advance(by: .seconds(5))
            withExtendedLifetime(box) {}
        }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains(#""length":660000000000"#))
        let later = VirtualLoop(epoch: Self.epoch + .seconds(166))
        let again = try TestBox("timer: {presets: [9m]}", loop: later, statePath: path)
        later.advance(by: .seconds(1))
        // Started at 1 s for 11 minutes; now 167 s of wall time.
        #expect(again.shell.progress().remaining == .seconds(661 - 167))
        #expect(again.shell.core.timers.named("EGG")?.left(at: later.instant) == .seconds(421 - 167))
    }

    /// 2,000 adds in a second at the limit, each refused, and 2,000 just
    /// under it, each accepted: the box ends where the last one left it,
    /// and the state file is written no faster than its pacing allows.
    @Test func aFloodOfAddsIsWrittenAtTheStateFilesPace() throws {
        let path = try stateFile()
        let box = try TestBox("timer: {presets: [99h58m]}", loop: loop, statePath: path)
        loop.advance(by: .seconds(1))
        _ = box.host.service.reply(to: .start)
        _ = box.host.service.reply(to: .add(.seconds(60), name: nil))
        loop.advance(by: .seconds(2))
        let before = box.host.store?.writes ?? 0
        var refused = 0
        for i in 0..<2_000 {
            if box.host.service.reply(to: .add(.seconds(5), name: nil))["ok"] as? Bool == false { refused += 1 }
            // Taken away and given back: accepted each time.
            _ = box.host.service.reply(to: .add(.milliseconds(-1), name: nil))
            _ = box.host.service.reply(to: .add(.milliseconds(1), name: nil))
            if i % 500 == 499 { loop.advance(by: .milliseconds(250)) }
        }
        loop.advance(by: .seconds(3))
        #expect(refused == 2_000)
        let writes = (box.host.store?.writes ?? 0) - before
        #expect(writes >= 1 && writes <= 10 + 4, "\(writes) writes")
        #expect(box.shell.progress().remaining == AddTime.mostLeft - .seconds(6))  // 6 s counted since the first add
    }

    /// Near the last second of the wall clock the box trusts, the longest
    /// count given time and a timer given time read back after a restart.
    @Test func whatIsWrittenUnderAClockAtTheEndOfItsRangeReadsBack() throws {
        let path = try stateFile()
        let config = "timer: {presets: [99h58m]}"
        do {
            let loop = VirtualLoop(epoch: TimeBounds.latestClock - .seconds(100))
            let box = try TestBox(config, loop: loop, statePath: path)
            loop.advance(by: .seconds(1))
            _ = box.host.service.reply(to: .start)
            _ = box.host.service.reply(to: .timer(.add(name: "EGG", duration: .seconds(99 * 3600))))
            loop.advance(by: .seconds(30))
            #expect(box.host.service.reply(to: .add(.seconds(60), name: nil))["ok"] as? Bool == true)
            #expect(box.host.service.reply(to: .add(.seconds(59 * 60 - 30), name: "EGG"))["ok"] as? Bool == true)
            loop.advance(by: .seconds(5))
            withExtendedLifetime(box) {}
        }
        let later = VirtualLoop(epoch: TimeBounds.latestClock - .seconds(40))
        let again = try TestBox(config, loop: later, statePath: path)
        later.advance(by: .seconds(1))
        #expect(again.shell.state == .running)
        #expect(again.shell.progress().remaining == .seconds(99 * 3600 + 59 * 60 - 60))
        // EGG: 99h59m less a minute left at 31 s, 61 s now.
        #expect(again.shell.core.timers.named("EGG")?.left(at: later.instant) == .seconds(99 * 3600 + 59 * 60 - 90))
    }
}

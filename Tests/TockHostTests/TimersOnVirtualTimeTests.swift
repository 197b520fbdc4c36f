import Foundation
import Logging
import Testing
import TockConfig
import TockControl
import TockCore
import TockLoop
import TockMock
import TockTestSupport
@testable import TockHost
@testable import TockShell

/// Extra timers through the whole box on virtual time: the control
/// requests and their refusals, the status, a power cut through the real
/// state file, a reload, and a flood of requests against the state file's
/// pacing.
@Suite struct TimersOnVirtualTimeTests {
    static let epoch = WallTime(secondsSince1970: 1_800_000_000)
    let loop = VirtualLoop(epoch: Self.epoch)

    func parse(_ line: String) throws(ControlRequest.Invalid) -> ControlRequest { try ControlRequest.parse(Array(line.utf8)) }

    func stateFile() throws -> String { try temporaryStateFile("timers") }

    @Test func theRequestsParseAndWriteTheirOwnLines() throws {
        #expect(try parse(#"{"cmd":"timer","op":"add","name":"EGG","duration":"6m"}"#) == .timer(.add(name: "EGG", duration: .seconds(360))))
        #expect(try parse(#"{"cmd":"timer","op":"list"}"#) == .timer(.list))
        #expect(try parse(#"{"cmd":"timer","op":"cancel","name":"EGG"}"#) == .timer(.cancel("EGG")))
        for r: ControlRequest in [.timer(.list), .timer(.add(name: #"a"b\c"#, duration: .seconds(359_940))), .timer(.pause("x")),
                                  .timer(.resume("x")), .timer(.cancel("\u{1F3CB}"))] {
            #expect(try parse(r.line) == r)
        }
    }

    @Test(arguments: [
        #"{"cmd":"timer"}"#, #"{"cmd":"timer","op":"start"}"#, #"{"cmd":"timer","op":"add","name":"EGG"}"#,
        #"{"cmd":"timer","op":"add","duration":"6m"}"#, #"{"cmd":"timer","op":"add","name":"","duration":"6m"}"#,
        #"{"cmd":"timer","op":"add","name":"EGG","duration":"soon"}"#, #"{"cmd":"timer","op":"add","name":"EGG","duration":360}"#,
        #"{"cmd":"timer","op":"add","name":"EGG","duration":"6m","at":"now"}"#, #"{"cmd":"timer","op":"pause"}"#,
        #"{"cmd":"timer","op":"pause","name":7}"#, #"{"cmd":"timer","op":"list","name":"EGG"}"#,
        #"{"cmd":"timer","op":"add","name":"ABCDEFGHIJKLMNOPQ","duration":"6m"}"#,
        #"{"cmd":"timer","op":"add","name":"EGG","duration":"99999999999999999999h"}"#,
    ])
    func malformedRequestsAreRefusedWithWhatToFix(_ line: String) throws {
        #expect(throws: ControlRequest.Invalid.self) { try parse(line) }
        do { _ = try parse(line) } catch { #expect(error.description.contains("timer"), "\(error.description)") }
    }

    @Test func addedTimersAreInTheStatusAndTheBoxsRefusalsComeBackInWords() throws {
        let box = try TestBox("timer: {presets: [10m]}", loop: loop)
        loop.advance(by: .seconds(1))
        var r = box.host.service.reply(to: .timer(.add(name: "EGG", duration: .seconds(360))))
        #expect(r["ok"] as? Bool == true)
        let timers = try #require(r["timers"] as? [[String: Any]])
        #expect(timers.count == 1)
        #expect(timers[0]["name"] as? String == "EGG" && timers[0]["label"] as? String == "E99")
        #expect(timers[0]["state"] as? String == "running" && timers[0]["remaining_ms"] as? Int64 == 360_000)
        #expect(timers[0]["ends"] as? String == "2027-01-15T08:06:01Z")
        #expect(timers[0]["shown"] as? Bool == true)
        r = box.host.service.reply(to: .timer(.add(name: "kale", duration: .seconds(60))))
        #expect(r["ok"] as? Bool == false)
        #expect((r["error"] as? String)?.contains("cannot be drawn on 7 segments") == true)
        r = box.host.service.reply(to: .timer(.add(name: "E99", duration: .seconds(60))))
        #expect((r["error"] as? String)?.contains("is running; cancel it first") == true)
        loop.advance(by: .seconds(100))
        r = box.host.service.reply(to: .timer(.pause("EGG")))
        let paused = try #require((r["timers"] as? [[String: Any]])?.first)
        #expect(paused["state"] as? String == "paused" && paused["remaining_ms"] as? Int64 == 260_000 && paused["ends"] == nil)
        // The display shows it, blinking, with its time left.
        #expect(box.shell.core.focus(at: loop.instant) == .extra("EGG"))
    }

    /// Four running and one paused, the box dropped without a stop (a
    /// pulled plug) and started again 100 s later on another boot's clock:
    /// each is where the wall clock says it must be.
    @Test func aPowerCutThroughTheStateFileLosesNoTimer() throws {
        let path = try stateFile()
        do {
            let box = try TestBox("timer: {presets: [10m]}", loop: loop, statePath: path)
            loop.advance(by: .seconds(1))
            for (name, s) in [("EGG", 360), ("rICE", 1200), ("oven", 3600), ("PiE", 120), ("tEA", 240)] {
                _ = box.host.service.reply(to: .timer(.add(name: name, duration: .seconds(Int64(s)))))
                loop.advance(by: .seconds(1))
            }
            _ = box.host.service.reply(to: .timer(.pause("tEA")))
            loop.advance(by: .seconds(54))  // 60 s in
            withExtendedLifetime(box) {}
        }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains(#""timers":[{"duration":360000000000,"name":"EGG","state":{"running":{"ends":"#))
        let later = VirtualLoop(epoch: Self.epoch + .seconds(160))
        let again = try TestBox("timer: {presets: [10m]}", loop: later, statePath: path)
        later.advance(by: .seconds(1))
        let views = Dictionary(uniqueKeysWithValues: again.shell.timers().map { ($0.timer.name, $0) })
        // Added at 1, 2, 3, 4, 5 s; now 161 s of wall time.
        #expect(views["EGG"]?.left == .seconds(360 + 1 - 161))
        #expect(views["rICE"]?.left == .seconds(1200 + 2 - 161))
        #expect(views["oven"]?.left == .seconds(3600 + 3 - 161))
        #expect(views["PiE"]?.timer.stateName.rawValue == "ringing")  // ended at 124 s, while off
        #expect(views["tEA"]?.timer.stateName.rawValue == "paused")
        #expect(views["tEA"]?.left == .seconds(240 - 1))  // paused 1 s after it was added
        #expect(again.shell.tone != nil)
    }

    /// The pasta after a power cut on a Pi with no real-time clock: the
    /// 12m30s count and a 6-minute timer, cut 66 s in; the box is back 30 s
    /// later with its clock 225 s behind (the time it saved last) and not
    /// synchronised. When NTP sets the clock, both are corrected through
    /// the state file's restore: each rings when it would have had the box
    /// stayed on, and the file is written again as the set clock reads it.
    @Test func aCountRestoredUnderAClockBehindCatchesUpWhenNTPSetsIt() throws {
        let path = try stateFile()
        do {
            let box = try TestBox("timer: {presets: [12m30s]}", loop: loop, statePath: path)
            loop.advance(by: .seconds(1))
            _ = box.host.service.reply(to: .start)
            _ = box.host.service.reply(to: .timer(.add(name: "EGG", duration: .seconds(360))))
            loop.advance(by: .seconds(65))  // 66 s in
            withExtendedLifetime(box) {}
        }
        let later = VirtualLoop(epoch: Self.epoch + .seconds(96) - .seconds(225))
        later.wallSynchronised = false
        let again = try TestBox("timer: {presets: [12m30s]}", loop: later, statePath: path)
        later.advance(by: .seconds(4))  // true time 100 s
        #expect(again.shell.state == .running)
        #expect(again.shell.progress().remaining == .seconds(746))  // restored from its start: the start looked ahead of the clock
        later.stepWall(by: .seconds(225), synchronised: true)
        later.advance(by: .seconds(1))  // true time 101 s
        #expect(again.shell.progress().remaining == .seconds(750 - 100))
        #expect(again.shell.core.timers.named("EGG")?.left(at: later.instant) == .seconds(360 - 100))
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains(#"{"running":{"ends":\#((Self.epoch + .seconds(361)).nanoseconds)}"#))
    }

    /// Tock wrote state files it later refused: with the clock at
    /// 2199-12-31T22:00Z a 5 h count ends in 2200, past what the reader
    /// takes, and the next start lost the count and both timers. A clock
    /// that late is unverified (the count runs on the monotonic clock), and
    /// what is written reads back; at the last trusted second the longest
    /// count does too.
    @Test(arguments: [WallTime(secondsSince1970: 7_258_111_200), TimeBounds.latestClock])
    func whatIsWrittenUnderAClockAtTheEndOfItsRangeReadsBack(clock: WallTime) throws {
        let path = try stateFile()
        let config = "timer: {presets: [99h59m]}"
        do {
            let loop = VirtualLoop(epoch: clock)
            let box = try TestBox(config, loop: loop, statePath: path)
            loop.advance(by: .seconds(1))
            _ = box.host.service.reply(to: .start)
            _ = box.host.service.reply(to: .timer(.add(name: "EGG", duration: .seconds(5 * 3600))))
            _ = box.host.service.reply(to: .timer(.add(name: "tEA", duration: .seconds(99 * 3600))))
            loop.advance(by: .seconds(60))
            withExtendedLifetime(box) {}
        }
        let later = VirtualLoop(epoch: clock + .seconds(90))
        let lines = LogLines()
        let again = try TestBox(config, loop: later, statePath: path, log: Logger(label: "test") { _ in LogCapture(lines: lines) })
        later.advance(by: .seconds(1))
        #expect(again.shell.state == .running)
        #expect(again.shell.timers().map(\.timer.name) == ["EGG", "tEA"])
        #expect(lines.messages.filter { $0.contains("damaged") || $0.contains("would refuse") }.isEmpty, "\(lines.messages)")
    }

    @Test func aReloadKeepsTheTimers() throws {
        let box = try TestBox("timer: {presets: [10m]}", loop: loop)
        loop.advance(by: .seconds(1))
        _ = box.host.service.reply(to: .timer(.add(name: "EGG", duration: .seconds(360))))
        loop.advance(by: .seconds(10))
        var settings = box.shell.core.settings
        settings.presets = [.seconds(120)]
        settings.display.brightness = 3
        box.shell.reconfigure(settings)
        loop.advance(by: .seconds(1))
        #expect(box.shell.core.timers.named("EGG")?.left(at: loop.instant) == .seconds(360 - 11))
    }

    /// A flood: 1,000 adds and cancels in one second of virtual time. The
    /// box ends as the last request left it, and the state file is written
    /// no faster than its pacing allows (10 at once, then one a second).
    @Test func aFloodOfRequestsIsWrittenAtTheStateFilesPace() throws {
        let path = try stateFile()
        let box = try TestBox("timer: {presets: [10m]}", loop: loop, statePath: path)
        loop.advance(by: .seconds(1))
        let before = box.host.store?.writes ?? 0
        for i in 0..<500 {
            _ = box.host.service.reply(to: .timer(.add(name: "A\(i % 8)", duration: .seconds(60 + Int64(i)))))
            _ = box.host.service.reply(to: .timer(.cancel("A\(i % 8)")))
            if i % 100 == 99 { loop.advance(by: .milliseconds(200)) }
        }
        _ = box.host.service.reply(to: .timer(.add(name: "LASt", duration: .seconds(60))))
        loop.advance(by: .seconds(3))
        let writes = (box.host.store?.writes ?? 0) - before
        #expect(writes >= 2 && writes <= 10 + 4, "\(writes) writes")
        #expect(box.shell.core.timers.list.map(\.name) == ["LASt"])
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains(#""name":"LASt""#))
    }
}

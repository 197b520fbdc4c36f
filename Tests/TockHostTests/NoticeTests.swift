import Testing
import TockControl
import TockCore
import TockHardware
import TockLoop
import TockMock
@testable import TockHost
@testable import TockShell

/// The display notice (the web page's pairing code): shown over the
/// count, which goes on underneath, until its deadline, a button, or
/// notice-end.
@Suite struct NoticeTests {
    let loop = VirtualLoop(epoch: WallTime(secondsSince1970: 1_800_000_000))

    func shown(_ box: TestBox) -> String? { (box.shell.display as? MockDisplay)?.current?.text }

    @Test func aNoticeCoversTheCountForItsTimeAndTheCountGoesOn() throws {
        let box = try TestBox("timer: {presets: [2m]}", loop: loop)
        box.shell.action(.pressed(.start))
        let reply = box.host.service.reply(to: .notice(text: "4821", seconds: 60))
        #expect(reply["display"] as? String == "4821")
        #expect(reply["notice"] as? Bool == true)
        #expect(reply["segments"] as? [Int] == [0x66, 0x7F, 0x5B, 0x06])
        loop.advance(by: .seconds(59))
        #expect(shown(box) == "4821")
        #expect(box.state == "running")
        loop.advance(by: .seconds(1))
        #expect(shown(box) == "01:00")
        #expect(box.host.service.status()["notice"] == nil)
    }

    @Test func aButtonOrNoticeEndTakesItDown() throws {
        let box = try TestBox("timer: {presets: [2m]}", loop: loop)
        _ = box.host.service.reply(to: .notice(text: "4821", seconds: 60))
        loop.advance(by: .seconds(1))
        box.shell.edge(Edge(line: .button(.stop), active: true, timestamp: loop.instant))
        #expect(shown(box) == "02:00")
        _ = box.host.service.reply(to: .notice(text: "0007", seconds: 60))
        #expect(shown(box) == "0007")
        _ = box.host.service.reply(to: .noticeEnd)
        #expect(shown(box) == "02:00")
    }

    /// The press that takes a notice down does nothing else: Start held
    /// on the pairing code (with its chatter and release) starts nothing.
    @Test func aPressOnANoticeTakesItDownAndDoesNothingElse() throws {
        let box = try TestBox("timer: {presets: [2m]}", loop: loop)
        _ = box.host.service.reply(to: .notice(text: "4821", seconds: 60))
        press(box, .start, hold: .milliseconds(1500), bounces: 4)
        loop.advance(by: .seconds(1))
        #expect(shown(box) == "02:00")
        #expect(box.state == "ready")
    }

    @Test func aNoticeWiderThanTheDisplayIsRefusedAndNothingChanges() throws {
        let box = try TestBox("timer: {presets: [2m]}", loop: loop)
        let reply = box.host.service.reply(to: .notice(text: "123456", seconds: 60))
        #expect(reply["ok"] as? Bool == false)
        #expect(shown(box) == "02:00")
        #expect(throws: ControlRequest.Invalid.self) { try ControlRequest.parse(Array(#"{"cmd":"notice","text":"4821","seconds":0}"#.utf8)) }
        #expect(throws: ControlRequest.Invalid.self) { try ControlRequest.parse(Array(#"{"cmd":"notice","text":"WXYZ","seconds":5}"#.utf8)) }
        #expect(try ControlRequest.parse(Array(ControlRequest.notice(text: "4821", seconds: 60).line.utf8)) == .notice(text: "4821", seconds: 60))
    }

    // MARK: a prompt that waits for a hand on the box (pairing)

    func press(_ box: TestBox, _ b: Button, hold: Duration, bounces: Int = 0) {
        for (active, at) in PressWaveform.edges(at: loop.instant, hold: hold, bounces: bounces) {
            if at > loop.instant { loop.advance(by: at - loop.instant) }
            box.shell.edge(Edge(line: .button(b), active: active, timestamp: at))
        }
    }

    func prompt(_ box: TestBox) -> ControlReply {
        box.host.service.reply(to: .prompt(prompt: "HoLd", within: 30, text: "4821", seconds: 120))
    }

    /// Start held for a second on `HoLd` shows the code, for its own time,
    /// and the status says a hand on the box confirmed it; the hold, its
    /// chatter and its release never start the count.
    @Test func startHeldOnThePromptRevealsTheCodeAndStartsNothing() throws {
        let box = try TestBox("timer: {presets: [2m]}", loop: loop)
        #expect(prompt(box)["display"] as? String == "HoLd")
        #expect(box.host.service.status()["notice_confirmed"] == nil)
        loop.advance(by: .seconds(5))
        press(box, .start, hold: .milliseconds(1500), bounces: 4)
        #expect(shown(box) == "4821")
        #expect(box.host.service.status()["notice_confirmed"] as? Bool == true)
        loop.advance(by: .seconds(1))
        #expect(box.state == "ready")
        loop.advance(by: .seconds(118))
        #expect(shown(box) == "4821")
        loop.advance(by: .seconds(1))
        #expect(shown(box) == "02:00")
        #expect(box.state == "ready")
        #expect(box.host.service.status()["notice_confirmed"] == nil)
    }

    /// Nothing but a hold on the box reveals it: a short press of Start (the
    /// owner who wanted to start the count) says no and starts nothing, a
    /// start over the socket (the page, MQTT) neither reveals nor ends it,
    /// and a prompt nobody answers goes after its time.
    @Test func onlyAHoldOnTheBoxRevealsTheCode() throws {
        let box = try TestBox("timer: {presets: [2m]}", loop: loop)
        _ = prompt(box)
        press(box, .start, hold: .milliseconds(200), bounces: 2)
        #expect(shown(box) == "HoLd")
        loop.advance(by: .seconds(1))
        #expect(shown(box) == "02:00", "a short press took the prompt down")
        #expect(box.state == "ready", "and started nothing")
        press(box, .start, hold: .milliseconds(100))
        loop.advance(by: .seconds(1))
        #expect(box.state == "running", "the next press is a press again")
        _ = prompt(box)
        loop.advance(by: .seconds(30))
        #expect(shown(box) != "HoLd" && shown(box) != "4821")
    }

    /// A start over the socket (the page, MQTT) is no hand on the box.
    @Test func aStartOverTheSocketRevealsNothing() throws {
        let box = try TestBox("timer: {presets: [2m]}", loop: loop)
        _ = prompt(box)
        _ = box.host.service.reply(to: .start)
        loop.advance(by: .seconds(2))
        #expect(shown(box) == "HoLd")
        #expect(box.host.service.status()["notice_confirmed"] == nil)
    }

    /// Stop on the prompt says no: the prompt goes and a running count is not paused.
    @Test func stopOnThePromptTakesItDownAndPausesNothing() throws {
        let box = try TestBox("timer: {presets: [2m]}", loop: loop)
        box.shell.action(.pressed(.start))
        _ = prompt(box)
        press(box, .stop, hold: .milliseconds(100), bounces: 3)
        #expect(shown(box) != "HoLd")
        #expect(box.state == "running")
        #expect(box.host.service.status()["notice"] == nil)
    }

    @Test func aPromptIsParsedAndRefusedLikeANotice() throws {
        let line = #"{"cmd":"notice","prompt":"HoLd","within":30,"text":"4821","seconds":120}"#
        #expect(try ControlRequest.parse(Array(line.utf8)) == .prompt(prompt: "HoLd", within: 30, text: "4821", seconds: 120))
        #expect(ControlRequest.prompt(prompt: "HoLd", within: 30, text: "4821", seconds: 120).line == line)
        #expect(throws: ControlRequest.Invalid.self) { try ControlRequest.parse(Array(#"{"cmd":"notice","prompt":"HoLd","text":"4821","seconds":120}"#.utf8)) }
        #expect(throws: ControlRequest.Invalid.self) { try ControlRequest.parse(Array(#"{"cmd":"notice","prompt":"WXYZ","within":30,"text":"4821","seconds":120}"#.utf8)) }
    }
}

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

    @Test func aNoticeWiderThanTheDisplayIsRefusedAndNothingChanges() throws {
        let box = try TestBox("timer: {presets: [2m]}", loop: loop)
        let reply = box.host.service.reply(to: .notice(text: "123456", seconds: 60))
        #expect(reply["ok"] as? Bool == false)
        #expect(shown(box) == "02:00")
        #expect(throws: ControlRequest.Invalid.self) { try ControlRequest.parse(Array(#"{"cmd":"notice","text":"4821","seconds":0}"#.utf8)) }
        #expect(throws: ControlRequest.Invalid.self) { try ControlRequest.parse(Array(#"{"cmd":"notice","text":"WXYZ","seconds":5}"#.utf8)) }
        #expect(try ControlRequest.parse(Array(ControlRequest.notice(text: "4821", seconds: 60).line.utf8)) == .notice(text: "4821", seconds: 60))
    }
}

import Foundation
import Testing
import TockConfig
import TockControl
import TockCore
import TockHardware
import TockLoop
import TockTestSupport
import TockMock
@testable import TockHost
@testable import TockShell

/// The switch, the brightness and the night schedule from outside (the
/// control socket, MQTT, the web page), on the whole box on virtual time.
@Suite struct PanelControlTests {
    static let epoch = WallTime(secondsSince1970: 1_800_000_000)  // 2027-01-15 08:00 UTC
    let loop = VirtualLoop(epoch: Self.epoch)

    func parse(_ line: String) throws(ControlRequest.Invalid) -> ControlRequest { try ControlRequest.parse(Array(line.utf8)) }

    func shown(_ box: TestBox) -> Frame? { (box.shell.display as? MockDisplay)?.current }

    func stateFile() throws -> String { try temporaryStateFile("panel") }

    // MARK: - Parsing

    @Test func theRequestsParseAndWriteTheirOwnLines() throws {
        #expect(try parse(#"{"cmd":"switch","position":"up"}"#) == .flip(.up))
        #expect(try parse(#"{"cmd":"brightness","level":0}"#) == .brightness(0))
        #expect(try parse(#"{"cmd":"brightness"}"#) == .brightness(nil))
        #expect(try parse(#"{"cmd":"night","from":"22:00","to":"7:00","brightness":1}"#) == .night(.on(from: 79_200, to: 25_200, brightness: 1)))
        #expect(try parse(#"{"cmd":"night","off":true}"#) == .night(.off))
        #expect(try parse(#"{"cmd":"night"}"#) == .night(nil))
        // Some of the three: a change to the schedule there is.
        #expect(try parse(#"{"cmd":"night","from":"23:00"}"#) == .night(.change(from: 82_800, to: nil, brightness: nil)))
        #expect(try parse(#"{"cmd":"night","to":"06:30","brightness":0}"#) == .night(.change(from: nil, to: 23_400, brightness: 0)))
        for r: ControlRequest in [.flip(.down), .brightness(7), .brightness(nil), .night(.off), .night(nil),
                                  .night(.on(from: 0, to: 86_340, brightness: 0)), .night(.change(from: 60, to: nil, brightness: nil)),
                                  .night(.change(from: nil, to: 120, brightness: 2)), .night(.change(from: 60, to: 120, brightness: nil))] {
            #expect(try parse(r.line) == r)
        }
    }

    @Test(arguments: [
        #"{"cmd":"switch","position":"sideways"}"#, #"{"cmd":"switch","position":1}"#, #"{"cmd":"switch"}"#,
        #"{"cmd":"switch","position":"up","force":true}"#, #"{"cmd":"switch","position":"UP"}"#,
        #"{"cmd":"brightness","level":8}"#, #"{"cmd":"brightness","level":-1}"#, #"{"cmd":"brightness","level":3.0}"#,
        #"{"cmd":"brightness","level":"3"}"#, #"{"cmd":"brightness","level":true}"#, #"{"cmd":"brightness","level":null}"#,
        #"{"cmd":"brightness","level":1e999}"#, #"{"cmd":"brightness","level":99999999999999999999999}"#,
        #"{"cmd":"brightness","level":2,"night":1}"#,
        #"{"cmd":"night","from":"22:00","to":"22:00","brightness":1}"#, #"{"cmd":"night","from":"24:00","to":"07:00","brightness":1}"#,
        #"{"cmd":"night","from":"22:00","to":"7:5","brightness":1}"#, #"{"cmd":"night","from":"22:00","to":"07:00","brightness":8}"#,
        #"{"cmd":"night","from":"22:00","to":"22:00"}"#, #"{"cmd":"night","brightness":8}"#, #"{"cmd":"night","to":700}"#,
        #"{"cmd":"night","from":"7"}"#, #"{"cmd":"night","brightness":"1"}"#,
        #"{"cmd":"night","from":2200,"to":"07:00","brightness":1}"#, #"{"cmd":"night","off":false}"#,
        #"{"cmd":"night","off":true,"from":"22:00"}"#, #"{"cmd":"night","off":"yes"}"#,
        #"{"cmd":"night","from":"22:00","to":"07:00","brightness":1,"zone":"UTC"}"#,
    ])
    func hostileValuesAreRefusedWithWhatToFix(_ line: String) throws {
        #expect(throws: ControlRequest.Invalid.self) { try parse(line) }
        do { _ = try parse(line) } catch {
            #expect(error.description.count > 10)
            #expect(["switch", "brightness", "night", "field"].contains { error.description.contains($0) })
        }
    }

    // MARK: - The switch

    @Test func aFlipFromOutsideTracesWhatTheLeverDoes() throws {
        func traced(_ act: (TestBox, VirtualLoop) -> Void) throws -> [String] {
            let loop = VirtualLoop(epoch: Self.epoch)
            let box = try TestBox("timer: {presets: [2m]}", loop: loop)
            var lines: [String] = []
            box.shell.trace = TraceWriter(origin: loop.instant, leds: [], sink: { lines.append($0) })
            loop.advance(by: .seconds(1))
            act(box, loop)
            loop.advance(by: .seconds(1))
            box.shell.action(.pressed(.start))
            loop.advance(by: .seconds(3))
            return lines
        }
        // The lever's edge at 1 s settles 20 ms later (input.debounce); the request comes then.
        let lever = try traced { box, loop in
            box.shell.edge(Edge(line: .directionSwitch, active: true, timestamp: loop.instant))
            loop.advance(by: .milliseconds(20))
        }
        let request = try traced { box, loop in
            loop.advance(by: .milliseconds(20))
            _ = box.host.service.reply(to: .flip(.up))
        }
        #expect(lever == request)
        #expect(lever.contains(#"{"t":1.020,"display":"00:00"}"#))
        #expect(lever.contains(#"{"t":5.020,"display":"00:03"}"#))
    }

    @Test func theLeversNextMoveWinsAndAMoveToWhereItIsChangesNothing() throws {
        let box = try TestBox("timer: {presets: [2m]}", loop: loop)  // the lever is down
        let reply = box.host.service.reply(to: .flip(.up))
        #expect(reply["switch"] as? String == "up")
        #expect(reply["display"] as? String == "00:00")
        // The lever follows to up: nothing to change.
        loop.advance(by: .seconds(1))
        let frames = (box.shell.display as? MockDisplay)?.frames.count
        box.shell.edge(Edge(line: .directionSwitch, active: true, timestamp: loop.instant))
        loop.advance(by: .seconds(1))
        #expect((box.shell.display as? MockDisplay)?.frames.count == frames)
        #expect(box.host.service.status()["switch"] as? String == "up")
        // The lever goes down: down it is.
        box.shell.edge(Edge(line: .directionSwitch, active: false, timestamp: loop.instant))
        loop.advance(by: .seconds(1))
        #expect(box.host.service.status()["switch"] as? String == "down")
        #expect(shown(box)?.text == "02:00")
        // Asked for where it already is: nothing happens.
        _ = box.host.service.reply(to: .flip(.down))
        #expect((box.shell.display as? MockDisplay)?.frames.count == frames.map { $0 + 1 })
    }

    @Test func whileRunningAFlipWaitsForTheResetAsTheLeversDoes() throws {
        let box = try TestBox("timer: {presets: [2m]}", loop: loop)
        box.shell.action(.pressed(.start))
        loop.advance(by: .seconds(10))
        _ = box.host.service.reply(to: .flip(.up))
        loop.advance(by: .seconds(1))
        #expect(shown(box)?.text == "01:49")
        #expect(box.host.service.status()["direction"] as? String == "down")
        box.shell.action(.pressed(.stop))
        box.shell.action(.pressed(.reset))
        #expect(shown(box)?.text == "00:00")
    }

    @Test func aFlipSilencesARingingCount() throws {
        let box = try TestBox("timer: {presets: [2s]}", loop: loop)
        box.shell.action(.pressed(.start))
        loop.advance(by: .seconds(3))
        #expect(box.state == "ringing")
        _ = box.host.service.reply(to: .flip(.up))
        #expect(box.state == "done")
        #expect(box.shell.tone == nil)
    }

    @Test func theMqttSwitchTopicFollowsAFlipFromOutside() throws {
        let broker = VirtualBroker(loop: loop)
        let link = broker.link("kitchen")
        let box = try TestBox("mqtt: {host: h, client_id: kitchen}\ntimer: {presets: [2m]}", loop: loop, link: link)
        loop.advance(by: .seconds(1))
        link.inject("tock/kitchen/cmd", #"{"cmd":"switch","position":"up"}"#)
        loop.advance(by: .seconds(2))
        #expect(broker.published(on: "tock/kitchen/switch") == ["down", "up"])
        #expect(reply(broker.published(on: "tock/kitchen/reply").last ?? "")["switch"] as? String == "up")
        withExtendedLifetime(box) {}
    }

    // MARK: - Brightness and the night schedule

    @Test func brightnessAndANightScheduleApplyAtOnce() throws {
        let box = try TestBox("timer: {presets: [2m]}\nclock: {zone: UTC}", loop: loop)
        #expect(shown(box)?.brightness == 7)
        var r = box.host.service.reply(to: .brightness(3))
        #expect((r["brightness"] as? Int, r["brightness_now"] as? Int, shown(box)?.brightness) == (3, 3, 3))
        // 07:00-09:00 holds 08:00 now: the night's level at once, the day's again at 09:00.
        r = box.host.service.reply(to: .night(.on(from: 7 * 3600, to: 9 * 3600, brightness: 0)))
        #expect(r["brightness_now"] as? Int == 0)
        #expect(shown(box)?.brightness == 0)
        #expect((r["night"] as? [String: Any])?["from"] as? String == "07:00")
        loop.advance(by: .seconds(3599))
        #expect(shown(box)?.brightness == 0)
        loop.advance(by: .seconds(1))
        #expect(shown(box)?.brightness == 3)
        r = box.host.service.reply(to: .night(.off))
        #expect(r["night"] == nil)
        #expect(box.host.service.reply(to: .brightness(nil))["brightness"] as? Int == 3)
    }

    @Test func aChangeToSomeOfTheScheduleKeepsTheRestAndNeedsASchedule() throws {
        let box = try TestBox("timer: {presets: [2m]}\nclock: {zone: UTC}", loop: loop)
        var r = box.host.service.reply(to: .night(.change(from: 82_800, to: nil, brightness: nil)))
        #expect(r["ok"] as? Bool == false)
        #expect((r["error"] as? String)?.contains("no night schedule") == true)
        #expect(box.shell.core.dimming == Dimming(brightness: 7))
        _ = box.host.service.reply(to: .night(.on(from: 22 * 3600, to: 7 * 3600, brightness: 1)))
        r = box.host.service.reply(to: .night(.change(from: 23 * 3600, to: nil, brightness: nil)))
        #expect(r["ok"] as? Bool == true)
        r = box.host.service.reply(to: .night(.change(from: nil, to: nil, brightness: 0)))
        #expect(box.shell.core.dimming.night == NightSchedule(from: 23 * 3600, to: 7 * 3600, brightness: 0))
        // A change that leaves from and to the same is refused by the core, and changes nothing.
        r = box.host.service.reply(to: .night(.change(from: nil, to: 23 * 3600, brightness: nil)))
        #expect(r["ok"] as? Bool == false)
        #expect(box.shell.core.dimming.night == NightSchedule(from: 23 * 3600, to: 7 * 3600, brightness: 0))
    }

    @Test func theCoreRefusesLevelsItCannotShowAndKeepsWhatItHad() throws {
        let box = try TestBox("timer: {presets: [2m]}", loop: loop)
        for bad in [Dimming(brightness: 8), Dimming(brightness: -1), Dimming(brightness: 3, night: NightSchedule(from: 60, to: 60, brightness: 1)),
                    Dimming(brightness: 3, night: NightSchedule(from: 0, to: 86_400, brightness: 1)),
                    Dimming(brightness: 3, night: NightSchedule(from: 0, to: 60, brightness: 9))] {
            #expect(throws: Machine.Refusal.self) { try box.shell.setDimming(bad) }
        }
        #expect(box.shell.core.dimming == Dimming(brightness: 7))
        #expect(shown(box)?.brightness == 7)
    }

    @Test func anEditOutlivesARestartUntilTheFilesOwnValuesChange() throws {
        let path = try stateFile()
        let yaml = "timer: {presets: [2m]}\nclock: {zone: UTC}\ndisplay: {brightness: 6}"
        let night = NightSchedule(from: 22 * 3600, to: 7 * 3600, brightness: 1)
        do {
            let box = try TestBox(yaml, loop: loop, statePath: path)
            _ = box.host.service.reply(to: .brightness(2))
            _ = box.host.service.reply(to: .night(.on(from: night.from, to: night.to, brightness: 1)))
            loop.advance(by: .seconds(1))
            withExtendedLifetime(box) {}  // then dropped without a stop, as a power cut leaves it
        }
        let again = try TestBox(yaml, loop: VirtualLoop(epoch: Self.epoch + .seconds(60)), statePath: path)
        #expect(again.shell.core.dimming == Dimming(brightness: 2, night: night))
        #expect(shown(again)?.brightness == 2)
        // A reload of the same file keeps the edit; one that changes display.brightness puts the file's back.
        var settings = again.shell.core.settings
        again.shell.reconfigure(settings)
        #expect(again.shell.core.dimming == Dimming(brightness: 2, night: night))
        settings.display.brightness = 5
        again.shell.reconfigure(settings)
        #expect(again.shell.core.dimming == Dimming(brightness: 5))
        #expect(shown(again)?.brightness == 5)
        // A restart with another file: the file wins.
        let edited = try TestBox(yaml.replacingOccurrences(of: "brightness: 6", with: "brightness: 4"),
                                 loop: VirtualLoop(epoch: Self.epoch + .seconds(120)), statePath: path)
        #expect(edited.shell.core.dimming == Dimming(brightness: 4))
    }

    @Test func anEditIsWrittenToTheStateFileAtOnce() throws {
        let path = try stateFile()
        let box = try TestBox("timer: {presets: [2m]}", loop: loop, statePath: path)
        let writes = box.host.store?.writes ?? -1
        _ = box.host.service.reply(to: .brightness(1))
        #expect(box.host.store?.writes == writes + 1)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains(#""dimming""#))
        #expect(text.contains(#""brightness":1"#))
    }
    // MARK: - Presses that change nothing

    /// A press from outside that changes nothing (Reset while running) is
    /// answered with why, as `tock mode` is, not with a silent "ok"; one
    /// that acts is answered ok. The same in a group, where a press acts
    /// at the agreed instant and the reply comes before it.
    @Test func aPressThatChangesNothingSaysWhy() throws {
        let box = try TestBox("timer: {presets: [10s]}", loop: loop)
        loop.advance(by: .seconds(1))
        var r = box.host.service.reply(to: .stop)
        #expect(r["ok"] as? Bool == false)
        #expect(r["error"] as? String == "Stop does nothing in ready: there is no count to stop")
        r = box.host.service.reply(to: .start)
        #expect(r["ok"] as? Bool == true && r["state"] as? String == "running")
        r = box.host.service.reply(to: .reset)
        #expect(r["ok"] as? Bool == false && r["state"] as? String == "running")
        #expect((r["error"] as? String)?.hasPrefix("Reset does nothing from outside while the count runs: stop it first") == true)
        r = box.host.service.reply(to: .stop)
        #expect(r["ok"] as? Bool == true && r["state"] as? String == "paused")
        r = box.host.service.reply(to: .reset)
        #expect(r["ok"] as? Bool == true && r["state"] as? String == "ready")
        let broker = VirtualBroker(loop: loop)
        let member = try TestBox("mqtt: {host: h, client_id: a, group: gym}\ntimer: {presets: [10s]}", loop: loop, link: broker.link("a"))
        loop.advance(by: .seconds(1))
        r = member.host.service.reply(to: .start)
        #expect(r["ok"] as? Bool == true)  // on its way to the agreed instant
        loop.advance(by: .seconds(1))
        #expect(member.state == "running")
        r = member.host.service.reply(to: .reset)
        #expect(r["ok"] as? Bool == false)
    }
}

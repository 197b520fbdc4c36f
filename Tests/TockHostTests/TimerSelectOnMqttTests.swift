import Foundation
import Logging
import Testing
import TockControl
import TockCore
import TockJSON
import TockLoop
import TockTestSupport
@testable import TockHost
@testable import TockMQTT

/// Home Assistant's Timer select, its Pause, Resume and Cancel buttons and
/// Silence on virtual time: the select's options follow the timers, the
/// buttons act on the selected one only, and whatever else arrives on
/// `<prefix>/timer_cmd` (gone names, odd names, junk, floods) is refused
/// with a reason and changes nothing.
@Suite struct TimerSelectOnMqttTests {
    let loop = VirtualLoop(epoch: WallTime(secondsSince1970: 1_800_000_000))  // 2027-01-15 08:00 UTC
    let lines = LogLines()

    func box(_ yaml: String = "timer: {presets: [9m]}\nalarm: {ring_for: 20s}") throws -> (TestBox, VirtualBroker, VirtualLink) {
        let broker = VirtualBroker(loop: loop)
        let log = Logger(label: "test") { [lines] _ in LogCapture(lines: lines) }
        let link = broker.link("kitchen")
        let box = try TestBox("mqtt: {host: h, client_id: kitchen}\n" + yaml, loop: loop, link: link, log: log)
        loop.advance(by: .seconds(1))
        return (box, broker, link)
    }

    func last(_ broker: VirtualBroker, _ topic: String) -> String? {
        broker.retained["tock/kitchen/\(topic)"].map { String(decoding: $0, as: UTF8.self) }
    }

    func selectConfig(_ broker: VirtualBroker) -> [String: Any] {
        broker.retained["homeassistant/select/kitchen/timer/config"]
            .flatMap { try? JSONSerialization.jsonObject(with: Data($0)) as? [String: Any] } ?? [:]
    }

    func options(_ broker: VirtualBroker) -> [String]? { selectConfig(broker)["options"] as? [String] }

    func send(_ link: VirtualLink, _ text: String) { link.inject("tock/kitchen/timer_cmd", text) }

    func add(_ link: VirtualLink, _ name: String, _ duration: String) {
        link.inject("tock/kitchen/cmd", JSON.object(["cmd": "timer", "op": "add", "name": .string(name), "duration": .string(duration)]).text())
    }

    func states(_ box: TestBox) -> [String: String] {
        Dictionary(uniqueKeysWithValues: box.shell.core.timers.list.map { ($0.name, $0.stateName.rawValue) })
    }

    func lastReply(_ broker: VirtualBroker) -> [String: Any] { reply(broker.published(on: "tock/kitchen/reply").last ?? "") }

    @Test func theSelectOffersTheTimersInProgressAndTellsTheNameOnceItsOptionsAreOut() throws {
        let (box, broker, link) = try box()
        #expect(options(broker) == [] && last(broker, "timer_selected") == "None")
        let config = selectConfig(broker)
        #expect(config["command_topic"] as? String == "tock/kitchen/timer_cmd" && config["state_topic"] as? String == "tock/kitchen/timer_selected")
        let availability = try #require(config["availability"] as? [[String: Any]])
        #expect(availability.last?["value_template"] as? String == "{{ 'offline' if value in ['None'] else 'online' }}")
        add(link, "EGG", "6m")
        loop.advance(by: .milliseconds(100))
        #expect(options(broker) == ["EGG"])
        // Not yet: Home Assistant applies a new config after the messages
        // that came with it, and would drop a name it does not know.
        #expect(last(broker, "timer_selected") == "None")
        let configAt = try #require(broker.log.lastIndex { $0.topic == "homeassistant/select/kitchen/timer/config" })
        loop.advance(by: .seconds(1))
        #expect(last(broker, "timer_selected") == "EGG")
        let toldAt = try #require(broker.log.lastIndex { $0.topic == "tock/kitchen/timer_selected" })
        #expect(toldAt > configAt)
        add(link, "-_ H", "9m")
        add(link, "tEA", "4m")
        loop.advance(by: .seconds(2))
        #expect(options(broker) == ["EGG", "-_ H", "tEA"] && last(broker, "timer_selected") == "EGG")
        // A pause changes no name: no config goes out again.
        let configs = broker.published(on: "homeassistant/select/kitchen/timer/config").count
        link.inject("tock/kitchen/cmd", #"{"cmd":"timer","op":"pause","name":"tEA"}"#)
        loop.advance(by: .seconds(2))
        #expect(broker.published(on: "homeassistant/select/kitchen/timer/config").count == configs)
        #expect(options(broker) == ["EGG", "-_ H", "tEA"])
        // The selected one cancelled: the first in progress, told at once
        // (Home Assistant has known it since it came).
        send(link, #"{"op":"select","name":"-_ H"}"#)
        loop.advance(by: .seconds(2))
        #expect(last(broker, "timer_selected") == "-_ H")
        link.inject("tock/kitchen/cmd", #"{"cmd":"timer","op":"cancel","name":"-_ H"}"#)
        loop.advance(by: .milliseconds(100))
        #expect(options(broker) == ["EGG", "tEA"] && last(broker, "timer_selected") == "EGG")
        // None left: None, and the select and its buttons unavailable.
        for n in ["EGG", "tEA"] { link.inject("tock/kitchen/cmd", #"{"cmd":"timer","op":"cancel","name":"\#(n)"}"#) }
        loop.advance(by: .seconds(2))
        #expect(options(broker) == [] && last(broker, "timer_selected") == "None")
        withExtendedLifetime(box) {}
    }

    /// Home Assistant may hold an older select config when the link comes
    /// back: `None` first, the options, then the name a second later.
    @Test func onReconnectingTheNameWaitsForTheOptionsAgain() throws {
        let (box, broker, link) = try box()
        add(link, "EGG", "6m")
        loop.advance(by: .seconds(2))
        #expect(last(broker, "timer_selected") == "EGG")
        link.drop()
        try box.shell.timer(.add(name: "tEA", duration: .seconds(240)))
        loop.advance(by: .seconds(1))
        let mark = broker.log.count
        link.connect()
        loop.advance(by: .milliseconds(500))
        let after = Array(broker.log[mark...])
        let none = try #require(after.firstIndex { $0.topic == "tock/kitchen/timer_selected" })
        let config = try #require(after.firstIndex { $0.topic == "homeassistant/select/kitchen/timer/config" })
        #expect(after[none].payload == "None" && none < config)
        #expect(options(broker) == ["EGG", "tEA"] && last(broker, "timer_selected") == "None")
        loop.advance(by: .seconds(1))
        #expect(last(broker, "timer_selected") == "EGG")
        #expect(broker.log[mark...].filter { $0.topic == "tock/kitchen/timer_selected" }.map(\.payload) == ["None", "EGG"])
    }

    @Test func theButtonsActOnTheSelectedTimerOnly() throws {
        let (box, broker, link) = try box()
        add(link, "EGG", "6m")
        add(link, "tEA", "4m")
        loop.advance(by: .seconds(2))
        send(link, #"{"op":"select","name":"tEA"}"#)
        send(link, #"{"op":"pause"}"#)
        loop.advance(by: .seconds(1))
        #expect(states(box) == ["EGG": "running", "tEA": "paused"])
        #expect(lastReply(broker)["ok"] as? Bool == true)
        send(link, #"{"op":"resume"}"#)
        loop.advance(by: .seconds(1))
        #expect(states(box) == ["EGG": "running", "tEA": "running"])
        send(link, #"{"op":"cancel"}"#)
        loop.advance(by: .seconds(1))
        #expect(states(box) == ["EGG": "running"])
        // The box's own count is never touched by them.
        #expect(box.state == "ready")
        withExtendedLifetime(box) {}
    }

    @Test func aNameNoLongerThereAndJunkAreRefusedAndChangeNothing() throws {
        let (box, broker, link) = try box()
        add(link, "EGG", "6m")
        add(link, "tEA", "4m")
        loop.advance(by: .seconds(2))
        send(link, #"{"op":"select","name":"tEA"}"#)
        link.inject("tock/kitchen/cmd", #"{"cmd":"timer","op":"cancel","name":"tEA"}"#)
        loop.advance(by: .seconds(2))
        // Home Assistant's options lag a moment: a select of the name just cancelled.
        let before = (states(box), box.shell.core.timers)
        send(link, #"{"op":"select","name":"tEA"}"#)
        loop.advance(by: .seconds(1))
        #expect(lastReply(broker)["error"] as? String == #"no timer named "tEA" is in progress (in progress: EGG); the selection stays as it was"#)
        #expect(last(broker, "timer_selected") == "EGG")
        let mqtt = { box.host.service.status()["mqtt"] as? [String: Any] ?? [:] }
        let ignored = mqtt()["ignored"] as? Int ?? 0
        let replies = broker.published(on: "tock/kitchen/reply").count
        for junk in ["", "[]", "null", "pause", #"{"op":"pause","name":"EGG"}"#, #"{"op":"select","name":""}"#,
                     #"{"op":"select","name":"ABCDEFGHIJKLMNOPQRSTUVWXYZ"}"#, #"{"op":"select","name":["EGG"]}"#,
                     #"{"op":"explode"}"#, String(repeating: "x", count: 100_000),
                     #"{"op":"cancel","op":"cancel"}"#, "\u{FF}\u{FE}"] {
            send(link, junk)
        }
        loop.advance(by: .seconds(2))
        #expect(mqtt()["ignored"] as? Int == ignored + 12)
        #expect(broker.published(on: "tock/kitchen/reply").count == replies, "junk gets no reply: a flood is no flood of replies")
        // A name of a control character is a name: none is in progress by it.
        send(link, #"{"op":"select","name":"\u0000"}"#)
        loop.advance(by: .seconds(1))
        #expect(lastReply(broker)["error"] as? String == #"no timer named "\u0000" is in progress (in progress: EGG); the selection stays as it was"#)
        // A command the broker kept (published retained) never runs.
        link.inject("tock/kitchen/timer_cmd", #"{"op":"cancel"}"#, retained: true)
        loop.advance(by: .seconds(2))
        #expect(mqtt()["retained_ignored"] as? Int == 1)
        #expect(states(box) == before.0 && box.shell.core.timers == before.1 && last(broker, "timer_selected") == "EGG")
        #expect(lines.messages.contains { $0.hasPrefix("mqtt: ignored a message on tock/kitchen/timer_cmd") }, "\(lines.messages)")
        #expect(lines.messages.contains { $0.hasPrefix(#"mqtt: refused select "tEA" on tock/kitchen/timer_cmd: no timer named"#) },
                "\(lines.messages)")
    }

    @Test func aFloodOfPressesStaysBoundedAndActsOnlyOnTheSelected() throws {
        let (box, broker, link) = try box()
        add(link, "EGG", "6m")
        add(link, "tEA", "4m")
        box.shell.action(.pressed(.start))
        loop.advance(by: .seconds(2))
        let mark = broker.log.count
        for i in 0..<500 { send(link, i % 2 == 0 ? #"{"op":"pause"}"# : #"{"op":"resume"}"#) }
        loop.advance(by: .seconds(3))
        let mqtt = box.host.service.status()["mqtt"] as? [String: Any]
        #expect((mqtt?["dropped"] as? Int ?? 0) == 500 - MqttBridge.inboxLimit)
        #expect(broker.log[mark...].filter { $0.topic == "tock/kitchen/reply" }.count == MqttBridge.inboxLimit)
        // 64 carried out, alternately: EGG (selected) ends resumed, tEA and the count untouched.
        #expect(states(box) == ["EGG": "running", "tEA": "running"] && box.state == "running")
        #expect(broker.log[mark...].filter { $0.topic == "tock/kitchen/timers" }.count <= 4)
        #expect(lines.messages.filter { $0.hasPrefix("mqtt: dropped") }.count == 1)
    }

    @Test func silenceSilencesWhateverRingsAndNothingElse() throws {
        let (box, broker, link) = try box("timer: {presets: [3s]}\nalarm: {ring_for: 20s}")
        #expect(last(broker, "ringing") == "OFF")
        // Nothing rings: refused, and the count is not started.
        link.inject("tock/kitchen/cmd", #"{"cmd":"silence"}"#)
        loop.advance(by: .seconds(1))
        #expect(lastReply(broker)["error"] as? String == "nothing rings; silence acts only on a ring (the count, an extra timer, a daily alarm)")
        #expect(box.state == "ready")
        // An extra timer rings while the count runs: silenced, the count runs on.
        box.shell.action(.pressed(.start))
        add(link, "EGG", "1s")
        loop.advance(by: .milliseconds(1500))
        #expect(states(box) == ["EGG": "ringing"] && last(broker, "ringing") == "ON")
        link.inject("tock/kitchen/cmd", #"{"cmd":"silence"}"#)
        loop.advance(by: .milliseconds(200))
        #expect(states(box) == ["EGG": "done"] && box.state == "running")
        // The count rings: silenced, done; a second press is refused, not a start.
        loop.advance(by: .seconds(2))
        #expect(box.state == "ringing")
        link.inject("tock/kitchen/cmd", #"{"cmd":"silence"}"#)
        link.inject("tock/kitchen/cmd", #"{"cmd":"silence"}"#)
        loop.advance(by: .seconds(2))
        #expect(box.state == "done" && last(broker, "ringing") == "OFF")
        #expect(lastReply(broker)["ok"] as? Bool == false)
        // Silence is offered only while something rings.
        let config = broker.retained["homeassistant/button/kitchen/silence/config"]
            .flatMap { try? JSONSerialization.jsonObject(with: Data($0)) as? [String: Any] } ?? [:]
        #expect(config["payload_press"] as? String == #"{"cmd":"silence"}"#)
        #expect((config["availability"] as? [[String: Any]])?.last?["topic"] as? String == "tock/kitchen/ringing")
    }

    @Test func theUpDownSelectSetsTheSwitchAsTockSwitchDoes() throws {
        let (box, broker, link) = try box()
        let config = broker.retained["homeassistant/select/kitchen/up_down/config"]
            .flatMap { try? JSONSerialization.jsonObject(with: Data($0)) as? [String: Any] } ?? [:]
        let template = try #require(config["command_template"] as? String)
        #expect(config["state_topic"] as? String == "tock/kitchen/switch" && config["options"] as? [String] == ["down", "up"])
        link.inject("tock/kitchen/cmd", template.replacingOccurrences(of: "{{ value }}", with: "up"))
        loop.advance(by: .seconds(2))
        #expect(last(broker, "switch") == "up" && last(broker, "direction") == "up")
        withExtendedLifetime(box) {}
    }
}

import Foundation
import Logging
import Testing
import TockCore
import TockLoop
import TockTestSupport
@testable import TockHost
@testable import TockMQTT

/// The extra timers on MQTT, on virtual time: added, paused and cancelled
/// through `<prefix>/cmd`, listed on `<prefix>/timers` once per change
/// (never with the seconds), each ring told on `<prefix>/timer_event`
/// with its name, refusals answered and logged, and a flood kept bounded.
@Suite struct ExtraTimersOnMqttTests {
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

    func list(_ broker: VirtualBroker) -> [[String: Any]] {
        (last(broker, "timers").flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) } as? [[String: Any]]) ?? []
    }

    func add(_ link: VirtualLink, _ name: String, _ duration: String) {
        link.inject("tock/kitchen/cmd", #"{"cmd":"timer","op":"add","name":"\#(name)","duration":"\#(duration)"}"#)
    }

    /// Publishes on the box's own topics (not discovery) from `index` on, by topic.
    func publishes(_ broker: VirtualBroker, since index: Int) -> [String: Int] {
        var n: [String: Int] = [:]
        for e in broker.log[index...] where !e.topic.hasPrefix("homeassistant/") {
            n[String(e.topic.dropFirst("tock/kitchen/".count)), default: 0] += 1
        }
        return n
    }

    @Test func theListIsPublishedOncePerChangeAndNotWithTheSeconds() throws {
        let (box, broker, link) = try box()
        #expect(last(broker, "timers") == "[]" && last(broker, "next_timer") == "None" && last(broker, "next_timer_attributes") == "{}")
        var mark = broker.log.count
        add(link, "EGG", "6m")  // at 08:00:01
        loop.advance(by: .seconds(1))
        #expect(box.shell.core.timers.list.map(\.name) == ["EGG"])
        #expect(last(broker, "timers") == #"[{"duration":"6m","ends":"2027-01-15T08:06:01+00:00","name":"EGG","state":"running"}]"#)
        #expect(last(broker, "next_timer") == "2027-01-15T08:06:01+00:00")
        #expect(last(broker, "next_timer_attributes") == #"{"name":"EGG"}"#)
        // The add: the list, the next end and its name, the reply; the
        // display's own topics (it now shows a dot) as they change.
        let added = publishes(broker, since: mark)
        #expect(added["timers"] == 1 && added["next_timer"] == 1 && added["next_timer_attributes"] == 1 && added["reply"] == 1, "\(added)")
        // A minute of it counting: nothing about the timers.
        mark = broker.log.count
        loop.advance(by: .seconds(60))
        let counting = publishes(broker, since: mark)
        #expect(counting["timers"] == nil && counting["next_timer"] == nil && counting["next_timer_attributes"] == nil, "\(counting)")
        // Paused: what it has left (whole seconds, rounded up), and no next end.
        mark = broker.log.count
        link.inject("tock/kitchen/cmd", #"{"cmd":"timer","op":"pause","name":"EGG"}"#)
        loop.advance(by: .milliseconds(1500))
        #expect(list(broker).first?["state"] as? String == "paused")
        #expect(list(broker).first?["remaining_ms"] as? Int == 299_000)
        #expect(last(broker, "next_timer") == "None" && last(broker, "next_timer_attributes") == "{}")
        let paused = publishes(broker, since: mark)
        #expect(paused["timers"] == 1 && paused["next_timer"] == 1, "\(paused)")
        mark = broker.log.count
        loop.advance(by: .seconds(60))
        #expect(publishes(broker, since: mark)["timers"] == nil)
        link.inject("tock/kitchen/cmd", #"{"cmd":"timer","op":"resume","name":"EGG"}"#)
        loop.advance(by: .seconds(2))
        #expect(list(broker).first?["state"] as? String == "running")
        link.inject("tock/kitchen/cmd", #"{"cmd":"timer","op":"cancel","name":"EGG"}"#)
        loop.advance(by: .seconds(2))
        #expect(last(broker, "timers") == "[]" && last(broker, "next_timer") == "None")
        #expect(broker.published(on: "tock/kitchen/timers").count == 5)  // at connecting, add, pause, resume, cancel
    }

    @Test func eachRingIsAnEventWithItsNameAndTwoEndingTogetherAreBothTold() throws {
        let (box, broker, link) = try box()
        add(link, "EGG", "5s")
        add(link, "tEA", "5s")
        add(link, "brEd", "8s")
        loop.advance(by: .seconds(12))
        let events = broker.log.filter { $0.topic == "tock/kitchen/timer_event" }
        #expect(events.allSatisfy { !$0.retain })
        #expect(events.map { reply($0.payload)["name"] as? String } == ["EGG", "tEA", "brEd"])
        #expect(events.allSatisfy { reply($0.payload)["event_type"] as? String == "timer_finished" })
        #expect(reply(events.first?.payload ?? "")["duration"] as? String == "5s")
        // The box's own event topic is untouched: its events are the count's and the alarms'.
        #expect(broker.published(on: "tock/kitchen/event") == [])
        #expect(list(broker).map { $0["state"] as? String } == ["ringing", "ringing", "ringing"])
        // Silenced one by one: each is done, and no more events come.
        for _ in 0..<3 {
            box.shell.action(.pressed(.stop))
            loop.advance(by: .seconds(2))
        }
        #expect(list(broker).map { $0["state"] as? String } == ["done", "done", "done"])
        #expect(broker.log.filter { $0.topic == "tock/kitchen/timer_event" }.count == 3)
    }

    @Test func refusalsAreAnsweredAndLoggedAndChangeNothing() throws {
        let (box, broker, link) = try box()
        add(link, "EGG", "99h59m")  // the longest
        loop.advance(by: .seconds(2))
        #expect(list(broker).first?["duration"] as? String == "99h59m")
        for (name, duration, error) in [
            ("EGG", "5m", "a timer named EGG is running"),
            ("tEA", "100h", "99h59m is the longest a timer counts"),
            ("PASTAPASTAPASTA1", "9m", "is longer than the display's 4 digits"),
            (#"E\"G"#, "1m", "cannot be drawn on 7 segments"),
            ("ÉGG", "1m", "cannot be drawn on 7 segments"),
            ("t1", "1m", "t1 is what the display calls the box's own count"),
            ("tEA", "0s", "a timer counts at least 1s"),
        ] {
            let before = broker.published(on: "tock/kitchen/reply").count
            add(link, name, duration)
            loop.advance(by: .seconds(2))
            let replies = broker.published(on: "tock/kitchen/reply")
            #expect(replies.count == before + 1, "\(name) \(duration)")
            let r = reply(replies.last ?? "")
            #expect(r["ok"] as? Bool == false, "\(name) \(duration): \(r)")
            #expect((r["error"] as? String ?? "").contains(error), "\(name) \(duration): \(r)")
        }
        #expect(box.shell.core.timers.list.map(\.name) == ["EGG"])
        #expect(list(broker).count == 1)
        // Logged at most once a minute, with the request and the reason.
        let refused = lines.messages.filter { $0.hasPrefix("mqtt: refused") }
        #expect(refused.count == 1, "\(refused)")
        #expect(refused.first?.hasPrefix(#"mqtt: refused {"cmd":"timer","#) == true, "\(refused)")
        // Eight are the most; the ninth is refused with the limit named.
        for name in ["A", "b", "C", "d", "E", "F", "H"] { add(link, name, "1h") }
        loop.advance(by: .seconds(61))
        add(link, "J", "1h")
        loop.advance(by: .seconds(2))
        #expect(box.shell.core.timers.list.count == 8)
        #expect(reply(broker.published(on: "tock/kitchen/reply").last ?? "")["error"] as? String
                == "8 timers are the most a box keeps beside its own count; cancel one first")
        // Within the minute of the last refused line: written, with the
        // count, when that minute ends.
        loop.advance(by: .seconds(60))
        #expect(lines.messages.last { $0.hasPrefix("mqtt: refused") }?.contains("8 timers are the most") == true)
        // Pausing what is not there, and malformed requests: no change.
        link.inject("tock/kitchen/cmd", #"{"cmd":"timer","op":"pause","name":"NOPE"}"#)
        link.inject("tock/kitchen/cmd", #"{"cmd":"timer","op":"add","name":"EGG""#)
        link.inject("tock/kitchen/cmd", #"{"cmd":"timer","op":"explode","name":"EGG"}"#)
        link.inject("tock/kitchen/cmd", #"{"cmd":"timer","op":"add","name":"EGG","duration":6}"#)
        loop.advance(by: .seconds(2))
        #expect(box.shell.core.timers.list.count == 8 && list(broker).count == 8)
        #expect(lines.messages.contains { $0.hasPrefix("mqtt: ignored a message on tock/kitchen/cmd") }, "\(lines.messages)")
    }

    /// Hundreds of timer commands at once: carried out one per turn, the
    /// queue's excess dropped and counted, at most 8 timers, and the list
    /// published at most once a second whatever the rate of changes.
    @Test func aFloodOfTimerCommandsStaysBounded() throws {
        let (box, broker, link) = try box()
        let mark = broker.log.count
        let names = ["A", "b", "C", "d", "E", "F", "H", "J", "L", "n"]
        for i in 0..<500 {
            let name = names[i % names.count]
            switch i % 4 {
            case 0: add(link, name, "\(i % 90 + 1)s")
            case 1: link.inject("tock/kitchen/cmd", #"{"cmd":"timer","op":"pause","name":"\#(name)"}"#)
            case 2: link.inject("tock/kitchen/cmd", #"{"cmd":"timer","op":"resume","name":"\#(name)"}"#)
            default: link.inject("tock/kitchen/cmd", #"{"cmd":"timer","op":"cancel","name":"\#(name)"}"#)
            }
        }
        loop.advance(by: .seconds(3))
        let mqtt = box.host.service.status()["mqtt"] as? [String: Any]
        #expect(mqtt?["received"] as? Int == 500)
        #expect((mqtt?["dropped"] as? Int ?? 0) == 500 - MqttBridge.inboxLimit)
        #expect(box.shell.core.timers.list.count <= ExtraTimers.limit)
        let n = publishes(broker, since: mark)
        #expect(n["reply"] == MqttBridge.inboxLimit)
        // Sixty-four changes in one instant: the list went out at most once
        // a second after the first (and its last value is the truth).
        #expect((n["timers"] ?? 0) <= 4, "\(n)")
        #expect(list(broker).map { $0["name"] as? String } == box.shell.core.timers.list.map(\.name))
        withExtendedLifetime(box) {}
    }

    @Test func discoveryListsTheTimersAndTellsTheirEnd() throws {
        let (b, broker, _) = try box()
        defer { withExtendedLifetime(b) {} }
        func config(_ component: String, _ object: String) -> [String: Any]? {
            broker.retained["homeassistant/\(component)/kitchen/\(object)/config"]
                .flatMap { try? JSONSerialization.jsonObject(with: Data($0)) as? [String: Any] }
        }
        let timers = try #require(config("sensor", "timers"))
        #expect(timers["state_topic"] as? String == "tock/kitchen/timers" && timers["json_attributes_topic"] as? String == "tock/kitchen/timers")
        let next = try #require(config("sensor", "next_timer"))
        #expect(next["device_class"] as? String == "timestamp" && next["state_topic"] as? String == "tock/kitchen/next_timer")
        let event = try #require(config("event", "timer_finished"))
        #expect(event["state_topic"] as? String == "tock/kitchen/timer_event" && event["event_types"] as? [String] == ["timer_finished"])
        let text = try #require(config("text", "add_timer"))
        #expect(text["command_topic"] as? String == "tock/kitchen/cmd" && text["state_topic"] == nil)
        let trigger = try #require(config("device_automation", "timer_finished"))
        #expect(trigger["topic"] as? String == "tock/kitchen/timer_event" && trigger["payload"] as? String == "timer_finished"
                && trigger["value_template"] as? String == "{{ value_json.event_type }}")
        // What the text's pattern lets through reaches the box as a request it parses.
        let pattern = try Regex(HomeAssistant.addTimerPattern)
        #expect("EGG 6m".wholeMatch(of: pattern) != nil && "brEd   3m30s".wholeMatch(of: pattern) != nil)
        #expect("EGG".wholeMatch(of: pattern) == nil && " 6m".wholeMatch(of: pattern) == nil)
    }
}

import Foundation
import Testing
import TockCore
import TockLoop
@testable import TockHost
@testable import TockMQTT

/// What Home Assistant gets from a box on virtual time: discovery configs
/// its current schema takes, state topics that change only when their
/// meaning does (Home Assistant's recorder writes every change), and the
/// device triggers' events.
@Suite struct HomeAssistantOnVirtualTimeTests {
    let loop = VirtualLoop(epoch: WallTime(secondsSince1970: 1_800_000_000))  // 2027-01-15 08:00 UTC

    func box(_ yaml: String) throws -> (TestBox, VirtualBroker) {
        let broker = VirtualBroker(loop: loop)
        let box = try TestBox("mqtt: {host: h, client_id: kitchen}\n" + yaml, loop: loop, link: broker.link("kitchen"))
        loop.advance(by: .seconds(1))
        return (box, broker)
    }

    /// Publishes per state topic in the next minute.
    func publishesPerTopic(_ broker: VirtualBroker, inTheNextMinute: Void = ()) -> [String: Int] {
        let before = broker.log.count
        loop.advance(by: .seconds(60))
        var counts: [String: Int] = [:]
        for e in broker.log[before...] where e.retain && !e.topic.hasPrefix("homeassistant/") {
            counts[String(e.topic.dropFirst("tock/kitchen/".count)), default: 0] += 1
        }
        return counts
    }

    func configs(_ broker: VirtualBroker) -> [String: [String: Any]] {
        var out: [String: [String: Any]] = [:]
        for (topic, payload) in broker.retained where topic.hasPrefix("homeassistant/") {
            out[topic] = (try? JSONSerialization.jsonObject(with: Data(payload))) as? [String: Any]
        }
        return out
    }

    @Test func discoveryUsesDefaultEntityIDsWithTheSameIDsAndQoS1() throws {
        let (b, broker) = try box("timer: {presets: [10s]}\nalarms: [{at: \"06:45\", days: mon-fri}]")
        let all = configs(broker)
        let entities = all.filter { !$0.key.contains("/device_automation/") }
        // The eight entities of before keep their ids; the new ones follow the same rule.
        for (component, object) in [("sensor", "state"), ("sensor", "display"), ("sensor", "remaining"), ("button", "start"),
                                    ("button", "stop"), ("button", "reset"), ("select", "mode"), ("text", "preset"),
                                    ("sensor", "next_alarm"), ("switch", "alarm_1"), ("button", "snooze"), ("button", "dismiss"),
                                    ("sensor", "switch"), ("sensor", "direction"), ("sensor", "finishes_at"), ("event", "events")] {
            let c = try #require(entities["homeassistant/\(component)/kitchen/\(object)/config"], "\(component) \(object)")
            #expect(c["default_entity_id"] as? String == "\(component).tock_kitchen_\(object)")
            #expect(c["unique_id"] as? String == "kitchen_\(object)")
        }
        for (topic, c) in entities {
            let origin = c["origin"] as? [String: Any]
            #expect(origin?["name"] as? String == "Tock" && origin?["sw_version"] as? String == MqttBridge.version, "\(topic)")
        }
        let events = try #require(entities["homeassistant/event/kitchen/events/config"])
        #expect(events["state_topic"] as? String == "tock/kitchen/event")
        #expect(events["event_types"] as? [String] == ["count_finished", "alarm_ringing", "alarm_dismissed", "phase_changed"])
        for (topic, c) in all {
            #expect(c["object_id"] == nil, "\(topic): object_id is deprecated")
            #expect(c["qos"] as? Int == 1, "\(topic)")
        }
        let triggers = all.filter { $0.key.contains("/device_automation/") }.values.compactMap { $0["type"] as? String }
        #expect(Set(triggers) == ["count_finished", "alarm_ringing", "alarm_dismissed", "phase_changed", "timer_finished"])
        withExtendedLifetime(b) {}
    }

    @Test func noStateTopicIsEverEmptyInAnyMode() throws {
        let (box, broker) = try box("timer: {presets: [10s, 20s]}\ncountdown: {until: \"2027-02-01T00:00:00+00:00\"}")
        for mode in Settings.Mode.allCases {
            try box.shell.setMode(mode)
            loop.advance(by: .seconds(2))
            box.shell.action(.pressed(.start))
            loop.advance(by: .seconds(30))
            box.shell.action(.pressed(.stop))
            box.shell.action(.pressed(.reset))
            loop.advance(by: .seconds(2))
        }
        let empty = broker.log.filter { $0.retain && !$0.topic.hasPrefix("homeassistant/") && $0.payload.isEmpty }
        #expect(empty.map(\.topic) == [])
        #expect(broker.published(on: "tock/kitchen/preset").allSatisfy { !$0.isEmpty })
    }

    @Test func aRunningCountChangesEachTopicAtMostOnceASecond() throws {
        let (box, broker) = try box("timer: {presets: [5m]}")
        box.shell.action(.pressed(.start))
        loop.advance(by: .milliseconds(500))
        let n = publishesPerTopic(broker)
        #expect(n["display"] == 60)
        #expect(n["remaining_ms"] == 60)
        #expect(n.values.allSatisfy { $0 <= 60 }, "\(n)")
        #expect(broker.published(on: "tock/kitchen/display").last == "04:00")  // 4:00.5 left, rounded up
        expectNothingStale(box, broker)
    }

    /// Every state topic holds what a full rebuild gives now: the batches
    /// where only the display changed, which rebuild only the topics that
    /// follow the count's time, left none behind.
    func expectNothingStale(_ box: TestBox, _ broker: VirtualBroker) {
        for (key, value) in MqttStateTopics.values(of: box.shell) {
            #expect(broker.published(on: "tock/kitchen/\(key)").last == value, "\(key)")
        }
    }

    @Test func aLongCountChangesItsDisplayOnceAMinuteAndRemainingOnceASecond() throws {
        let (box, broker) = try box("timer: {presets: [2h]}")
        box.shell.action(.pressed(.start))
        loop.advance(by: .milliseconds(500))
        let n = publishesPerTopic(broker)
        #expect((n["display"] ?? 0) <= 1, "\(n)")  // H:MM, its colon's blink left out
        #expect(n["remaining_ms"] == 60, "\(n)")
        #expect(n.values.allSatisfy { $0 <= 60 }, "\(n)")
        #expect(!broker.published(on: "tock/kitchen/display").contains { !$0.contains(":") })
        expectNothingStale(box, broker)
    }

    @Test func finishesAtChangesOncePerStartAndTheEntitiesOfEachSecondAreOffByDefault() throws {
        let (box, broker) = try box("timer: {presets: [5m]}")
        let all = configs(broker)
        for object in ["display", "remaining"] {
            #expect(all["homeassistant/sensor/kitchen/\(object)/config"]?["enabled_by_default"] as? Bool == false, "\(object)")
        }
        #expect(all["homeassistant/sensor/kitchen/state/config"]?["enabled_by_default"] == nil)
        #expect(all["homeassistant/sensor/kitchen/finishes_at/config"]?["device_class"] as? String == "timestamp")
        box.shell.action(.pressed(.start))  // 08:00:01, 5 minutes
        loop.advance(by: .milliseconds(500))
        #expect(publishesPerTopic(broker)["finishes_at"] == nil)
        loop.advance(by: .seconds(30))
        box.shell.action(.pressed(.stop))  // 3:29.5 left
        loop.advance(by: .seconds(10))
        box.shell.action(.pressed(.start))
        loop.advance(by: .seconds(5))
        #expect(broker.published(on: "tock/kitchen/finishes_at")
                == ["None", "2027-01-15T08:05:01+00:00", "None", "2027-01-15T08:05:11+00:00"])
    }

    @Test func aStopwatchPublishesWholeSecondsNotHundredths() throws {
        let (box, broker) = try box("switch: up\nmode: stopwatch\ntimer: {presets: [5m]}")
        box.shell.action(.pressed(.start))
        loop.advance(by: .milliseconds(500))
        let n = publishesPerTopic(broker)
        #expect(n["display"] == 60 && n["elapsed_ms"] == 60, "\(n)")
        #expect(broker.published(on: "tock/kitchen/display").last == "01:00")
    }

    @Test func pausedChangesNothing() throws {
        let (box, broker) = try box("timer: {presets: [5m]}")
        box.shell.action(.pressed(.start))
        loop.advance(by: .milliseconds(10_500))
        box.shell.action(.pressed(.stop))
        loop.advance(by: .seconds(2))
        #expect(broker.retained["tock/kitchen/display_attributes"].map { String(decoding: $0, as: UTF8.self) } == #"{"blinking":true}"#)
        #expect(publishesPerTopic(broker) == [:])
    }

    @Test func ringingChangesNothingButTheBuzzerAtMostOnceASecond() throws {
        let (box, broker) = try box("timer: {presets: [10s]}\nalarm: {ring_for: 10m}")
        box.shell.action(.pressed(.start))
        loop.advance(by: .seconds(12))
        #expect(box.state == "ringing")
        let n = publishesPerTopic(broker)
        #expect(n == [:], "\(n)")  // the buzzer's beeps too: it is on while ringing
        #expect(broker.published(on: "tock/kitchen/event") == ["count_finished"])
    }

    @Test func anIdleBoxPublishesNothing() throws {
        let (b, broker) = try box("timer: {presets: [5m]}")
        loop.advance(by: .seconds(5))
        #expect(publishesPerTopic(broker) == [:])
        withExtendedLifetime(b) {}
    }

    @Test func aRingingDailyAlarmFiresItsTriggersAndOffersSnoozeAndDismiss() throws {
        let (b, broker) = try box("timer: {presets: [5m]}\nalarm: {ring_for: 10m}\nalarms: [{at: \"08:01\"}]")
        defer { withExtendedLifetime(b) {} }
        #expect(broker.retained["tock/kitchen/next_alarm"].map { String(decoding: $0, as: UTF8.self) } == "2027-01-15T08:01:00+00:00")
        #expect(broker.retained["tock/kitchen/alarm_1"].map { String(decoding: $0, as: UTF8.self) } == "ON")
        loop.advance(by: .seconds(60))
        #expect(broker.published(on: "tock/kitchen/alarm").last == "ringing", "\(broker.log.filter { !$0.topic.hasPrefix("homeassistant") }.map { "\($0.topic)=\($0.payload)" })")
        let n = publishesPerTopic(broker)
        #expect(n["display"] ?? 0 <= 1, "\(n)")
        #expect(n.values.allSatisfy { $0 <= 60 }, "\(n)")
        broker.links.first!.inject("tock/kitchen/cmd", #"{"cmd":"reset"}"#)
        loop.advance(by: .seconds(2))
        #expect(broker.published(on: "tock/kitchen/event") == ["alarm_ringing", "alarm_dismissed"])
        #expect(broker.published(on: "tock/kitchen/alarm").last == "quiet")
    }

    @Test func anAlarmSwitchTurnsTheAlarmOffAndItsSwitchFollows() throws {
        let (box, broker) = try box("timer: {presets: [5m]}\nalarms: [{at: \"06:45\"}, {at: \"07:30\"}]")
        broker.links.first!.inject("tock/kitchen/cmd", #"{"cmd":"alarm","op":"off","n":2}"#)
        loop.advance(by: .seconds(2))
        #expect(broker.published(on: "tock/kitchen/alarm_2") == ["ON", "OFF"])
        try box.shell.editAlarms(.remove(1))
        loop.advance(by: .seconds(2))
        #expect(broker.retained["homeassistant/switch/kitchen/alarm_2/config"] == nil)
        #expect(broker.retained["tock/kitchen/alarm_2"] == nil)
        #expect(broker.retained["tock/kitchen/alarm_1"].map { String(decoding: $0, as: UTF8.self) } == "OFF")  // 07:30, now the first
        #expect(broker.retained["homeassistant/switch/kitchen/alarm_1/config"] != nil)
    }

    @Test func theDirectionAndSwitchShowWhichWayTheBoxWillCount() throws {
        let (box, broker) = try box("switch: up\nmode: stopwatch\ntimer: {presets: [5m]}")
        func last(_ t: String) -> String? { broker.retained["tock/kitchen/\(t)"].map { String(decoding: $0, as: UTF8.self) } }
        #expect(last("switch") == "up" && last("direction") == "up" && last("mode") == "stopwatch")
        #expect(last("remaining_ms") == "None")  // a stopwatch counting up has no end
        try box.shell.setMode(.timer)
        loop.advance(by: .seconds(2))
        #expect(last("direction") == "up" && last("remaining_ms") == "300000")  // up to the preset
    }
}

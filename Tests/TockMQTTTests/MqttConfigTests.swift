import Foundation
import Testing
import TockJSON
import TockTestSupport
@testable import TockMQTT
@testable import TockConfig
@testable import TockCore

@Suite struct MqttConfigTests {
    func problems(_ yaml: String) -> [String] { configProblems(yaml).map(\.description) }

    @Test func noSectionMeansNoLink() throws {
        let c = try Configuration.parse(yaml: "mode: timer", file: "c.yaml")
        #expect(c.mqtt == nil && c.settings.group == nil)
    }

    @Test func defaultsFollowTheClientID() throws {
        let c = try #require(try Configuration.parse(yaml: "mqtt: {host: 10.0.0.2, client_id: kitchen}", file: "c.yaml").mqtt)
        #expect(c.port == 1883 && c.topicPrefix == "tock/kitchen" && c.keepalive == .seconds(60))
        #expect(c.discovery && c.discoveryPrefix == "homeassistant" && c.group == nil && c.tls == nil)
    }

    @Test func aFullSectionParses() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tock-mqtt-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let pw = dir.appendingPathComponent("pw").path, ca = dir.appendingPathComponent("ca.crt").path
        try "s3cret\nignored\n".write(toFile: pw, atomically: true, encoding: .utf8)
        try "x".write(toFile: ca, atomically: true, encoding: .utf8)
        let c = try Configuration.parse(yaml: """
            mqtt:
              host: broker.lan
              client_id: gym-1
              username: tock
              password_file: \(pw)
              tls: {ca_file: \(ca)}
              topic_prefix: home/gym/timer1
              keepalive: 30s
              discovery: false
              group: {name: gym, lead: 400ms}
            """, file: "c.yaml")
        let m = try #require(c.mqtt)
        #expect(m.port == 8883 && m.password == "s3cret" && m.tls?.caFile == ca && m.topicPrefix == "home/gym/timer1")
        #expect(m.group == "gym" && m.groupTopic == "tock/groups/gym" && m.groupLead == .milliseconds(400) && !m.discovery)
        #expect(c.settings.group == GroupSettings(lead: .milliseconds(400)))
    }

    @Test func aGroupNameAloneTakesTheDefaultLead() throws {
        let c = try Configuration.parse(yaml: "mqtt: {host: h, group: gym}", file: "c.yaml")
        #expect(c.mqtt?.groupLead == .milliseconds(250) && c.settings.group?.lead == .milliseconds(250))
    }

    @Test func everyMistakeIsNamedWithItsKey() {
        let p = problems("""
            mqtt:
              port: 99999
              client_id: "my box"
              password_file: /nonexistent/pw
              tls: {cert_file: /nonexistent/c.crt}
              topic_prefix: tock/#
              keepalive: 1s
              group: {lead: 10s}
              discovry: x
            """)
        let expected = [
            "c.yaml:2: mqtt.port:", "c.yaml:3: mqtt.client_id: \"my box\" must be", "c.yaml:4: mqtt.password_file: cannot read /nonexistent/pw",
            "mqtt.password_file: a password needs mqtt.username", "mqtt.tls.cert_file: cannot read", "mqtt.tls.ca_file: needed",
            "mqtt.tls: cert_file and key_file go together", "c.yaml:6: mqtt.topic_prefix:", "c.yaml:7: mqtt.keepalive:",
            "mqtt.group.lead:", "mqtt.group.name: needed", "c.yaml:9: mqtt.discovry: unknown key; did you mean discovery?", "mqtt.host: needed",
        ]
        for e in expected { #expect(p.contains { $0.contains(e) }, "missing \(e) in \(p)") }
    }
}

@Suite struct DiscoveryVersionTests {
    @Test func theVersionHomeAssistantShowsIsThePackages() throws {
        let file = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("deploy/VERSION")
        let version = try String(contentsOf: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(MqttBridge.version == version)
        let configs = HomeAssistant.configs(MqttConfig(), version: MqttBridge.version)
        #expect(configs.count == HomeAssistant.entities.count + HomeAssistant.timerPickerEntities([]).count + HomeAssistant.dimmingEntities(night: nil).count + HomeAssistant.triggers.count)
        #expect(configs.allSatisfy { $0.payload["device"]?["sw_version"] == .string(version) })
    }
}

/// The discovery configs against what Home Assistant 2026.2's MQTT
/// schemas require (the real schemas run in `make ha-test`).
@Suite struct DiscoveryConfigTests {
    let configs: [(topic: String, payload: [String: Any])] = {
        var c = MqttConfig()
        c.clientID = "tock"
        c.topicPrefix = "tock/tock"
        c.discoveryPrefix = "homeassistant"
        return HomeAssistant.configs(c, version: "0.1.0", alarms: ["Alarm 1 06:45 mon-fri"]).map { ($0.topic, wire($0.payload)) }
    }()

    @Test func everyEntityHasADefaultEntityIDOfItsOwnDomainAndNoObjectID() {
        for (topic, c) in configs where !topic.contains("/device_automation/") {
            let component = topic.split(separator: "/")[1]
            let id = c["default_entity_id"] as? String ?? ""
            #expect(id.hasPrefix("\(component).tock_"), "\(topic)")
            #expect(c["object_id"] == nil)
            #expect(c["qos"] as? Int == 1)
        }
    }

    @Test func aPresetAsTockWritesItIsOneTheTextEntityAccepts() throws {
        let preset = try #require(configs.first { $0.topic.hasSuffix("/text/tock/preset/config") }?.payload)
        let pattern = try NSRegularExpression(pattern: try #require(preset["pattern"] as? String))
        let (lo, hi) = (try #require(preset["min"] as? Int), try #require(preset["max"] as? Int))
        for d: Duration in [.seconds(1), .seconds(90), .seconds(750), .seconds(3600), Settings.longestPreset] {
            let text = DurationText.format(d)
            #expect(pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil, "\(text)")
            #expect((lo...hi).contains(text.count), "\(text)")
        }
        // Outside the timer and stopwatch modes it is unavailable instead of empty.
        let availability = try #require(preset["availability"] as? [[String: Any]])
        #expect(availability.map { $0["topic"] as? String } == ["tock/tock/availability", "tock/tock/mode"])
        #expect(preset["availability_mode"] as? String == "all")
    }

    @Test func theStateSensorListsEveryStateItCanShow() throws {
        let state = try #require(configs.first { $0.topic.hasSuffix("/sensor/tock/state/config") }?.payload)
        let options = try #require(state["options"] as? [String])
        #expect(Set(options).isSuperset(of: StateName.allCases.map(\.rawValue) + ["starting"]))
    }

    @Test func triggersCarryWhatADeviceTriggerNeedsAndNothingElse() {
        let triggers = configs.filter { $0.topic.contains("/device_automation/") }
        #expect(triggers.count == HomeAssistant.triggers.count)
        for (_, t) in triggers where t["type"] as? String != "timer_finished" {
            #expect(Set(t.keys) == ["automation_type", "topic", "type", "subtype", "payload", "qos", "device"])
            #expect(t["topic"] as? String == "tock/tock/event")
        }
        // An extra timer's end: its own topic, whose JSON the template reads.
        let timer = triggers.first { $0.payload["type"] as? String == "timer_finished" }?.payload ?? [:]
        #expect(Set(timer.keys) == ["automation_type", "topic", "type", "subtype", "payload", "qos", "device", "value_template"])
        #expect(timer["topic"] as? String == "tock/tock/timer_event" && timer["payload"] as? String == "timer_finished")
    }

    @Test func theExtraTimersEntitiesReadOneListTopicAndTheAddTextMakesARequest() throws {
        func config(_ suffix: String) throws -> [String: Any] {
            try #require(configs.first { $0.topic.hasSuffix(suffix) }?.payload)
        }
        let timers = try config("/sensor/tock/timers/config")
        #expect(timers["state_topic"] as? String == "tock/tock/timers" && timers["json_attributes_topic"] as? String == "tock/tock/timers")
        #expect(try config("/sensor/tock/next_timer/config")["device_class"] as? String == "timestamp")
        // The Events entity keeps its four: the extra timers' end has an entity of its own.
        #expect(try config("/event/tock/events/config")["event_types"] as? [String]
                == ["count_finished", "alarm_ringing", "alarm_dismissed", "phase_changed"])
        #expect(try config("/event/tock/timer_finished/config")["state_topic"] as? String == "tock/tock/timer_event")
        let add = try config("/text/tock/add_timer/config")
        #expect(add["command_topic"] as? String == "tock/tock/cmd" && add["state_topic"] == nil)
        #expect((add["command_template"] as? String)?.contains("| tojson") == true)
    }

    @Test func theTimersTopicsFollowTheTimersNotTheClock() {
        let now = Instant(nanoseconds: 10_000_000_000)
        let wall = WallTime(secondsSince1970: 1_800_000_000)
        func view(_ name: String, _ state: ExtraTimer.State, left: Duration) -> TimerView {
            let x = ExtraTimer(name: name, label: name, duration: .seconds(360), state: state)
            return TimerView(timer: x, left: left, ends: x.ends.map { wall + ($0 - now) }, shown: false)
        }
        let values = Dictionary(uniqueKeysWithValues: MqttStateTopics.timerValues([
            view("EGG", .running(ends: now + .milliseconds(359_600)), left: .milliseconds(359_600)),
            view("tEA", .paused(left: .milliseconds(170_200), at: now), left: .milliseconds(170_200)),
            view("brEd", .running(ends: now + .seconds(30)), left: .seconds(30)),
            view("E\"G", .done, left: .zero),
        ]))
        #expect(values["timers"] == #"[{"duration":"6m","ends":"2027-01-15T08:06:00+00:00","name":"EGG","state":"running"},"#
                + #"{"duration":"6m","name":"tEA","remaining_ms":171000,"state":"paused"},"#
                + #"{"duration":"6m","ends":"2027-01-15T08:00:30+00:00","name":"brEd","state":"running"},"#
                + #"{"duration":"6m","name":"E\"G","remaining_ms":0,"state":"done"}]"#)
        #expect(values["next_timer"] == "2027-01-15T08:00:30+00:00")
        #expect(values["next_timer_attributes"] == #"{"name":"brEd"}"#)
        #expect(MqttStateTopics.timerFinished("ÉGG", duration: .seconds(90))
                == #"{"duration":"1m30s","event_type":"timer_finished","name":"ÉGG"}"#)
        let none = Dictionary(uniqueKeysWithValues: MqttStateTopics.timerValues([]))
        #expect(none == ["timers": "[]", "next_timer": "None", "next_timer_attributes": "{}"])
    }

    @Test func anAlarmSwitchCommandsTheAlarmByItsNumber() throws {
        let s = try #require(configs.first { $0.topic == "homeassistant/switch/tock/alarm_1/config" }?.payload)
        #expect(s["payload_off"] as? String == #"{"cmd":"alarm","op":"off","n":1}"#)
        #expect(s["state_topic"] as? String == "tock/tock/alarm_1")
    }
}

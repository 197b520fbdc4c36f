import Foundation
import Logging
import Testing
import TockCore
import TockLoop
import TockTestSupport
@testable import TockHost
@testable import TockMQTT

/// The brightness and the night schedule as Home Assistant entities: what
/// their configs send is the control socket's `brightness` and `night`
/// requests, carried out by the same rules; what Home Assistant or anyone
/// else sends that the box cannot take changes nothing and is logged.
@Suite struct HomeAssistantDimmingTests {
    let loop = VirtualLoop(epoch: WallTime(secondsSince1970: 1_800_000_000))  // 2027-01-15 08:00 UTC
    let lines = LogLines()

    func box(_ yaml: String = "timer: {presets: [5m]}\nclock: {zone: UTC}") throws -> (TestBox, VirtualBroker) {
        let broker = VirtualBroker(loop: loop)
        let log = Logger(label: "test") { [lines] _ in LogCapture(lines: lines) }
        let box = try TestBox("mqtt: {host: h, client_id: kitchen}\n" + yaml, loop: loop, link: broker.link("kitchen"), log: log)
        loop.advance(by: .seconds(1))
        return (box, broker)
    }

    func config(_ broker: VirtualBroker, _ component: String, _ object: String) -> [String: Any]? {
        broker.retained["homeassistant/\(component)/kitchen/\(object)/config"]
            .flatMap { try? JSONSerialization.jsonObject(with: Data($0)) as? [String: Any] }
    }

    func last(_ broker: VirtualBroker, _ topic: String) -> String? {
        broker.retained["tock/kitchen/\(topic)"].map { String(decoding: $0, as: UTF8.self) }
    }

    /// What Home Assistant sends for `value` through a config's command
    /// template (the few Jinja forms the configs use).
    func rendered(_ template: String, _ value: String) -> String {
        template.replacingOccurrences(of: "{{ value | int }}", with: value)
            .replacingOccurrences(of: "{{ value.strftime('%H:%M') }}", with: String(value.prefix(5)))
    }

    @Test func brightnessIsANumberAndTheNightScheduleASwitchTwoTimesAndANumber() throws {
        let (b, broker) = try box("timer: {presets: [5m]}\ndisplay: {brightness: 6, night: {from: \"23:30\", to: \"06:00\", brightness: 2}}")
        defer { withExtendedLifetime(b) {} }
        let brightness = try #require(config(broker, "number", "brightness"))
        #expect(brightness["min"] as? Int == 0 && brightness["max"] as? Int == 7 && brightness["step"] as? Int == 1)
        #expect(brightness["state_topic"] as? String == "tock/kitchen/brightness")
        #expect(brightness["command_topic"] as? String == "tock/kitchen/cmd")
        let night = try #require(config(broker, "switch", "night"))
        // On: the file's schedule; off: none.
        #expect(night["payload_on"] as? String == #"{"cmd":"night","from":"23:30","to":"06:00","brightness":2}"#)
        #expect(night["payload_off"] as? String == #"{"cmd":"night","off":true}"#)
        for (component, object) in [("number", "brightness"), ("switch", "night"), ("time", "night_from"), ("time", "night_to"),
                                    ("number", "night_brightness")] {
            let c = try #require(config(broker, component, object), "\(object)")
            #expect(c["entity_category"] as? String == "config", "\(object)")
            #expect(c["default_entity_id"] as? String == "\(component).tock_kitchen_\(object)")
        }
        // The night's parts are offered only while there is a schedule.
        for (component, object) in [("time", "night_from"), ("time", "night_to"), ("number", "night_brightness")] {
            let availability = try #require(config(broker, component, object)?["availability"] as? [[String: Any]])
            #expect(availability.last?["topic"] as? String == "tock/kitchen/night", "\(object)")
        }
        #expect(last(broker, "brightness") == "6" && last(broker, "night") == "ON")
        #expect(last(broker, "night_from") == "23:30" && last(broker, "night_to") == "06:00" && last(broker, "night_brightness") == "2")
    }

    @Test func withoutANightScheduleInTheFileTheSwitchTurnsOnTheDefaultOne() throws {
        let (b, broker) = try box()
        defer { withExtendedLifetime(b) {} }
        #expect(config(broker, "switch", "night")?["payload_on"] as? String == #"{"cmd":"night","from":"22:00","to":"07:00","brightness":1}"#)
        #expect(last(broker, "night") == "OFF" && last(broker, "night_from") == nil)
    }

    @Test func eachEntityChangesWhatItShowsAndTheStateTopicsFollow() throws {
        let (box, broker) = try box()
        let link = broker.links.first!
        func send(_ component: String, _ object: String, _ value: String) {
            let c = config(broker, component, object) ?? [:]
            let payload = (c["command_template"] as? String).map { rendered($0, value) } ?? (c[value] as? String ?? value)
            link.inject("tock/kitchen/cmd", payload)
            loop.advance(by: .seconds(2))
        }
        send("number", "brightness", "3")
        #expect(box.shell.core.dimming == Dimming(brightness: 3))
        #expect(last(broker, "brightness") == "3")
        send("switch", "night", "payload_on")
        #expect(box.shell.core.dimming.night == HomeAssistant.defaultNight)
        #expect(last(broker, "night") == "ON" && last(broker, "night_from") == "22:00")
        send("time", "night_from", "23:15:00")
        send("time", "night_to", "06:45:00")
        send("number", "night_brightness", "0")
        #expect(box.shell.core.dimming == Dimming(brightness: 3, night: NightSchedule(from: 83_700, to: 24_300, brightness: 0)))
        #expect(last(broker, "night_from") == "23:15" && last(broker, "night_to") == "06:45" && last(broker, "night_brightness") == "0")
        send("switch", "night", "payload_off")
        #expect(box.shell.core.dimming == Dimming(brightness: 3))
        #expect(last(broker, "night") == "OFF")
        #expect(broker.published(on: "tock/kitchen/reply").allSatisfy { reply($0)["ok"] as? Bool == true })
        #expect(lines.messages.filter { $0.contains("mqtt: refused") || $0.contains("mqtt: ignored") } == [])
    }

    @Test(arguments: [
        // Malformed: never a request, no reply.
        "", "3", "not json", #"{"cmd":"brightness","level":8}"#, #"{"cmd":"brightness","level":-1}"#,
        #"{"cmd":"brightness","level":3.5}"#, #"{"cmd":"brightness","level":"3"}"#, #"{"cmd":"brightness","level":1e999}"#,
        #"{"cmd":"night","from":"25:00"}"#, #"{"cmd":"night","to":"7"}"#, #"{"cmd":"night","brightness":8}"#,
        #"{"cmd":"night","from":"22:00","to":"22:00","brightness":1}"#, #"{"cmd":"night","off":false}"#,
        #"{"cmd":"night","from":"22:00:00"}"#, #"{"cmd":"brightness","level":3,"night":true}"#,
    ])
    func aPayloadThatIsNotARequestChangesNothingAndIsLogged(_ payload: String) throws {
        let (box, broker) = try box("timer: {presets: [5m]}\nclock: {zone: UTC}\ndisplay: {brightness: 5, night: {from: \"22:00\", to: \"07:00\", brightness: 1}}")
        let before = broker.log.count
        broker.links.first!.inject("tock/kitchen/cmd", payload)
        loop.advance(by: .seconds(2))
        #expect(box.shell.core.dimming == Dimming(brightness: 5, night: NightSchedule(from: 79_200, to: 25_200, brightness: 1)))
        #expect(broker.log[before...].map(\.topic) == [], "nothing published, not even a reply")
        #expect(lines.messages.contains { $0.hasPrefix("mqtt: ignored a message on tock/kitchen/cmd: ") }, "\(lines.messages)")
        #expect(box.host.service.status()["mqtt"].flatMap { ($0 as? [String: Any])?["ignored"] as? Int } == 1)
    }

    @Test func aRequestTheBoxCannotTakeNowIsRefusedAnsweredAndLogged() throws {
        let (box, broker) = try box()
        let link = broker.links.first!
        // No schedule to change; then one whose from and to would be the same.
        link.inject("tock/kitchen/cmd", #"{"cmd":"night","from":"23:00"}"#)
        loop.advance(by: .seconds(2))
        #expect(box.shell.core.dimming == Dimming(brightness: 7))
        #expect(reply(broker.published(on: "tock/kitchen/reply").last ?? "")["ok"] as? Bool == false)
        #expect(lines.messages.contains { $0.hasPrefix(#"mqtt: refused {"cmd":"night","from":"23:00"} on tock/kitchen/cmd: there is no night schedule"#) },
                "\(lines.messages)")
        link.inject("tock/kitchen/cmd", #"{"cmd":"night","from":"22:00","to":"07:00","brightness":1}"#)
        link.inject("tock/kitchen/cmd", #"{"cmd":"night","to":"22:00"}"#)
        loop.advance(by: .seconds(2))
        #expect(box.shell.core.dimming.night == NightSchedule(from: 79_200, to: 25_200, brightness: 1))
        #expect(reply(broker.published(on: "tock/kitchen/reply").last ?? "")["error"] as? String
                == #"night from and to are the same time; send "off" for no night schedule"#)
        // One line a minute at most: the second refusal is held back, and
        // written with its count when the minute ends.
        #expect(lines.messages.filter { $0.hasPrefix("mqtt: refused") }.count == 1)
        loop.advance(by: .seconds(60))
        let line = lines.messages.last { $0.hasPrefix("mqtt: refused") }
        #expect(line?.hasPrefix(#"mqtt: refused {"cmd":"night","to":"22:00"} on tock/kitchen/cmd: "#) == true, "\(lines.messages)")
        #expect(line?.contains("(the latest of 1 such line held back in the last minute") == true, "\(lines.messages)")
        link.inject("tock/kitchen/cmd", #"{"cmd":"stop"}"#)
        loop.advance(by: .seconds(61))
        let next = lines.messages.last { $0.hasPrefix("mqtt: refused") }
        #expect(next?.hasPrefix(#"mqtt: refused {"cmd":"stop"} on tock/kitchen/cmd: "#) == true, "\(lines.messages)")
        #expect(lines.messages.filter { $0.hasPrefix("mqtt: refused") }.count == 3)
    }

    @Test func theFilesOwnValuesWinWhenTheyChangeAndHomeAssistantFollows() throws {
        let (box, broker) = try box()
        broker.links.first!.inject("tock/kitchen/cmd", #"{"cmd":"brightness","level":2}"#)
        loop.advance(by: .seconds(2))
        var settings = box.shell.core.settings
        box.shell.reconfigure(settings)  // the same file: the edit stays
        loop.advance(by: .seconds(2))
        #expect(last(broker, "brightness") == "2")
        settings.display.brightness = 4
        settings.display.night = NightSchedule(from: 3600, to: 7200, brightness: 0)
        box.shell.reconfigure(settings)
        loop.advance(by: .seconds(2))
        #expect(box.shell.core.dimming == Dimming(brightness: 4, night: NightSchedule(from: 3600, to: 7200, brightness: 0)))
        #expect(last(broker, "brightness") == "4" && last(broker, "night") == "ON" && last(broker, "night_from") == "01:00")
    }
}

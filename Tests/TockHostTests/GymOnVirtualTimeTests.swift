import Foundation
import Testing
@testable import TockConfig
import TockCore
import TockLoop
@testable import TockHost
@testable import TockMQTT
@testable import TockShell

/// Lead-in, overrun and named programs through the whole host: the status
/// a request answers, the MQTT state topics and commands, Home Assistant's
/// entities and a fleet group, on virtual time.
@Suite struct GymOnVirtualTimeTests {
    let loop = VirtualLoop(epoch: WallTime(secondsSince1970: 1_800_000_000))
    let programs = """
    mode: interval
    interval:
      lead_in: 10s
      programs:
        - {name: tAbA, kind: tabata}
        - {name: E1, kind: emom, every: 1m, rounds: 5}
    """

    @Test func theStatusAndTheStateTopicsCarryTheProgramTheRoundAndTheLeadIn() throws {
        let broker = VirtualBroker(loop: loop)
        let link = broker.link("gym")
        let box = try TestBox("mqtt: {host: h, client_id: gym}\n" + programs, loop: loop, link: link)
        loop.advance(by: .seconds(1))
        #expect(broker.published(on: "tock/gym/program") == ["tAbA"])
        link.inject("tock/gym/cmd", #"{"cmd":"program","name":"E1"}"#)
        loop.advance(by: .seconds(3))
        #expect(broker.published(on: "tock/gym/program") == ["tAbA", "E1"])
        link.inject("tock/gym/cmd", #"{"cmd":"start"}"#)
        loop.advance(by: .seconds(4))
        link.inject("tock/gym/cmd", #"{"cmd":"status"}"#)
        loop.advance(by: .milliseconds(100))
        let status = reply(broker.published(on: "tock/gym/reply").last ?? "")
        #expect(status["program"] as? String == "E1")
        #expect(status["programs"] as? [String] == ["tAbA", "E1"])
        #expect(status["round"] as? Int == 1)
        #expect((status["lead_in_ms"] as? Int).map { (5_900...6_000).contains($0) } == true)
        loop.advance(by: .seconds(70))
        #expect(box.shell.progress().round == RoundReport(round: 2))
        #expect(broker.published(on: "tock/gym/round") == ["1", "2"])
        let refused = { () -> [String: Any] in
            link.inject("tock/gym/cmd", #"{"cmd":"program","name":"tAbA"}"#)
            loop.advance(by: .milliseconds(100))
            return reply(broker.published(on: "tock/gym/reply").last ?? "")
        }()
        #expect(refused["error"] as? String == "the timer is running; stop and reset it first")
    }

    @Test func homeAssistantGetsAProgramSelectAndARoundSensor() throws {
        let configs = HomeAssistant.configs(MqttConfig(), version: "1", programs: ["tAbA", "E1"])
        #expect(configs.count == 10)
        let select = try #require(configs.first { $0.topic.hasSuffix("/program/config") })
        #expect(select.topic.hasPrefix("homeassistant/select/"))
        #expect(select.payload["options"] as? [String] == ["tAbA", "E1"])
        #expect(select.payload["command_template"] as? String == #"{"cmd":"program","name":"{{ value }}"}"#)
        #expect(configs.contains { $0.topic.hasPrefix("homeassistant/sensor/") && $0.topic.hasSuffix("/round/config") })
        #expect(HomeAssistant.configs(MqttConfig(), version: "1").count == 8)
    }

    @Test func theOverrunIsPublished() throws {
        let broker = VirtualBroker(loop: loop)
        let link = broker.link("kitchen")
        let box = try TestBox("mqtt: {host: h, client_id: kitchen}\ntimer: {presets: [10s], overrun: true}", loop: loop, link: link)
        loop.advance(by: .seconds(1))
        link.inject("tock/kitchen/cmd", #"{"cmd":"start"}"#)
        loop.advance(by: .seconds(15))
        #expect(box.shell.frame?.text.hasPrefix("-0:0") == true)
        link.inject("tock/kitchen/cmd", #"{"cmd":"status"}"#)
        loop.advance(by: .milliseconds(100))
        let status = reply(broker.published(on: "tock/kitchen/reply").last ?? "")
        #expect((status["overrun_ms"] as? Int).map { (4_900...5_200).contains($0) } == true)
        #expect(broker.published(on: "tock/kitchen/overrun_ms").contains { $0 != "" })
    }

    @Test func aGroupsBoxesStartAProgramsLeadInTogether() throws {
        let broker = VirtualBroker(loop: loop)
        let yaml = { (id: String) in "mqtt: {host: h, client_id: \(id), group: gym}\n" + programs }
        let a = try TestBox(yaml("a"), loop: loop, link: broker.link("a"))
        let b = try TestBox(yaml("b"), loop: loop, link: broker.link("b"))
        loop.advance(by: .seconds(1))
        a.shell.action(.pressed(.reset))  // the next program, on both
        loop.advance(by: .seconds(3))
        a.shell.action(.pressed(.start))
        loop.advance(by: .seconds(2))
        #expect(a.shell.frame?.text.hasPrefix("Pr") == true)
        #expect(a.shell.frame == b.shell.frame)
        #expect(a.shell.progress().leadIn == b.shell.progress().leadIn)
        loop.advance(by: .seconds(9))
        #expect(a.shell.progress().program == "E1" && b.shell.progress().program == "E1")
        // (The press went out for 4.25 s, the group's lead ahead: the lead-in ends at 14.25.)
        #expect(a.shell.frame?.text == "01:00" && b.shell.frame?.text == "01:00")
        loop.advance(by: .seconds(1))
        #expect(a.shell.frame?.text == "00:59" && b.shell.frame?.text == "00:59")
        #expect(a.shell.progress().remaining == b.shell.progress().remaining)
    }
}

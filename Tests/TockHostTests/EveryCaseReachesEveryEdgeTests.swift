import Foundation
import Testing
@testable import TockConfig
import TockControl
import TockCore
import TockJSON
import TockLoop
@testable import TockHost
@testable import TockMQTT

/// A case added to `Settings.Mode` or `StateName` reaches every edge with
/// no list to update: the socket's request, the status both ways, MQTT's
/// command and state topics and Home Assistant's select and sensor (the
/// page: TockWebTests; the command line: TockServiceTests).
@Suite struct EveryCaseReachesEveryEdgeTests {
    let loop = VirtualLoop(epoch: WallTime(secondsSince1970: 1_800_000_000))

    func wire(_ s: BoxStatus) throws -> BoxStatus? { BoxStatus(try JSON.object(JSON.object(s.json).bytes())) }

    @Test func everyModeIsASocketRequestAndAStatusBothWays() throws {
        for mode in Settings.Mode.allCases {
            let line = #"{"cmd":"mode","mode":"\#(mode.rawValue)"}"#
            #expect(try ControlRequest.parse(Array(line.utf8)) == .mode(mode))
            #expect(ControlRequest.mode(mode).line == line)
            #expect(try wire(BoxStatus(state: .ready, display: "", buzzer: false, mode: mode))?.mode == mode)
        }
        #expect(ControlRequest.modes == Settings.Mode.allCases.map(\.rawValue))
        #expect(throws: ControlRequest.Invalid.self) { try ControlRequest.parse(Array(#"{"cmd":"mode","mode":"egg"}"#.utf8)) }
    }

    @Test func everyStateIsAStatusBothWaysAndAnOptionOfHomeAssistantsSensor() throws {
        let configs = HomeAssistant.configs(MqttConfig(), version: "0")
        let sensor = try #require(configs.first { $0.topic.hasSuffix("/sensor/\(MqttConfig().clientID)/state/config") })
        let options = sensor.payload["options"]?.array ?? []
        for state in StateName.allCases.map(Optional.some) + [nil] {
            let s = BoxStatus(state: state, display: "", buzzer: false, mode: .timer)
            #expect(try wire(s)?.state == state)
            #expect(options.contains(JSON.string(s.stateWord)), "\(s.stateWord)")
        }
        #expect(options.count == StateName.allCases.count + 1)
    }

    @Test func everyModeIsAnOptionOfHomeAssistantsSelectAndReachesTheBoxOverMQTT() throws {
        let broker = VirtualBroker(loop: loop)
        let link = broker.link("kitchen")
        let box = try TestBox("mqtt: {host: h, client_id: kitchen}\ncountdown: {until: \"2027-02-01T00:00:00+00:00\"}", loop: loop, link: link)
        loop.advance(by: .seconds(1))
        let config = try JSON.object(try #require(broker.retained["homeassistant/select/kitchen/mode/config"]))
        #expect(config["options"] == Settings.Mode.allCases.map(\.rawValue).json)
        let template = try #require(config["command_template"]?.string)
        for mode in Settings.Mode.allCases.reversed() {
            // What Home Assistant sends when the option is picked.
            link.inject("tock/kitchen/cmd", template.replacingOccurrences(of: "{{ value }}", with: mode.rawValue))
            loop.advance(by: .seconds(1))
            let reply = try JSON.object(Array(try #require(broker.published(on: "tock/kitchen/reply").last).utf8))
            #expect(reply["ok"] == true && reply["mode"] == .string(mode.rawValue), "\(reply)")
            #expect(box.host.service.status().mode == mode)
            #expect(broker.published(on: "tock/kitchen/mode").last == mode.rawValue)
        }
    }
}

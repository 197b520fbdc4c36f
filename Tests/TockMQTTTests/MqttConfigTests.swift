import Foundation
import Testing
@testable import TockMQTT
@testable import TockConfig
import TockCore

@Suite struct MqttConfigTests {
    func problems(_ yaml: String) -> [String] {
        do {
            _ = try Configuration.parse(yaml: yaml, file: "c.yaml")
            return []
        } catch let e as ConfigError {
            return e.problems.map(\.description)
        } catch {
            Issue.record("unexpected \(error)")
            return []
        }
    }

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
        #expect(configs.count == 8)
        #expect(configs.allSatisfy { ($0.payload["device"] as? [String: Any])?["sw_version"] as? String == version })
    }
}

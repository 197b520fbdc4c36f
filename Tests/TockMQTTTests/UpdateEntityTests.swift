import Foundation
import Testing
@testable import TockConfig
import TockControl
@testable import TockMQTT

/// Home Assistant's update entity: its discovery config offers no install,
/// and its state says the installed and newest versions only as the check
/// found them, and why when it found none.
@Suite struct UpdateEntityTests {
    func config() throws -> [String: Any] {
        var c = MqttConfig()
        (c.clientID, c.topicPrefix, c.discoveryPrefix) = ("kitchen", "tock/kitchen", "homeassistant")
        return wire(try #require(HomeAssistant.configs(c, version: "0.1.0").first { $0.topic == "homeassistant/update/kitchen/update/config" }).payload)
    }

    func state(_ check: UpdateCheck?, running: String = "0.1.0") -> [String: String] {
        let text = HomeAssistant.updateState(check, running: running)
        return (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: String] ?? ["unreadable": text]
    }

    let at = "2026-11-27T03:12:09Z"

    @Test func theConfigHasAStateAndNoInstall() throws {
        let c = try config()
        #expect(c["state_topic"] as? String == "tock/kitchen/update")
        #expect(c["device_class"] as? String == "firmware" && c["title"] as? String == "Tock")
        #expect(c["default_entity_id"] as? String == "update.tock_kitchen_update")
        #expect(c["command_topic"] == nil && c["payload_install"] == nil, "Home Assistant would offer Install")
        #expect(c["availability_topic"] as? String == "tock/kitchen/availability")
    }

    @Test func availableSaysBothVersionsAndHowToInstallOnTheBox() {
        let s = state(UpdateCheck(checked: at, result: .available, installed: "0.1.0", latest: "1:0.0.1"))
        #expect(s["installed_version"] == "0.1.0" && s["latest_version"] == "1:0.0.1")
        #expect(s["release_summary"]?.contains("tock-update") == true)
    }

    @Test func currentIsTheBoxsWordNotHomeAssistants() {
        // dpkg: 0.2.0~rc1 is older than 0.2.0. Home Assistant's own compare
        // cannot order "~": the box sends the installed version as the latest.
        let s = state(UpdateCheck(checked: at, result: .current, installed: "0.2.0", latest: "0.2.0~rc1"))
        #expect(s["installed_version"] == "0.2.0" && s["latest_version"] == "0.2.0")
        #expect(s["release_summary"]?.contains("0.2.0~rc1") == true)
    }

    @Test func withoutALatestVersionItIsLeftOutAndTheSummarySaysWhy() {
        let cases: [(UpdateCheck?, String)] = [
            (nil, "Not checked yet"),
            (UpdateCheck(checked: at, result: .noRepository, installed: "0.1.0", latest: nil,
                         reason: "/etc/apt/sources.list.d/tock.sources names no repository (https://tock.invalid/debian)"), "No repository configured: /etc"),
            (UpdateCheck(checked: at, result: .refused, installed: "0.1.0", latest: nil, reason: "not signed by the key of Signed-By"), "refused: not signed"),
            (UpdateCheck(checked: at, result: .unreachable, installed: "0.1.0", latest: nil, reason: "no answer within 120s"), "did not answer"),
            (UpdateCheck(checked: at, result: .invalid, installed: "0.1.0", latest: nil, reason: "not a Debian version"), "version was refused"),
        ]
        for (check, summary) in cases {
            let s = state(check, running: "0.1.0")
            #expect(s["latest_version"] == nil, "\(summary): Home Assistant would say up to date")
            #expect(s["installed_version"] == "0.1.0")
            #expect(s["release_summary"]?.contains(summary) == true, "\(s)")
        }
        // Before any check, the running release; after, the package's.
        #expect(state(nil, running: "0.3.0")["installed_version"] == "0.3.0")
        #expect(state(UpdateCheck(checked: at, result: .refused, installed: "0.1.0+b1", latest: nil, reason: "x"), running: "0.1.0")["installed_version"] == "0.1.0+b1")
    }

    @Test func theSummaryStaysWithinHomeAssistantsBound() {
        let long = String(repeating: "\"\\ x", count: 60)  // 240 characters, quotes and backslashes
        let text = HomeAssistant.updateState(UpdateCheck(checked: at, result: .refused, installed: "0.1.0", latest: nil, reason: long), running: "0.1.0")
        let s = state(UpdateCheck(checked: at, result: .refused, installed: "0.1.0", latest: nil, reason: long))
        #expect(s["release_summary"]?.count == HomeAssistant.maxSummary, "\(text)")
    }
}

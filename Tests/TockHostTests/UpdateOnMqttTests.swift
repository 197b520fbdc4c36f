import Foundation
import Logging
import Testing
import TockControl
import TockCore
import TockLoop
import TockTestSupport
@testable import TockHost
@testable import TockMQTT

/// The update entity on virtual time: the box reads the check's file at the
/// start and again on `update-checked` (never on a timer), sends its state
/// retained when it changed, and a file that is not the check's is said
/// once in the log and shown as not checked.
@Suite struct UpdateOnMqttTests {
    let loop = VirtualLoop(epoch: WallTime(secondsSince1970: 1_800_000_000))
    let lines = LogLines()
    let dir: String = {
        let d = FileManager.default.temporaryDirectory.appendingPathComponent("tock-update-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
        return d
    }()

    func write(_ text: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: "\(dir)/update-check.json"), options: .atomic)
    }

    func box() throws -> (TestBox, VirtualBroker, VirtualLink) {
        let broker = VirtualBroker(loop: loop)
        let log = Logger(label: "test") { [lines] _ in LogCapture(lines: lines) }
        let link = broker.link("kitchen")
        let box = try TestBox("mqtt: {host: h, client_id: kitchen}", loop: loop, link: link, statePath: "\(dir)/state.json", log: log)
        loop.advance(by: .seconds(1))
        return (box, broker, link)
    }

    func updates(_ broker: VirtualBroker) -> [[String: Any]] { broker.published(on: "tock/kitchen/update").map(reply) }

    let available = #"{"v":1,"checked":"2026-11-27T03:12:09Z","result":"available","installed":"0.1.0","latest":"0.1.1"}"#
    let refused = #"{"v":1,"checked":"2026-11-28T03:12:09Z","result":"refused","installed":"0.1.0","reason":"not signed by the key of Signed-By (k.pgp): NO_PUBKEY 0C599D"}"#

    @Test func theCheckAtTheStartThenEachUpdateCheckedThatChangedIt() throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try write(available)
        let (box, broker, link) = try box()
        #expect(updates(broker).count == 1)
        #expect(updates(broker).last?["latest_version"] as? String == "0.1.1")
        #expect(box.host.service.status().update?.result == .available)
        // Written again: nothing happens until the check says so.
        try write(refused)
        loop.advance(by: .seconds(3600))
        #expect(updates(broker).count == 1)
        link.inject("tock/kitchen/cmd", #"{"cmd":"update-checked"}"#)
        loop.advance(by: .seconds(1))
        #expect(updates(broker).count == 2)
        let now = try #require(updates(broker).last)
        #expect(now["latest_version"] == nil && (now["release_summary"] as? String)?.contains("NO_PUBKEY 0C599D") == true)
        // The same file again: the same state, not sent again.
        _ = box.host.service.reply(to: .updateChecked)
        loop.advance(by: .seconds(1))
        #expect(updates(broker).count == 2)
        // Sent again, retained, on every connection.
        link.drop()
        link.connect()
        loop.advance(by: .seconds(1))
        #expect(updates(broker).count == 3 && broker.retained["tock/kitchen/update"] != nil)
    }

    @Test func aFileThatIsNotTheChecksIsSaidOnceAndShownAsNotChecked() throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try write(String(repeating: "x", count: 5000))
        let (box, broker, link) = try box()
        #expect((updates(broker).last?["release_summary"] as? String)?.hasPrefix("Not checked yet") == true)
        for _ in 0..<100 { link.inject("tock/kitchen/cmd", #"{"cmd":"update-checked"}"#) }
        loop.advance(by: .seconds(2))
        let said = lines.messages.filter { $0.hasPrefix("update check: ") }
        #expect(said.count == 1, "\(said)")
        #expect(said.first?.contains("File too large") == true || said.first?.contains("too large") == true, "\(said)")
        #expect(box.host.service.status().update == nil)
        // A version past its bound: refused by the reader, said once more.
        try write(available.replacingOccurrences(of: "0.1.1", with: "0." + String(repeating: "9", count: 80)))
        _ = box.host.service.reply(to: .updateChecked)
        #expect(lines.messages.filter { $0.hasPrefix("update check: ") }.count == 2)
        #expect(lines.messages.last?.contains(#""latest" must be a Debian version of at most 64"#) == true, "\(lines.messages.last ?? "")")
        #expect(updates(broker).count == 1)
        // The check's file once more: shown.
        try write(available)
        _ = box.host.service.reply(to: .updateChecked)
        loop.advance(by: .seconds(1))
        #expect(updates(broker).last?["latest_version"] as? String == "0.1.1")
    }

    @Test func withoutAFileTheRunningReleaseAndNotCheckedYet() throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (box, broker, _) = try box()
        let s = try #require(updates(broker).last)
        #expect(s["installed_version"] as? String == MqttBridge.version && s["latest_version"] == nil)
        #expect(box.host.service.status().update == nil)
        #expect(lines.messages.filter { $0.hasPrefix("update check: ") }.isEmpty)
    }
}

import Foundation
import Logging
import Testing
import TockCore
import TockLinux
import TockLoop
import TockTestSupport
@testable import TockHost
@testable import TockMQTT

/// The log under a flood from outside, on virtual time: every kind of line
/// a command, a group message or a connection can cause is written at
/// most once a minute, with a count of what was held back, however the
/// names vary; and whatever a line quotes from outside is escaped.
@Suite struct LogFloodTests {
    let loop = VirtualLoop(epoch: WallTime(secondsSince1970: 1_800_000_000))
    let lines = LogLines()

    /// A box on the virtual broker; `group`: a member of the fleet group
    /// `gym` with that client id.
    func box(_ yaml: String, group: String? = nil, broker: VirtualBroker? = nil) throws -> (TestBox, VirtualBroker, VirtualLink) {
        let broker = broker ?? VirtualBroker(loop: loop)
        // At info, as the service logs (the buzzer's debug lines are for --verbose).
        let log = Logger(label: "test") { [lines] _ in
            var h = LogCapture(lines: lines)
            h.logLevel = .info
            return h
        }
        let id = group ?? "kitchen"
        let link = broker.link(id)
        let mqtt = group.map { "mqtt: {host: h, client_id: \($0), group: gym}\n" } ?? "mqtt: {host: h, client_id: kitchen}\n"
        let box = try TestBox(mqtt + yaml, loop: loop, link: link, log: log)
        loop.advance(by: .seconds(1))
        return (box, broker, link)
    }

    /// The lines logged so far, by kind (the words before the first name
    /// or number), and the raw text of all.
    func kinds(_ messages: ArraySlice<String>) -> [String: Int] {
        var n: [String: Int] = [:]
        for m in messages {
            let kind = m.hasPrefix("timers:") ? "timers" : m.hasPrefix("state ") ? "state" : m.hasPrefix("timer ") ? "rang"
                : m.hasPrefix("round ") ? "round" : String(m.prefix(24))
            n[kind, default: 0] += 1
        }
        return n
    }

    /// 1,000 timer commands a second for 20 s on `<prefix>/cmd`, the names
    /// changed each time (adds of 1 s that ring, pauses, cancels, refusals,
    /// starts and stops of the box's own count): the issue's 3,840 lines
    /// become one line of each kind, then each kind's latest with its count.
    @Test func aTimerCommandFloodWritesOneLineOfEachKindAMinute() throws {
        let (box, broker, link) = try box("timer: {presets: [9m]}")
        defer { withExtendedLifetime((box, broker)) {} }
        let before = lines.messages.count
        let letters = Array("AbCdEFHJLnoPrtUy")
        var i = 0
        for _ in 0..<20_000 {
            let name = String([letters[i % 16], letters[(i / 16) % 16], letters[(i / 256) % 16]])
            let payload = switch i % 8 {
            case 0, 1: #"{"cmd":"timer","op":"add","name":"\#(name)","duration":"1s"}"#
            case 2: #"{"cmd":"timer","op":"add","name":"\#(name)","duration":"99h"}"#
            case 3: #"{"cmd":"timer","op":"cancel","name":"\#(name)"}"#
            case 4: #"{"cmd":"timer","op":"pause","name":"\#(name)"}"#
            case 5: i % 16 == 5 ? #"{"cmd":"start"}"# : #"{"cmd":"stop"}"#
            case 6: #"{"cmd":"timer","op":"add","name":"k\#(name)","duration":"1m"}"#  // refused: no k on 7 segments
            default: #"{"cmd":"timer","op":"boom\#(i)"}"#  // malformed
            }
            link.inject("tock/kitchen/cmd", payload)
            loop.advance(by: .milliseconds(1))
            i += 1
        }
        let flood = lines.messages[before...]
        let during = kinds(flood)
        #expect(flood.count <= 12, "\(flood.count) lines in 20 s: \(during)")
        #expect(during.values.allSatisfy { $0 <= 1 }, "\(during)")
        #expect(during["timers"] == 1 && during["rang"] == 1, "\(during)")
        // The minute ends: each kind's latest, with how many were held back.
        loop.advance(by: .seconds(41))
        let summaries = lines.messages[(before + flood.count)...]
        #expect(summaries.count >= 3 && summaries.count <= flood.count, "\(Array(summaries))")
        #expect(summaries.allSatisfy { $0.contains("such lines held back in the last minute") }, "\(Array(summaries))")
        #expect(summaries.contains { $0.hasPrefix("timers: ") })
        print("timer flood: 20,000 commands in 20 s, \(flood.count) lines, then \(summaries.count) summaries a minute in: \(during)")
    }

    /// The attacker who stays just under the limit: one command of every
    /// kind each 61 s, a new name each time, for an hour. Every line is
    /// written (nothing is lost that a person would do), and no more than
    /// one a minute of each kind.
    @Test func justUnderTheLimitEveryLineIsWrittenAndNoMore() throws {
        let (box, broker, link) = try box("timer: {presets: [9m]}")
        defer { withExtendedLifetime((box, broker)) {} }
        let before = lines.messages.count
        for k in 0..<60 {
            let name = "t\(k / 2 % 10)E"
            link.inject("tock/kitchen/cmd", k % 2 == 0 ? #"{"cmd":"timer","op":"add","name":"\#(name)","duration":"9h"}"#
                : #"{"cmd":"timer","op":"cancel","name":"\#(name)"}"#)
            link.inject("tock/kitchen/cmd", #"{"cmd":"timer","op":"boom\#(k)"}"#)
            loop.advance(by: .seconds(61))
        }
        let hour = lines.messages[before...]
        let n = kinds(hour)
        // Each 61 s: the timers' change and the malformed one, every one written.
        #expect(n["timers"] == 60 && hour.count == 120, "\(hour.count) lines: \(n)")
        #expect(!hour.contains { $0.contains("held back") }, "\(Array(hour.prefix(5)))")
    }

    /// Names and payloads with a newline, an ESC, a C1 CSI and invalid
    /// UTF-8: each quoted on one line, escaped.
    @Test func textFromOutsideIsEscaped() throws {
        let (box, broker, link) = try box("timer: {presets: [9m]}")
        defer { withExtendedLifetime((box, broker)) {} }
        let before = lines.messages.count
        // A name (16 characters at most): refused, since 7 segments cannot draw it.
        link.inject("tock/kitchen/cmd", #"{"cmd":"timer","op":"add","name":"A\n<3>x\u001b[2J","duration":"1m"}"#)
        loop.advance(by: .seconds(61))
        // A cmd with a C1 CSI and a newline: ignored, and quoted.
        link.inject("tock/kitchen/cmd", #"{"cmd":"sta\u009brt\n<3>forged"}"#)
        loop.advance(by: .seconds(61))
        let written = Array(lines.messages[before...])
        #expect(written.count >= 2, "\(written)")
        for line in written {
            #expect(!line.contains("\n") && !line.contains("\u{1B}") && !line.contains("\u{9B}"), "\(line)")
        }
        #expect(written.contains { $0.contains(#""A\n<3>x\e[2J" cannot be drawn"#) }, "\(written)")
        #expect(written.contains { $0.contains(#"unknown cmd "sta\u{9B}rt\n<3>forged""#) }, "\(written)")
    }

    /// A fleet group flooded with junk, presses numbered far ahead and
    /// senders named with a newline: one line of each kind a minute, the
    /// sender escaped.
    @Test func aGroupFloodWritesOneLineOfEachKindAMinute() throws {
        let broker = VirtualBroker(loop: loop)
        let (a, _, _) = try box("timer: {presets: [10m]}", group: "a", broker: broker)
        let (bBox, _, b) = try box("timer: {presets: [10m]}", group: "b", broker: broker)
        defer { withExtendedLifetime((a, bBox, broker)) {} }
        a.shell.action(.pressed(.start))
        loop.advance(by: .seconds(2))
        let real = try #require(broker.published(on: "tock/groups/gym", by: "a").last)
        var message = try #require(try JSONSerialization.jsonObject(with: Data(real.utf8)) as? [String: Any])
        let before = lines.messages.count
        for k in 0..<10_000 {
            if k % 2 == 0 {
                b.inject("tock/groups/gym", #"{"from":"x\#(k)","seq":"#)  // junk, each different
            } else {
                message["from"] = "evil\(k)\n<3>forged\u{1B}[2J"
                message["seq"] = 1_000_000_000 + k
                b.inject("tock/groups/gym", String(decoding: try JSONSerialization.data(withJSONObject: message), as: UTF8.self))
            }
            loop.advance(by: .milliseconds(2))
        }
        let flood = Array(lines.messages[before...])
        #expect(flood.count <= 3, "\(flood)")
        for line in flood { #expect(!line.contains("\n") && !line.contains("\u{1B}"), "\(line)") }
        loop.advance(by: .seconds(60))
        let all = Array(lines.messages[before...])
        #expect(all.count <= 6, "\(all)")
        #expect(all.contains { $0.contains("held back") }, "\(all)")
    }

    /// Any local process can open the control socket in a loop: each new
    /// connection past the 16th evicts the one idle longest, and the line
    /// that says so is written once a minute, not once a connection.
    @Test func aConnectionFloodOnTheSocketWritesOneLineAMinute() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tock-logs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("s").path
        let log = Logger(label: "test") { [lines] _ in LogCapture(lines: lines) }
        let box = try TestBox("timer: {presets: [10s]}", loop: loop, control: try UnixListener(path: path), log: log)
        defer { box.host.stop() }
        var open: [UnixConnection] = []
        for _ in 0..<300 {
            open.append(try UnixConnection.connect(to: path))
            loop.advance(by: .milliseconds(10))
            if open.count > 40 { open.removeFirst().close() }
        }
        let evictions = lines.messages.filter { $0.hasPrefix("control socket:") }
        #expect(evictions.count == 1, "\(evictions.count) lines for 284 evictions")
        loop.advance(by: .seconds(60))
        let after = lines.messages.filter { $0.hasPrefix("control socket:") }
        #expect(after.count == 2 && after.last?.contains("held back in the last minute") == true, "\(after)")
        for c in open { c.close() }
    }
}

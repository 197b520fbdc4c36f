import Foundation
import Logging
import Testing
import TockCore
import TockLoop
import TockTestSupport
@testable import TockHost
@testable import TockMQTT

/// More kinds of line under a flood on MQTT, on virtual time: the box's
/// state, retained commands, and a state file the card will not take.
/// Each is written once in the minute, then once with its count.
@Suite struct LogFloodKindsTests {
    let loop = VirtualLoop(epoch: WallTime(secondsSince1970: 1_800_000_000))
    let lines = LogLines()

    func box(_ yaml: String, statePath: String? = nil) throws -> (TestBox, VirtualBroker, VirtualLink) {
        let broker = VirtualBroker(loop: loop)
        let log = Logger(label: "test") { [lines] _ in
            var h = LogCapture(lines: lines)
            h.logLevel = .info  // as the service logs
            return h
        }
        let link = broker.link("kitchen")
        let box = try TestBox("mqtt: {host: h, client_id: kitchen}\n" + yaml, loop: loop, link: link, statePath: statePath, log: log)
        loop.advance(by: .seconds(1))
        return (box, broker, link)
    }

    func count(_ prefix: String, since index: Int) -> Int { lines.messages[index...].filter { $0.hasPrefix(prefix) }.count }

    /// Start and stop, 500 a second for 20 s: one `state` line, not 10,000.
    @Test func startAndStopFloodWritesOneStateLineAMinute() throws {
        let (box, broker, link) = try box("timer: {presets: [9m]}")
        defer { withExtendedLifetime((box, broker)) {} }
        let before = lines.messages.count
        for i in 0..<10_000 {
            link.inject("tock/kitchen/cmd", i % 2 == 0 ? #"{"cmd":"start"}"# : #"{"cmd":"stop"}"#)
            loop.advance(by: .milliseconds(2))
        }
        #expect(count("state ", since: before) == 1, "\(lines.messages[before...].prefix(5))")
        loop.advance(by: .seconds(41))
        #expect(count("state ", since: before) == 2)
        #expect(lines.messages.last { $0.hasPrefix("state ") }?.contains("such lines held back in the last minute") == true)
    }

    /// Retained commands (a broker that hands them over again and again):
    /// one line, then one with the count.
    @Test func retainedCommandFloodWritesOneLineAMinute() throws {
        let (box, broker, link) = try box("timer: {presets: [9m]}")
        defer { withExtendedLifetime((box, broker)) {} }
        let before = lines.messages.count
        for i in 0..<2_000 {
            link.inject("tock/kitchen/cmd", #"{"cmd":"timer","op":"add","name":"t\#(i % 9)","duration":"1m"}"#, retained: true)
            loop.advance(by: .milliseconds(10))
        }
        #expect(count("mqtt: ignored a retained command", since: before) == 1)
        loop.advance(by: .seconds(41))
        let all = lines.messages[before...].filter { $0.hasPrefix("mqtt: ignored a retained command") }
        #expect(all.count == 2 && all.last?.contains("the latest of 1999 such lines held back") == true, "\(all)")
    }

    /// A state file the card refuses: every change tries to save it (one a
    /// second under a flood), and the line that says it cannot is written
    /// once a minute, then with its count.
    @Test func aStateFileThatCannotBeWrittenIsSaidOnceAMinute() throws {
        let (box, broker, link) = try box("timer: {presets: [9m]}", statePath: "/proc/tock-no-such-dir/state.json")
        defer { withExtendedLifetime((box, broker)) {} }
        let before = lines.messages.count
        for i in 0..<200 {
            link.inject("tock/kitchen/cmd", i % 2 == 0 ? #"{"cmd":"start"}"# : #"{"cmd":"stop"}"#)
            loop.advance(by: .milliseconds(100))
        }
        #expect(count("state file /proc/tock-no-such-dir/state.json: cannot write it", since: before) <= 1)
        loop.advance(by: .seconds(41))
        let all = lines.messages[before...].filter { $0.contains("cannot write it") }
        #expect(all.count >= 1 && all.count <= 2, "\(all.count) lines: \(all.prefix(3))")
    }
}

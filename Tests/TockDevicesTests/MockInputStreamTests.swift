import Foundation
import Glibc
import Logging
import Testing
@testable import TockDevices
import TockTestSupport
import TockCore
import TockLinux
import TockHardware

/// The `--mock-input` protocol: parsing, and edges read through a real
/// named pipe as the event loop reads them.
@Suite struct MockInputStreamTests {
    @Test func parsesEdgesWithAndWithoutTimestamps() {
        #expect(MockInputStream.parse("start 1") == .edge(.button(.start), active: true, at: nil))
        #expect(MockInputStream.parse("reset 0 42") == .edge(.button(.reset), active: false, at: 42))
        #expect(MockInputStream.parse("  switch\t1 7\r") == .edge(.directionSwitch, active: true, at: 7))
        #expect(MockInputStream.parse("") == .blank)
        #expect(MockInputStream.parse("   ") == .blank)
    }

    @Test func garbageIsAProblemNamingWhatIsWrong() {
        #expect(MockInputStream.parse("go 1") == .problem("unknown line \"go\""))
        #expect(MockInputStream.parse("stop") == .problem("no level after \"stop\""))
        #expect(MockInputStream.parse("stop on") == .problem("level \"on\" is not 1 or 0"))
        #expect(MockInputStream.parse("stop 1 soon") == .problem("\"soon\" is not a time in nanoseconds"))
        #expect(MockInputStream.parse("stop 1 -5") == .problem("\"-5\" is not a time in nanoseconds"))
        #expect(MockInputStream.parse("stop 1 5 6") == .problem("\"5 6\" is not a time in nanoseconds"))
        #expect(MockInputStream.parse("stop 1 99999999999999999999") == .problem("\"99999999999999999999\" is not a time in nanoseconds"))
    }

    final class Pipe {
        let path = NSTemporaryDirectory() + "tock-mock-input-\(getpid())-\(UUID().uuidString.prefix(8))"
        var writer: Int32 = -1
        init() { mkfifo(path, 0o600) }
        func open() { writer = Glibc.open(path, O_WRONLY | O_NONBLOCK) }
        func write(_ s: String) { _ = s.withCString { Glibc.write(writer, $0, strlen($0)) } }
        deinit { if writer >= 0 { close(writer) }; unlink(path) }
    }


    @Test func edgesArriveThroughTheFIFOLikeAWire() throws {
        let pipe = Pipe()
        let lines = LogLines()
        let stream = try MockInputStream(path: pipe.path, switchPosition: .down,
                                         timestamp: { Instant(nanoseconds: Int64($0) + 1_000) },
                                         now: { Instant(nanoseconds: 5_000_000) },
                                         log: Logger(label: "test") { _ in LogCapture(lines: lines) })
        pipe.open()
        #expect(try stream.readEdges().isEmpty)
        // Half a line waits for the rest; a level the line already has is no edge.
        pipe.write("start 1 100\nstart 1 200\nswitch 0\nsto")
        #expect(try stream.readEdges() == [Edge(line: .button(.start), active: true, timestamp: Instant(nanoseconds: 1_100))])
        pipe.write("p 1 9999999999\nbogus\n" + String(repeating: "x", count: 500) + "\nstart 0\n")
        let edges = try stream.readEdges()
        // A stamp later than the read is clamped to the read; no stamp: the read.
        #expect(edges == [Edge(line: .button(.stop), active: true, timestamp: Instant(nanoseconds: 5_000_000)),
                          Edge(line: .button(.start), active: false, timestamp: Instant(nanoseconds: 5_000_000))])
        #expect(lines.messages.count == 2)
        #expect(lines.messages.first?.contains("line 5: unknown line \"bogus\", ignored; expected <start|stop|reset|switch>") == true)
        #expect(lines.messages.last?.contains("line 6: longer than 128 bytes") == true)
    }

    @Test func aPathThatIsNotAFIFOIsRefusedWithWhatToDo() {
        let log = Logger(label: "test")
        #expect(throws: HardwareError(.unsupported, "/etc/hostname is not a named pipe; give the path of one (mkfifo PATH makes one)")) {
            try MockInputStream(path: "/etc/hostname", switchPosition: .down, timestamp: { _ in .zero }, now: { .zero }, log: log)
        }
        #expect(throws: HardwareError(.notFound, "/nonexistent/in does not exist: make it with mkfifo /nonexistent/in")) {
            try MockInputStream(path: "/nonexistent/in", switchPosition: .down, timestamp: { _ in .zero }, now: { .zero }, log: log)
        }
    }
}

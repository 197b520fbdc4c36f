import Foundation
import Glibc
import Logging
import Testing
@testable import TockDevices
import TockTestSupport
import TockCore
import TockLinux
import TockHardware
import TockMock

/// The `--mock-input` protocol: parsing, and lines read through a real
/// named pipe into the mock panel, whose edges the board's reader reads.
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


    /// The mock board's lines with the panel wired as `pins` says, and the
    /// reader the appliance reads them with.
    static func board(activeLow: Bool = true, bias: Bias = .pullUp) -> (MockPanel, InputReader) {
        let lines = MockInputLines(InputLine.all, bias: bias)
        let panel = MockPanel(lines: lines, activeLow: activeLow, switchPosition: .down)
        return (panel, InputReader(lines, activeLow: activeLow))
    }

    @Test func edgesArriveThroughTheFIFOLikeAWire() throws {
        let pipe = Pipe()
        let lines = LogLines()
        let stream = try MockInputStream(path: pipe.path, timestamp: { Instant(nanoseconds: Int64($0) + 1_000) },
                                         now: { Instant(nanoseconds: 5_000_000) },
                                         log: Logger(label: "test") { _ in LogCapture(lines: lines) })
        let (panel, reader) = Self.board()
        pipe.open()
        try stream.read(into: panel)
        #expect(try reader.readEdges().isEmpty)
        // Half a line waits for the rest; a level the line already has is no edge.
        pipe.write("start 1 100\nstart 1 200\nswitch 0\nsto")
        try stream.read(into: panel)
        #expect(try reader.readEdges() == [Edge(line: .button(.start), active: true, timestamp: Instant(nanoseconds: 1_100))])
        // Active low: the pressed button holds its line low.
        #expect(panel.lines.level(.button(.start)) == false)
        pipe.write("p 1 9999999999\nbogus\n" + String(repeating: "x", count: 500) + "\nstart 0\n")
        try stream.read(into: panel)
        let edges = try reader.readEdges()
        // A stamp later than the read is clamped to the read; no stamp: the read.
        #expect(edges == [Edge(line: .button(.stop), active: true, timestamp: Instant(nanoseconds: 5_000_000)),
                          Edge(line: .button(.start), active: false, timestamp: Instant(nanoseconds: 5_000_000))])
        #expect(lines.messages.count == 2)
        #expect(lines.messages.first?.contains("line 5: unknown line \"bogus\", ignored; expected <start|stop|reset|switch>") == true)
        #expect(lines.messages.last?.contains("line 6: longer than 128 bytes") == true)
    }

    /// A script's stamps that go backwards (here across two lines) reach
    /// the core in the order written, each dated no earlier than the one
    /// before it: time does not run backwards through the debouncer.
    @Test func stampsGoingBackwardsAreDatedAtTheEdgeBefore() throws {
        let pipe = Pipe()
        let stream = try MockInputStream(path: pipe.path, timestamp: { Instant(nanoseconds: Int64($0)) },
                                         now: { Instant(nanoseconds: 9_000_000) }, log: Logger(label: "test"))
        let (panel, reader) = Self.board(activeLow: false, bias: .pullDown)
        pipe.open()
        pipe.write("start 1 5000000\nstop 1 2000000\nstart 0 1000000\nstop 0 7000000\n")
        try stream.read(into: panel)
        let edges = try reader.readEdges()
        #expect(edges.map(\.line) == [.button(.start), .button(.stop), .button(.start), .button(.stop)])
        #expect(edges.map(\.active) == [true, true, false, false])
        #expect(edges.map(\.timestamp.nanoseconds) == [5_000_000, 5_000_000, 5_000_000, 7_000_000])
    }

    @Test func aPathThatIsNotAFIFOIsRefusedWithWhatToDo() {
        let log = Logger(label: "test")
        #expect(throws: HardwareError(.unsupported, "/etc/hostname is not a named pipe; give the path of one (mkfifo PATH makes one)")) {
            try MockInputStream(path: "/etc/hostname", timestamp: { _ in .zero }, now: { .zero }, log: log)
        }
        #expect(throws: HardwareError(.notFound, "/nonexistent/in does not exist: make it with mkfifo /nonexistent/in")) {
            try MockInputStream(path: "/nonexistent/in", timestamp: { _ in .zero }, now: { .zero }, log: log)
        }
    }
}

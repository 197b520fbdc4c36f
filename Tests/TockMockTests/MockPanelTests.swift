import Glibc
import Testing
import TockHardware
@testable import TockMock
import TockCore

/// The mock panel drives the mock board's wires as a box's contacts drive
/// its pins, and the one `InputReader` reads them back.
@Suite struct MockPanelTests {
    static func t(_ ns: Int64) -> Instant { Instant(nanoseconds: ns) }

    static func board(activeLow: Bool, bias: Bias, switchPosition: SwitchPosition = .down) -> (MockPanel, InputReader) {
        let lines = MockInputLines(InputLine.all, bias: bias)
        let panel = MockPanel(lines: lines, activeLow: activeLow, switchPosition: switchPosition)
        return (panel, InputReader(lines, activeLow: activeLow))
    }

    /// Whether the board's descriptor is readable now (poll(2), no wait).
    static func readable(_ fd: CInt) -> Bool {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&p, 1, 0) == 1
    }

    @Test func drivingALineDeliversOneEdgePerLevelChange() throws {
        let (panel, reader) = Self.board(activeLow: true, bias: .pullUp)
        #expect(!Self.readable(reader.descriptor))
        panel.press(.start, at: Self.t(5))
        panel.press(.start, at: Self.t(6))   // already there: no edge
        #expect(Self.readable(reader.descriptor))
        panel.release(.start, at: Self.t(9))
        panel.setSwitch(.up, at: Self.t(10))
        #expect(try reader.readEdges() == [
            Edge(line: .button(.start), active: true, timestamp: Self.t(5)),
            Edge(line: .button(.start), active: false, timestamp: Self.t(9)),
            Edge(line: .directionSwitch, active: true, timestamp: Self.t(10)),
        ])
        // Read: the descriptor is quiet again, and a second read finds nothing.
        #expect(!Self.readable(reader.descriptor))
        #expect(try reader.readEdges().isEmpty)
    }

    /// Polarity is applied once, by the reader: a button to GND pulls its
    /// line low when pressed and reads pressed. Applied twice (the mock
    /// inverting too) or not at all, the low line would read released.
    @Test func activeLowIsAppliedExactlyOnce() throws {
        let (panel, reader) = Self.board(activeLow: true, bias: .pullUp)
        #expect(panel.lines.level(.button(.stop)) == true)   // the pull-up holds it
        #expect(reader.active[.button(.stop)] == false)
        panel.press(.stop, at: Self.t(1))
        #expect(panel.lines.level(.button(.stop)) == false)  // low on the wire
        #expect(try reader.readEdges() == [Edge(line: .button(.stop), active: true, timestamp: Self.t(1))])
        #expect(reader.active[.button(.stop)] == true)
        // The reader alone decides: the same low wire, read active-high, is released.
        let lines = MockInputLines([.button(.stop)], bias: .pullUp)
        lines.drive(.button(.stop), high: false, at: Self.t(1))
        #expect(try InputReader(lines, activeLow: false).readEdges() == [Edge(line: .button(.stop), active: false, timestamp: Self.t(1))])
    }

    /// The bias is the board's, applied when the lines are opened: with a
    /// pull-up an open contact rests high (released on active-low wiring),
    /// with a pull-down low; without a pull the panel's external resistor
    /// holds the inactive level. Without the bias applied, the open lines
    /// would rest low and read pressed.
    @Test func theBiasGivesTheLevelOfAnOpenContact() throws {
        for (activeLow, bias, rest) in [(true, Bias.pullUp, true), (false, .pullDown, false), (true, .disabled, true), (false, .asIs, false)] {
            let (panel, reader) = Self.board(activeLow: activeLow, bias: bias)
            for line in InputLine.all {
                #expect(panel.lines.level(line) == rest, "\(line.name) with \(bias) on \(activeLow ? "active-low" : "active-high") wiring")
                #expect(reader.active[line] == false)
            }
            panel.press(.reset, at: Self.t(1))
            panel.release(.reset, at: Self.t(2))
            #expect(panel.lines.level(.button(.reset)) == rest)
            #expect(try reader.readEdges().map(\.active) == [true, false])
        }
        // A pull the wrong way holds an open contact at the active level,
        // as it would on a board: the button reads held.
        let (_, stuck) = Self.board(activeLow: true, bias: .pullDown)
        #expect(stuck.active[.button(.start)] == true)
    }

    @Test func aSwitchLeftUpAtPowerUpIsReadUpWithoutAnEdge() throws {
        let (panel, reader) = Self.board(activeLow: true, bias: .pullUp, switchPosition: .up)
        #expect(panel.lines.level(.directionSwitch) == false)
        #expect(reader.active[.directionSwitch] == true)
        #expect(!Self.readable(reader.descriptor))
        #expect(try reader.readEdges().isEmpty)
    }

    /// The same presses wired either way: an active-low button driven
    /// low/high and an active-high one driven high/low give the same edges.
    @Test func activeLowAndActiveHighWithInvertedLevelsReadTheSame() throws {
        let low = MockInputLines(InputLine.all, bias: .pullUp)
        let high = MockInputLines(InputLine.all, bias: .pullDown)
        let lowReader = InputReader(low, activeLow: true), highReader = InputReader(high, activeLow: false)
        for (k, line) in [InputLine.button(.start), .button(.reset), .directionSwitch, .button(.start)].enumerated() {
            low.drive(line, high: false, at: Self.t(Int64(10 * k)))
            high.drive(line, high: true, at: Self.t(Int64(10 * k)))
            low.drive(line, high: nil, at: Self.t(Int64(10 * k + 5)))
            high.drive(line, high: nil, at: Self.t(Int64(10 * k + 5)))
        }
        let edges = try lowReader.readEdges()
        #expect(edges.count == 8)
        #expect(edges.map(\.active) == [true, false, true, false, true, false, true, false])
        #expect(try highReader.readEdges() == edges)
    }

    /// 10,000 edges queued before the loop reads: one read takes them all,
    /// in order, and leaves the descriptor quiet.
    @Test func aFloodOfEdgesIsReadInOneRead() throws {
        let (panel, reader) = Self.board(activeLow: true, bias: .pullUp)
        for k in 0..<10_000 { panel.set(.button(.stop), active: k % 2 == 0, at: Self.t(Int64(k) * 1_000)) }
        let edges = try reader.readEdges()
        #expect(edges.count == 10_000)
        #expect(edges.enumerated().allSatisfy { $0.element.active == ($0.offset % 2 == 0) && $0.element.timestamp == Self.t(Int64($0.offset) * 1_000) })
        #expect(!Self.readable(reader.descriptor))
        #expect(reader.active[.button(.stop)] == false)
    }

    @Test func aBouncyPressChattersWithinFiveMillisecondsAndEndsReleased() {
        let t = Instant(nanoseconds: 1_000_000_000)
        let edges = PressWaveform.edges(at: t, hold: .milliseconds(80), bounces: 6)
        #expect(edges.count == 2 + 6)
        #expect(edges.first!.active && edges.first!.at == t)
        #expect(edges.last!.active == false && edges.last!.at == t + .milliseconds(80))
        // Alternating levels, strictly increasing times, chatter inside 5 ms.
        for (a, b) in zip(edges, edges.dropFirst()) {
            #expect(a.active != b.active)
            #expect(a.at < b.at)
        }
        #expect(edges[edges.count - 2].at < t + .milliseconds(5))
    }

    @Test func outputsRecordChangesWithTheirTimes() throws {
        var now = Instant.zero
        let led = MockOutput(name: "running", clock: { now })
        try led.set(false)
        now = now + .seconds(1)
        try led.set(true)
        try led.set(true)
        #expect(led.history.map(\.active) == [false, true])
        #expect(led.history.last!.at == Instant.zero + .seconds(1))
        #expect(led.high)
    }

    /// An active-low output (`buzzer.active_low`) is low while active, as
    /// the kernel drives it on a board.
    @Test func anActiveLowOutputIsLowWhileActive() throws {
        let board = MockBoard(clock: { .zero })
        let buzzer = try board.output("buzzer.pin", role: "the buzzer", activeLow: true) as! MockOutput
        #expect(buzzer.high)
        try buzzer.set(true)
        #expect(!buzzer.high && buzzer.active)
    }
}

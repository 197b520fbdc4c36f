import Testing
import TockHardware
@testable import TockMock
import TockCore

@Suite struct MockPanelTests {
    @Test func drivingALineDeliversOneEdgePerLevelChange() {
        let panel = MockPanel(switchPosition: .down)
        var edges: [Edge] = []
        panel.connect { edges.append($0) }
        let start = panel.buttons[.start]!
        start.drive(active: true, at: Instant(nanoseconds: 5))
        start.drive(active: true, at: Instant(nanoseconds: 6))   // already there: no edge
        start.drive(active: false, at: Instant(nanoseconds: 9))
        panel.setSwitch(.up, at: Instant(nanoseconds: 10))
        #expect(edges == [
            Edge(line: .button(.start), active: true, timestamp: Instant(nanoseconds: 5)),
            Edge(line: .button(.start), active: false, timestamp: Instant(nanoseconds: 9)),
            Edge(line: .directionSwitch, active: true, timestamp: Instant(nanoseconds: 10)),
        ])
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
    }
}

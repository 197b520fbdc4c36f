import TockHardware
import TockCore

/// An input line driven like a wire: tests and the simulator press,
/// release and chatter it; every level change becomes an `Edge` with the
/// timestamp given, delivered to `onEdge` at once (as a GPIO backend would
/// deliver a kernel event).
public final class MockInput {
    public let line: InputLine
    public private(set) var active: Bool
    public var onEdge: ((Edge) -> Void)?

    public init(line: InputLine, active: Bool = false) {
        self.line = line
        self.active = active
    }

    /// Drive the line to a level; no edge if it is already there.
    public func drive(active: Bool, at t: Instant) {
        guard active != self.active else { return }
        self.active = active
        onEdge?(Edge(line: line, active: active, timestamp: t))
    }
}

/// The panel's inputs: three buttons and the Up/Down switch.
public final class MockPanel {
    public let buttons: [Button: MockInput]
    public let directionSwitch: MockInput

    public init(switchPosition: SwitchPosition) {
        buttons = Dictionary(uniqueKeysWithValues: Button.allCases.map { ($0, MockInput(line: .button($0))) })
        directionSwitch = MockInput(line: .directionSwitch, active: switchPosition == .up)
    }

    public var all: [MockInput] { Button.allCases.map { buttons[$0]! } + [directionSwitch] }

    /// Route every line's edges to one sink.
    public func connect(_ sink: @escaping (Edge) -> Void) {
        for input in all { input.onEdge = sink }
    }

    public func setSwitch(_ position: SwitchPosition, at t: Instant) {
        directionSwitch.drive(active: position == .up, at: t)
    }
}

/// The edges of a press as a person makes them, for scheduling on a
/// timeline: the contact closes at `t`, chatters `bounces` extra times
/// within the first 5 ms, and opens after `hold`.
public enum PressWaveform {
    public static func edges(at t: Instant, hold: Duration, bounces: Int = 0) -> [(active: Bool, at: Instant)] {
        var edges: [(Bool, Instant)] = [(true, t)]
        // Chatter: open/close pairs spread over the first 5 ms, ending closed.
        let pairs = (bounces + 1) / 2
        if pairs > 0 {
            let slot = Duration.milliseconds(5) / (pairs * 2 + 1)
            for k in 0..<pairs {
                edges.append((false, t + slot * (2 * k + 1)))
                edges.append((true, t + slot * (2 * k + 2)))
            }
        }
        edges.append((false, t + max(hold, .milliseconds(6))))
        return edges
    }
}

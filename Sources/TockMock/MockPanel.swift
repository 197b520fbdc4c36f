import TockCore

/// The panel wired to a mock board's input lines as a box's is to its
/// GPIO pins: each button, and the switch, is a contact that ties its line
/// to the active level when closed (to GND when `activeLow`, the buttons to
/// GND of docs/install.md) and leaves it to the pull resistor when open;
/// with no pull configured (`pins.bias: disabled` or `as-is`) the panel
/// carries the external resistor such wiring needs, to the inactive level.
/// A pull the wrong way round holds the line at the active level, as it
/// would on a board. Tests and the simulator press and release in domain
/// words; the lines see volts, and the `InputReader` over them reads them
/// back as it reads a GPIO chip.
public final class MockPanel {
    public let lines: MockInputLines
    /// Whether a closed contact pulls its line low (`pins.active_low`).
    public let activeLow: Bool
    private var closed = PerLine<Bool>()

    /// Wires the panel at power-up, before the lines are read: the buttons
    /// open, the switch closed when Up.
    public init(lines: MockInputLines, activeLow: Bool, switchPosition: SwitchPosition) {
        self.lines = lines
        self.activeLow = activeLow
        for line in lines.lines {
            let on = line == .directionSwitch && switchPosition == .up
            closed[line] = on
            lines.connect(line, high: drive(closed: on))
        }
    }

    /// Whether `line`'s contact is closed: a button held, the switch Up.
    public func isActive(_ line: InputLine) -> Bool { closed[line] ?? false }
    public var switchPosition: SwitchPosition { isActive(.directionSwitch) ? .up : .down }

    /// Close (`active`) or open `line`'s contact at `t`; no change, no edge.
    public func set(_ line: InputLine, active: Bool, at t: Instant) {
        guard closed[line] != active else { return }
        closed[line] = active
        lines.drive(line, high: drive(closed: active), at: t)
    }

    public func press(_ b: Button, at t: Instant) { set(.button(b), active: true, at: t) }
    public func release(_ b: Button, at t: Instant) { set(.button(b), active: false, at: t) }
    public func setSwitch(_ position: SwitchPosition, at t: Instant) { set(.directionSwitch, active: position == .up, at: t) }

    /// What the contact puts on its line: the active level when closed;
    /// open, nothing, or the external resistor where no pull is configured.
    private func drive(closed: Bool) -> Bool? {
        if closed { return !activeLow }
        switch lines.bias {
        case .pullUp, .pullDown: return nil
        case .disabled, .asIs: return activeLow
        }
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

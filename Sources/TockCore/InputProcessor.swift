/// Everything between raw edges and the state machine: a debouncer per
/// line, a gesture recogniser per button.
public struct InputProcessor: Equatable, Sendable {
    public enum Occurrence: Equatable, Sendable {
        case action(ButtonAction)
        case switched(SwitchPosition)
    }

    public var settings: InputSettings
    private var lines: [InputLine: Debouncer]
    private var gestures: [Button: ButtonGesture]

    public init(settings: InputSettings, switchPosition: SwitchPosition) {
        self.settings = settings
        var lines: [InputLine: Debouncer] = [:]
        for b in Button.allCases { lines[.button(b)] = Debouncer(period: settings.debounce, level: false) }
        lines[.directionSwitch] = Debouncer(period: settings.debounce, level: switchPosition == .up)
        self.lines = lines
        self.gestures = Dictionary(uniqueKeysWithValues: Button.allCases.map { ($0, ButtonGesture(button: $0)) })
    }

    /// The debounced switch position.
    public var switchPosition: SwitchPosition { lines[.directionSwitch]!.settled ? .up : .down }

    public func isHeld(_ b: Button) -> Bool { gestures[b]!.isHeld }

    /// A raw edge: `active` is pressed for a button, Up for the switch.
    public mutating func edge(_ line: InputLine, active: Bool, at t: Instant) {
        lines[line]!.edge(to: active, at: t)
    }

    /// The earliest instant something is due.
    public var deadline: Instant? {
        let d = lines.values.compactMap(\.deadline) + gestures.values.compactMap { $0.deadline(settings: settings) }
        return d.min()
    }

    /// Process the earliest item due at or before `now`, asking `style` how
    /// a button acts in the machine's current state when it goes down.
    /// Returns what happened, each dated with its own instant; call again
    /// until `deadline` is past `now`.
    public mutating func fireNext(at now: Instant, style: (Button) -> PressStyle) -> [(Occurrence, Instant)] {
        guard let due = deadline, due <= now else { return [] }
        // Settled edges first, in line order, then held-button deadlines.
        for line in InputLine.all {
            guard let d = lines[line]!.deadline, d == due, let change = lines[line]!.settle(at: due) else { continue }
            switch line {
            case .directionSwitch:
                return [(.switched(change.level ? .up : .down), change.since)]
            case .button(let b):
                let fired = change.level
                    ? gestures[b]!.pressed(at: change.since, style: style(b), settings: settings)
                    : gestures[b]!.released(at: change.since)
                return fired.map { (.action($0.0), $0.1) }
            }
        }
        for b in Button.allCases {
            guard let d = gestures[b]!.deadline(settings: settings), d == due else { continue }
            return gestures[b]!.fire(at: due, settings: settings).map { (.action($0.0), $0.1) }
        }
        return []
    }
}

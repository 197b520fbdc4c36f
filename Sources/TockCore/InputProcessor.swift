/// Everything between raw edges and the state machine: a debouncer per
/// line, a gesture recogniser per button.
public struct InputProcessor: Equatable, Sendable {
    public enum Occurrence: Equatable, Sendable {
        case action(ButtonAction)
        case switched(SwitchPosition)
    }

    public var settings: InputSettings
    // Arrays at the lines' and buttons' places (`index`), not dictionaries:
    // no hashing on each input, and at start-up no first look by the
    // runtime for `Button: Hashable` (a quarter of a million instructions).
    private var lines: [Debouncer]
    private var gestures: [ButtonGesture]

    public init(settings: InputSettings, switchPosition: SwitchPosition) {
        self.settings = settings
        lines = InputLine.all.map { Debouncer(period: settings.debounce, level: $0 == .directionSwitch && switchPosition == .up) }
        self.switchPosition = switchPosition
        self.gestures = Button.allCases.map { ButtonGesture(button: $0) }
    }

    /// The debounced switch position (kept beside its debouncer: read after every batch).
    public private(set) var switchPosition: SwitchPosition

    public func isHeld(_ b: Button) -> Bool { gestures[b.index].isHeld }

    /// The switch set from outside (the control socket, the web page): it
    /// counts as if the lever had moved there and settled. The lever is a
    /// level, not an edge, so its next change of position wins: a move to
    /// where the switch already is changes nothing, a move away takes over.
    public mutating func setSwitch(_ position: SwitchPosition) {
        lines[InputLine.directionSwitch.index].force(position == .up)
        switchPosition = lines[InputLine.directionSwitch.index].settled ? .up : .down
    }

    /// A raw edge: `active` is pressed for a button, Up for the switch.
    public mutating func edge(_ line: InputLine, active: Bool, at t: Instant) {
        lines[line.index].edge(to: active, at: t)
    }

    /// The earliest instant something is due.
    public var deadline: Instant? {
        var earliest: Instant?
        for l in lines { earliest = Instant.earliest(earliest, l.deadline) }
        for g in gestures { earliest = Instant.earliest(earliest, g.deadline(settings: settings)) }
        return earliest
    }

    /// Process the earliest item due at or before `now`, asking `style` how
    /// a button acts in the machine's current state when it goes down.
    /// Returns what happened, each dated with its own instant; call again
    /// until `deadline` is past `now`.
    public mutating func fireNext(at now: Instant, style: (Button) -> PressStyle) -> [(Occurrence, Instant)] {
        guard let due = deadline, due <= now else { return [] }
        // Settled edges first, in line order, then held-button deadlines.
        for line in InputLine.all {
            guard let d = lines[line.index].deadline, d == due, let change = lines[line.index].settle(at: due) else { continue }
            switch line {
            case .directionSwitch:
                switchPosition = change.level ? .up : .down
                return [(.switched(switchPosition), change.since)]
            case .button(let b):
                let fired = change.level
                    ? gestures[b.index].pressed(at: change.since, style: style(b), settings: settings)
                    : gestures[b.index].released(at: change.since)
                return fired.map { (.action($0.0), $0.1) }
            }
        }
        for b in Button.allCases {
            guard let d = gestures[b.index].deadline(settings: settings), d == due else { continue }
            return gestures[b.index].fire(at: due, settings: settings).map { (.action($0.0), $0.1) }
        }
        return []
    }
}

// MARK: - One line's debouncer

/// Debounces one input line from its edge timestamps.
///
/// A change of level counts once the raw level has held for `period` since
/// its last edge; a pulse shorter than that is noise. Mechanical contacts
/// chatter for 1-20 ms (SPEC), so however many edges one press makes, it
/// settles exactly once. The settled change is dated at the first edge of
/// the run (the moment the contact first moved), not at the moment it was
/// recognised, so counts start from when the person pressed.
public struct Debouncer: Equatable, Sendable {
    public let period: Duration
    /// The level everyone else sees.
    public private(set) var settled: Bool
    /// The level on the wire right now.
    public private(set) var raw: Bool
    private var lastEdge: Instant = .zero
    /// First edge of the run that moved `raw` away from `settled`.
    private var runStart: Instant? = nil
    /// When `raw` last returned to `settled` (a chatter gap, if short).
    private var returnedAt: Instant? = nil

    public init(period: Duration, level: Bool) {
        self.period = period
        self.settled = level
        self.raw = level
    }

    /// Record an edge. Edges that do not change the level (a duplicate
    /// report) are ignored.
    public mutating func edge(to level: Bool, at t: Instant) {
        guard level != raw else { return }
        raw = level
        lastEdge = t
        if raw == settled {
            returnedAt = t
        } else {
            // A departure soon after a brief return is the same press
            // chattering: keep dating it from the first edge.
            if let back = returnedAt, runStart != nil, t - back < period {
                // keep runStart
            } else {
                runStart = t
            }
            returnedAt = nil
        }
    }

    /// Take `level` as settled and on the wire, dropping a change pending.
    public mutating func force(_ level: Bool) {
        settled = level
        raw = level
        runStart = nil
        returnedAt = nil
    }

    /// When the pending change settles, if one is pending.
    public var deadline: Instant? { raw != settled ? lastEdge + period : nil }

    /// Settle the pending change if its deadline has come. Returns the new
    /// level and the instant the change began.
    public mutating func settle(at now: Instant) -> (level: Bool, since: Instant)? {
        guard let d = deadline, now >= d else { return nil }
        settled = raw
        let since = runStart ?? lastEdge
        runStart = nil
        returnedAt = nil
        return (settled, since)
    }
}

// MARK: - One button's gestures

/// Turns one debounced button's presses and releases into actions:
/// short press, long press and hold-to-repeat with acceleration.
public struct ButtonGesture: Equatable, Sendable {
    public let button: Button
    private var style: PressStyle = .onPress
    private var pressedAt: Instant? = nil
    private var longFired = false
    private var nextRepeat: Instant? = nil
    private var repeats = 0

    public init(button: Button) { self.button = button }

    public var isHeld: Bool { pressedAt != nil }

    /// The button went down at `t`; `style` is how it acts in the state the
    /// machine is in now.
    public mutating func pressed(at t: Instant, style: PressStyle, settings: InputSettings) -> [(ButtonAction, Instant)] {
        self.style = style
        pressedAt = t
        longFired = false
        repeats = 0
        nextRepeat = nil
        switch style {
        case .onPress:
            return [(.pressed(button), t)]
        case .repeating:
            nextRepeat = t + settings.repeatDelay
            return [(.pressed(button), t)]
        case .shortOrLong:
            return []
        }
    }

    /// The button came up at `t`.
    public mutating func released(at t: Instant) -> [(ButtonAction, Instant)] {
        defer { pressedAt = nil; nextRepeat = nil }
        if style == .shortOrLong, pressedAt != nil, !longFired {
            return [(.pressed(button), t)]
        }
        return []
    }

    /// The next instant this gesture has something to do while held.
    public func deadline(settings: InputSettings) -> Instant? {
        guard let p = pressedAt else { return nil }
        switch style {
        case .onPress: return nil
        case .shortOrLong: return longFired ? nil : p + settings.longPress
        case .repeating: return nextRepeat
        }
    }

    /// Fire whatever is due at `now` (a long press, or one repeat).
    public mutating func fire(at now: Instant, settings: InputSettings) -> [(ButtonAction, Instant)] {
        guard let d = deadline(settings: settings), now >= d else { return [] }
        switch style {
        case .onPress:
            return []
        case .shortOrLong:
            longFired = true
            return [(.longPressed(button), d)]
        case .repeating:
            repeats += 1
            // Accelerate: the interval halves every 5 repeats, down to the
            // fastest rate.
            var step = settings.repeatInterval
            for _ in 0..<(repeats / 5) where step > settings.repeatFastest { step = step / 2 }
            if step < settings.repeatFastest { step = settings.repeatFastest }
            nextRepeat = d + step
            return [(.repeated(button), d)]
        }
    }
}

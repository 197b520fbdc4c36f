/// The mode's program, one case per kind, each case's payload the state
/// machine that does the work. Machine holds this, never an existential:
/// what a mode can do (presets, rounds) is what its case provides, read by
/// matching the case, and a switch over the cases is exhaustive, so a new
/// mode is a compile error in every place that must handle it.
///
/// Adding a mode touches: `Settings.Mode` (its name) and `Kind.init` below
/// (which program runs it); a mode with a program of its own adds a case
/// here with its program type (`TimerProgram`), a `Kind`, and its saved
/// case (`Program.Saved`, ProgramSaved.swift) with the state file's and the
/// group message's spelling of it (`CountJSON`, TockShell): each a switch
/// the compiler holds to every case.
public enum Program: TimerProgram {
    /// The timer and the stopwatch (presets, a direction).
    case count(CountTimer)
    /// A countdown to a calendar instant.
    case calendar(CalendarCountdown)
    /// An interval program (rounds, rest, named programs).
    case interval(IntervalProgram)

    /// Which program runs a mode: the one place a mode is given its
    /// program (the program, its saved case and the edges that list the
    /// modes with presets all read it).
    public enum Kind: Sendable, Equatable {
        case count, calendar, interval

        public init(_ mode: Settings.Mode) {
            switch mode {
            case .timer, .stopwatch: self = .count
            case .countdown: self = .calendar
            case .interval: self = .interval
            }
        }
    }

    /// The program `settings.mode` asks for, in its first state.
    public init(settings: Settings, switchPosition: SwitchPosition, at now: Now) {
        switch Kind(settings.mode) {
        case .count: self = .count(CountTimer(settings: settings, switchPosition: switchPosition))
        case .calendar: self = .calendar(CalendarCountdown(target: settings.countdownUntil ?? now.wall, alarm: settings.alarm, at: now))
        case .interval: self = .interval(IntervalProgram(program: settings.interval, alarm: settings.alarm))
        }
    }

    /// The modes the count program runs: those with presets and a direction.
    public static var countModes: [Settings.Mode] { Settings.Mode.allCases.filter { Kind($0) == .count } }

    /// The timer, in the modes that have presets and a direction.
    @inline(__always) public var countTimer: CountTimer? {
        if case .count(let t) = self { t } else { nil }
    }

    /// The interval program, in interval mode.
    @inline(__always) public var intervalProgram: IntervalProgram? {
        if case .interval(let p) = self { p } else { nil }
    }

    @inline(__always) public var stateName: StateName {
        switch self {
        case .count(let p): p.stateName
        case .calendar(let p): p.stateName
        case .interval(let p): p.stateName
        }
    }

    @inline(__always) public var ringingSince: Instant? {
        switch self {
        case .count(let p): p.ringingSince
        case .calendar(let p): p.ringingSince
        case .interval(let p): p.ringingSince
        }
    }

    @inline(__always) public func resting(at now: Now) -> Bool {
        switch self {
        case .count(let p): p.resting(at: now)
        case .calendar(let p): p.resting(at: now)
        case .interval(let p): p.resting(at: now)
        }
    }

    /// What a program in progress shows; nil when it is idle. One look at
    /// the case for both questions: each `switch` copies the program out.
    @inline(__always) public func presentationInProgress(at now: Now) -> Presentation? {
        switch self {
        case .count(let p): p.isIdle ? nil : p.presentation(at: now)
        case .calendar(let p): p.isIdle ? nil : p.presentation(at: now)
        case .interval(let p): p.isIdle ? nil : p.presentation(at: now)
        }
    }

    @inline(__always) public var isIdle: Bool {
        switch self {
        case .count(let p): p.isIdle
        case .calendar(let p): p.isIdle
        case .interval(let p): p.isIdle
        }
    }

    @inline(__always) public func pressStyle(_ button: Button) -> PressStyle {
        switch self {
        case .count(let p): p.pressStyle(button)
        case .calendar(let p): p.pressStyle(button)
        case .interval(let p): p.pressStyle(button)
        }
    }

    @inline(__always) public func nextDeadline(at now: Now) -> Deadline? {
        switch self {
        case .count(let p): p.nextDeadline(at: now)
        case .calendar(let p): p.nextDeadline(at: now)
        case .interval(let p): p.nextDeadline(at: now)
        }
    }

    @inline(__always) public func presentation(at now: Now) -> Presentation {
        switch self {
        case .count(let p): p.presentation(at: now)
        case .calendar(let p): p.presentation(at: now)
        case .interval(let p): p.presentation(at: now)
        }
    }

    @inline(__always) public func progress(at now: Now) -> Progress {
        switch self {
        case .count(let p): p.progress(at: now)
        case .calendar(let p): p.progress(at: now)
        case .interval(let p): p.progress(at: now)
        }
    }

    @inline(__always) public func round(at now: Now) -> RoundReport? {
        switch self {
        case .count(let p): p.round(at: now)
        case .calendar(let p): p.round(at: now)
        case .interval(let p): p.round(at: now)
        }
    }

    @inline(__always) public mutating func handle(_ action: ButtonAction, at now: Now) -> [Buzzer.Signal] {
        switch self {
        case .count(var p):
            defer { self = .count(p) }
            return p.handle(action, at: now)
        case .calendar(var p):
            defer { self = .calendar(p) }
            return p.handle(action, at: now)
        case .interval(var p):
            defer { self = .interval(p) }
            return p.handle(action, at: now)
        }
    }

    @inline(__always) public mutating func switched(to position: SwitchPosition, at now: Now) -> [Buzzer.Signal] {
        switch self {
        case .count(var p):
            defer { self = .count(p) }
            return p.switched(to: position, at: now)
        case .calendar(var p):
            defer { self = .calendar(p) }
            return p.switched(to: position, at: now)
        case .interval(var p):
            defer { self = .interval(p) }
            return p.switched(to: position, at: now)
        }
    }

    @inline(__always) public mutating func noteSwitch(_ position: SwitchPosition) {
        switch self {
        case .count(var p):
            p.noteSwitch(position)
            self = .count(p)
        case .calendar(var p):
            p.noteSwitch(position)
            self = .calendar(p)
        case .interval(var p):
            p.noteSwitch(position)
            self = .interval(p)
        }
    }

    @inline(__always) public mutating func advance(to now: Now) -> [(Buzzer.Signal, Instant)] {
        switch self {
        case .count(var p):
            defer { self = .count(p) }
            return p.advance(to: now)
        case .calendar(var p):
            defer { self = .calendar(p) }
            return p.advance(to: now)
        case .interval(var p):
            defer { self = .interval(p) }
            return p.advance(to: now)
        }
    }

    @inline(__always) public mutating func clockStepped(at now: Now) -> [(Buzzer.Signal, Instant)] {
        switch self {
        case .count(var p):
            defer { self = .count(p) }
            return p.clockStepped(at: now)
        case .calendar(var p):
            defer { self = .calendar(p) }
            return p.clockStepped(at: now)
        case .interval(var p):
            defer { self = .interval(p) }
            return p.clockStepped(at: now)
        }
    }
}

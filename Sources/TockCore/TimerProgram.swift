/// The state names the appliance reports (trace, status, LEDs).
public enum StateName: String, Sendable, CaseIterable {
    case ready, running, paused, ringing, done, editing, over
}

/// A deadline on one of the two clocks.
public enum Deadline: Equatable, Sendable {
    case monotonic(Instant)
    case wall(WallTime)

    /// The monotonic instant this deadline falls on, seen from `now`.
    public func instant(from now: Now) -> Instant {
        switch self {
        case .monotonic(let t): t
        case .wall(let w): now.monotonic(at: w)
        }
    }
}

/// One of the appliance's modes as a pure state machine. Events say what
/// happened; each returns the one-shot sounds it raises, dated. Time comes
/// in as a parameter and is never read.
public protocol TimerProgram: Sendable, Equatable {
    var stateName: StateName { get }
    /// The instant ringing began, while ringing.
    var ringingSince: Instant? { get }
    /// Whether the program is in a rest phase (interval programs).
    func resting(at now: Now) -> Bool
    /// Nothing is counting or sounding: the panel may show the idle clock.
    var isIdle: Bool { get }

    /// How a button acts in the current state.
    func pressStyle(_ button: Button) -> PressStyle
    mutating func handle(_ action: ButtonAction, at now: Now) -> [Buzzer.Signal]
    mutating func switched(to position: SwitchPosition, at now: Now) -> [Buzzer.Signal]
    /// The switch moved while something else had the panel (the idle clock,
    /// a daily alarm): remember where it is, change nothing now.
    mutating func noteSwitch(_ position: SwitchPosition)

    /// The next instant something happens by itself (an end, a phase
    /// change, a warning beep, auto-silence).
    func nextDeadline(at now: Now) -> Deadline?
    /// Apply everything due at or before `now`, each at its own instant.
    mutating func advance(to now: Now) -> [(Buzzer.Signal, Instant)]
    /// The wall clock was stepped (NTP sync, manual change).
    mutating func clockStepped(at now: Now) -> [(Buzzer.Signal, Instant)]

    func presentation(at now: Now) -> Presentation
    /// How far it has come (for the status and the MQTT link).
    func progress(at now: Now) -> Progress
    /// A named program's round (and set), for the trace and the links.
    func round(at now: Now) -> RoundReport?

    // What each program remembers across a restart is its own typed case
    // (`saved(at:)` and `restore`, ProgramSaved.swift), not a requirement
    // here: a case carries only its program's fields.
}

extension TimerProgram {
    public func resting(at now: Now) -> Bool { false }
    public func round(at now: Now) -> RoundReport? { nil }
    public mutating func noteSwitch(_ position: SwitchPosition) {}

    public var isIdle: Bool { stateName == .ready || stateName == .done }
    public mutating func clockStepped(at now: Now) -> [(Buzzer.Signal, Instant)] { advance(to: now) }
}

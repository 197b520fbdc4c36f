/// An interval program (`interval` mode): work and rest phases for a number
/// of rounds (work, rest, work, ... work: no rest after the last round), or
/// one of the named programs of `interval.programs` (Tabata, intervals in
/// sets, EMOM, AMRAP, For Time), cycled with Reset in ready.
///
/// Start runs it, Stop pauses, Start resumes, Reset while paused returns to
/// round 1. The phase is derived from the elapsed time, so a late wake-up
/// can never skip or repeat one. A short beep marks each phase change (a
/// named program's work and rest sound differently); the alarm rings at
/// the end.
public struct IntervalProgram: TimerProgram, Equatable {
    public struct Phase: Equatable, Sendable {
        public var round: Int      // 1-based
        public var resting: Bool
        public var left: Duration  // time left in this phase
        /// Elapsed time at which this phase ends.
        public var endsAt: Duration
        public var set: Int = 1
    }

    /// Something shown for a moment over the count, until its deadline: the
    /// program's name when it is selected, the round on demand.
    public enum Notice: Equatable, Sendable {
        case name
        case round
    }

    public internal(set) var lifecycle: Lifecycle<Run>
    public let program: IntervalSettings
    public let alarm: AlarmSettings
    /// The plan of each program (one, unnamed, without `interval.programs`).
    let plans: [ProgramPlan]
    /// The program selected (an index into `program.programs`).
    public internal(set) var selected = 0
    public internal(set) var notice: (kind: Notice, until: Instant)?
    /// AMRAP: rounds finished (Start presses while running).
    public internal(set) var roundsCounted = 0
    /// For Time: the time Stop recorded.
    public internal(set) var finish: Duration?

    /// How long a notice stays; a new round shows this long at its start.
    static let nameFor: Duration = .seconds(2)
    static let roundFor: Duration = .seconds(1)

    public init(program: IntervalSettings, alarm: AlarmSettings) {
        precondition(program.rounds >= 1 && program.work > .zero && program.rest >= .zero, "a valid interval program")
        self.program = program
        self.alarm = alarm
        lifecycle = Lifecycle(ringFor: alarm.ringFor, leadIn: program.leadIn)
        plans = program.programs.isEmpty
            ? [ProgramPlan(.intervals(work: program.work, rest: program.rest, rounds: program.rounds, sets: 1, setRest: .zero))]
            : program.programs.map { ProgramPlan($0.kind) }
    }

    /// What is remembered: a notice on the display is not (it changes no
    /// state worth writing to the state file).
    public static func == (a: Self, b: Self) -> Bool {
        a.lifecycle == b.lifecycle && a.program == b.program && a.alarm == b.alarm && a.selected == b.selected
            && a.roundsCounted == b.roundsCounted && a.finish == b.finish
    }

    /// Programs from `interval.programs` (named, with round reports).
    public var named: Bool { !program.programs.isEmpty }
    public var plan: ProgramPlan { plans[selected] }
    public var current: NamedProgram? { named ? program.programs[selected] : nil }
    public var total: Duration { plan.total }

    /// The phase at an elapsed time before the end.
    public func phase(atElapsed e: Duration) -> Phase {
        let e = max(e, .zero)  // (a lead-in shows its own count)
        let s = plan.segment(atElapsed: e)
        return Phase(round: plan.isAmrap ? roundsCounted + 1 : s.round, resting: s.resting, left: s.end - e, endsAt: s.end, set: s.set)
    }

    public var stateName: StateName { lifecycle.stateName }

    public var ringingSince: Instant? { lifecycle.ringingSince }

    /// Whether the program is resting at `now` (for the `rest` LED).
    public func resting(at now: Now) -> Bool {
        switch lifecycle.state {
        case .running(let run): phase(atElapsed: run.elapsed(at: now.monotonic)).resting
        case .paused(let e, _): phase(atElapsed: e).resting
        default: false
        }
    }

    /// The elapsed time of the count (zero in ready, the end once over).
    func elapsed(at t: Instant) -> Duration {
        switch lifecycle.state {
        case .running(let run): min(run.elapsed(at: t), total)
        case .paused(let e, _): e
        case .ringing: total
        case .done: finish ?? total
        case .ready: .zero
        }
    }

    public func pressStyle(_ button: Button) -> PressStyle { .onPress }

    public mutating func handle(_ action: ButtonAction, at now: Now) -> [Buzzer.Signal] {
        let t = now.monotonic
        if named {
            switch (lifecycle.state, action) {
            case (.ready, .pressed(.reset)):
                select((selected + 1) % plans.count, at: t)
                return []
            case (.running(let run), .pressed(.start)) where run.elapsed(at: t) >= .zero:
                if plan.isAmrap { roundsCounted += 1 }
                notice = (.round, t + Self.roundFor)
                return []
            case (.running(let run), .pressed(.stop)) where plan.countsUp && run.elapsed(at: t) >= .zero:
                finish = run.elapsed(at: t)
                lifecycle.state = .done
                notice = nil
                return []
            case (.paused, .pressed(.stop)):
                notice = (.round, t + Self.roundFor)
                return []
            default: break
            }
        }
        guard lifecycle.press(action, at: t) else { return alarm.chirp ? [.no] : [] }
        if lifecycle.state == .ready {
            roundsCounted = 0
            finish = nil
        }
        if case .running = lifecycle.state { notice = nil }
        return []
    }

    /// Select program `index` and show its name (back to ready).
    mutating func select(_ index: Int, at t: Instant) {
        selected = index
        lifecycle.state = .ready
        roundsCounted = 0
        finish = nil
        notice = (.name, t + Self.nameFor)
    }

    /// The fleet group's change was taken: show what the press would have
    /// shown here (a program's name, an AMRAP's new round).
    mutating func adopted(from before: IntervalProgram, at t: Instant) {
        if selected != before.selected, lifecycle.state == .ready { notice = (.name, t + Self.nameFor) }
        if roundsCounted > before.roundsCounted { notice = (.round, t + Self.roundFor) }
    }

    public mutating func switched(to position: SwitchPosition, at now: Now) -> [Buzzer.Signal] {
        lifecycle.silence()
        return []
    }

    /// The round (and set) shown at its start: the segment `e` is in, when
    /// it is the first of a new round past the first.
    func roundStart(atElapsed e: Duration) -> ProgramSegment? {
        guard named, !plan.isAmrap, e >= .zero, e < total else { return nil }
        let s = plan.segment(atElapsed: e)
        guard !s.resting, s.start > .zero, e - s.start < Self.roundFor else { return nil }
        return s
    }

    public func nextDeadline(at now: Now) -> Deadline? {
        let t = now.monotonic
        let noticeEnds = notice.map(\.until).flatMap { $0 > t ? $0 : nil }
        guard case .running(let run) = lifecycle.state else {
            return [lifecycle.silenceDue?.instant(from: now), noticeEnds].compactMap { $0 }.min().map(Deadline.monotonic)
        }
        if let lead = lifecycle.nextLeadInEvent(of: run, after: t) {
            return .monotonic([lead, noticeEnds].compactMap { $0 }.min()!)
        }
        let e = run.elapsed(at: t)
        let end = e >= total ? total : phase(atElapsed: e).endsAt
        let roundShown = roundStart(atElapsed: e).map { run.instant(whenElapsed: $0.start + Self.roundFor) }
        return .monotonic([run.instant(whenElapsed: end), noticeEnds, roundShown].compactMap { $0 }.min()!)
    }

    public mutating func advance(to now: Now) -> [(Buzzer.Signal, Instant)] {
        var signals: [(Buzzer.Signal, Instant)] = []
        if let n = notice, n.until <= now.monotonic { notice = nil }
        if case .running(let run) = lifecycle.state, let s = lifecycle.leadInSignal(of: run, at: now.monotonic, start: false) {
            signals.append(s)
        }
        if case .running(let run) = lifecycle.state, run.elapsed(at: now.monotonic) >= .zero, run.elapsed(at: now.monotonic) < total {
            // The phase that began most recently, if it began just now.
            let s = plan.segment(atElapsed: run.elapsed(at: now.monotonic))
            let beganAt = run.instant(whenElapsed: s.start)
            let signal: Buzzer.Signal = named ? (s.resting ? .rest : .work) : .phase
            // Only a boundary crossed while running (not the one a resume
            // started in), and only while its beep would still sound.
            // A named program sounds its start too.
            let started = s.start > run.before || (named && s.start == .zero && run.before == .zero)
            if started, now.monotonic - beganAt < alarm.pattern(signal).length {
                signals.append((signal, beganAt))
            }
        }
        let total = total
        lifecycle.advance(to: now.monotonic) { $0.instant(whenElapsed: total) }
        return signals
    }

    /// The round (and set, when the program has sets) now, for the status,
    /// the trace and the MQTT link; nil for the unnamed program.
    public func round(at now: Now) -> RoundReport? {
        guard named else { return nil }
        let p = phase(atElapsed: elapsed(at: now.monotonic))
        return RoundReport(round: p.round, set: plan.sets > 1 ? p.set : nil)
    }

    /// Time elapsed, and left (for the status).
    public func progress(at now: Now) -> Progress {
        let elapsed = max(elapsed(at: now.monotonic), .zero)
        var p = Progress(elapsed: elapsed, remaining: plan.countsUp ? nil : total - elapsed, leadIn: lifecycle.leadInLeft(at: now.monotonic))
        p.round = round(at: now)
        p.program = current?.name
        p.finish = finish
        return p
    }
}

/// The round (and set) a program is in.
public struct RoundReport: Equatable, Sendable {
    public var round: Int
    public var set: Int?
    public init(round: Int, set: Int? = nil) {
        self.round = round
        self.set = set
    }
}

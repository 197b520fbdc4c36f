/// An interval program (`interval` mode): work and rest phases for a number
/// of rounds (work, rest, work, ... work: no rest after the last round).
///
/// Start runs it, Stop pauses, Start resumes, Reset while paused returns to
/// round 1. The phase is derived from the elapsed time, so a late wake-up
/// can never skip or repeat one. A short beep marks each phase change; the
/// alarm rings at the end.
public struct IntervalProgram: TimerProgram, Equatable {
    public struct Phase: Equatable, Sendable {
        public var round: Int      // 1-based
        public var resting: Bool
        public var left: Duration  // time left in this phase
        /// Elapsed time at which this phase ends.
        public var endsAt: Duration
    }

    public internal(set) var lifecycle: Lifecycle<Run>
    public let program: IntervalSettings
    public let alarm: AlarmSettings

    public init(program: IntervalSettings, alarm: AlarmSettings) {
        precondition(program.rounds >= 1 && program.work > .zero && program.rest >= .zero, "a valid interval program")
        self.program = program
        self.alarm = alarm
        lifecycle = Lifecycle(ringFor: alarm.ringFor, leadIn: program.leadIn)
    }

    public var total: Duration { program.work * program.rounds + program.rest * (program.rounds - 1) }

    /// The phase at an elapsed time before the end.
    public func phase(atElapsed e: Duration) -> Phase {
        let e = max(e, .zero)  // (a lead-in shows its own count)
        let cycle = program.work + program.rest
        let round = min(Int(e.nanoseconds / cycle.nanoseconds), program.rounds - 1)
        let start = cycle * round
        let within = e - start
        if within < program.work || round == program.rounds - 1 {
            return Phase(round: round + 1, resting: false, left: start + program.work - e, endsAt: start + program.work)
        }
        return Phase(round: round + 1, resting: true, left: start + cycle - e, endsAt: start + cycle)
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

    public func pressStyle(_ button: Button) -> PressStyle { .onPress }

    public mutating func handle(_ action: ButtonAction, at now: Now) -> [Buzzer.Signal] {
        guard lifecycle.press(action, at: now.monotonic) else { return alarm.chirp ? [.no] : [] }
        return []
    }

    public mutating func switched(to position: SwitchPosition, at now: Now) -> [Buzzer.Signal] {
        lifecycle.silence()
        return []
    }

    public func nextDeadline(at now: Now) -> Deadline? {
        guard case .running(let run) = lifecycle.state else { return lifecycle.silenceDue }
        if let lead = lifecycle.nextLeadInEvent(of: run, after: now.monotonic) { return .monotonic(lead) }
        let e = run.elapsed(at: now.monotonic)
        let end = e >= total ? total : phase(atElapsed: e).endsAt
        return .monotonic(run.instant(whenElapsed: end))
    }

    public mutating func advance(to now: Now) -> [(Buzzer.Signal, Instant)] {
        var signals: [(Buzzer.Signal, Instant)] = []
        if case .running(let run) = lifecycle.state, let s = lifecycle.leadInSignal(of: run, at: now.monotonic, start: false) {
            signals.append(s)
        }
        if case .running(let run) = lifecycle.state, run.elapsed(at: now.monotonic) >= .zero, run.elapsed(at: now.monotonic) < total {
            // The phase that began most recently, if it began just now.
            let p = phase(atElapsed: run.elapsed(at: now.monotonic))
            let began = p.endsAt - (p.resting ? program.rest : program.work)
            let beganAt = run.instant(whenElapsed: began)
            // Only a boundary crossed while running (not the one a resume
            // started in), and only while its beep would still sound.
            if began > run.before, now.monotonic - beganAt < BuzzerPattern.phase.length {
                signals.append((.phase, beganAt))
            }
        }
        let total = total
        lifecycle.advance(to: now.monotonic) { $0.instant(whenElapsed: total) }
        return signals
    }

    public func presentation(at now: Now) -> Presentation {
        lifecycle.presentation(at: now.monotonic, final: total) { e in
            let p = phase(atElapsed: min(e, total))
            return .interval(p.left, round: p.round, of: program.rounds, resting: p.resting)
        }
    }

    /// Time elapsed, and left (for the status).
    public func progress(at now: Now) -> Progress {
        let elapsed: Duration
        switch lifecycle.state {
        case .running(let run): elapsed = min(max(run.elapsed(at: now.monotonic), .zero), total)
        case .paused(let e, _): elapsed = max(e, .zero)
        case .ringing, .done: elapsed = total
        case .ready: elapsed = .zero
        }
        return Progress(elapsed: elapsed, remaining: total - elapsed, leadIn: lifecycle.leadInLeft(at: now.monotonic))
    }
}

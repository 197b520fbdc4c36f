/// An interval program (`interval` mode): work and rest phases for a number
/// of rounds (work, rest, work, ... work: no rest after the last round).
///
/// Start runs it, Stop pauses, Start resumes, Reset while paused returns to
/// round 1. The phase is derived from the elapsed time, so a late wake-up
/// can never skip or repeat one. A short beep marks each phase change; the
/// alarm rings at the end.
public struct IntervalProgram: TimerProgram, Equatable {
    public enum State: Equatable, Sendable {
        case ready
        case running(Run)
        case paused(elapsed: Duration, at: Instant)
        case ringing(since: Instant)
        case done
    }

    public struct Phase: Equatable, Sendable {
        public var round: Int      // 1-based
        public var resting: Bool
        public var left: Duration  // time left in this phase
        /// Elapsed time at which this phase ends.
        public var endsAt: Duration
    }

    public internal(set) var state: State = .ready
    public let program: IntervalSettings
    public let alarm: AlarmSettings

    public init(program: IntervalSettings, alarm: AlarmSettings) {
        precondition(program.rounds >= 1 && program.work > .zero && program.rest >= .zero, "a valid interval program")
        self.program = program
        self.alarm = alarm
    }

    public var total: Duration { program.work * program.rounds + program.rest * (program.rounds - 1) }

    /// The phase at an elapsed time before the end.
    public func phase(atElapsed e: Duration) -> Phase {
        let cycle = program.work + program.rest
        let round = min(Int(e.nanoseconds / cycle.nanoseconds), program.rounds - 1)
        let start = cycle * round
        let within = e - start
        if within < program.work || round == program.rounds - 1 {
            return Phase(round: round + 1, resting: false, left: start + program.work - e, endsAt: start + program.work)
        }
        return Phase(round: round + 1, resting: true, left: start + cycle - e, endsAt: start + cycle)
    }

    public var stateName: StateName {
        switch state {
        case .ready: .ready
        case .running: .running
        case .paused: .paused
        case .ringing: .ringing
        case .done: .done
        }
    }

    public var ringingSince: Instant? {
        if case .ringing(let since) = state { return since }
        return nil
    }

    /// Whether the program is resting at `now` (for the `rest` LED).
    public func resting(at now: Now) -> Bool {
        switch state {
        case .running(let run): phase(atElapsed: run.elapsed(at: now.monotonic)).resting
        case .paused(let e, _): phase(atElapsed: e).resting
        default: false
        }
    }

    public func pressStyle(_ button: Button) -> PressStyle { .onPress }

    public mutating func handle(_ action: ButtonAction, at now: Now) -> [Buzzer.Signal] {
        let t = now.monotonic
        switch (state, action) {
        case (.ready, .pressed(.start)):
            state = .running(Run(since: t))
        case (.running(let run), .pressed(.stop)):
            state = .paused(elapsed: run.elapsed(at: t), at: t)
        case (.paused(let e, _), .pressed(.start)):
            state = .running(Run(since: t, before: e))
        case (.paused, .pressed(.reset)), (.ringing, .pressed(.reset)), (.done, .pressed(.reset)):
            state = .ready
        case (.ringing, .pressed(.start)), (.ringing, .pressed(.stop)):
            state = .done
        default:
            return alarm.chirp ? [.no] : []
        }
        return []
    }

    public mutating func switched(to position: SwitchPosition, at now: Now) -> [Buzzer.Signal] {
        if case .ringing = state { state = .done }
        return []
    }

    public func nextDeadline(at now: Now) -> Deadline? {
        switch state {
        case .running(let run):
            let e = run.elapsed(at: now.monotonic)
            let end = e >= total ? total : phase(atElapsed: e).endsAt
            return .monotonic(run.instant(whenElapsed: end))
        case .ringing(let since):
            return .monotonic(since + alarm.ringFor)
        default:
            return nil
        }
    }

    public mutating func advance(to now: Now) -> [(Buzzer.Signal, Instant)] {
        var signals: [(Buzzer.Signal, Instant)] = []
        if case .running(let run) = state {
            let e = run.elapsed(at: now.monotonic)
            if e >= total {
                state = .ringing(since: run.instant(whenElapsed: total))
            } else {
                // The phase that began most recently, if it began just now.
                let p = phase(atElapsed: e)
                let began = p.endsAt - (p.resting ? program.rest : program.work)
                let beganAt = run.instant(whenElapsed: began)
                // Only a boundary crossed while running (not the one a resume
                // started in), and only while its beep would still sound.
                if began > run.before, now.monotonic - beganAt < BuzzerPattern.phase.length {
                    signals.append((.phase, beganAt))
                }
            }
        }
        if case .ringing(let since) = state, since + alarm.ringFor <= now.monotonic {
            state = .done
        }
        return signals
    }

    public func presentation(at now: Now) -> Presentation {
        let t = now.monotonic
        func content(_ e: Duration) -> DisplayContent {
            let p = phase(atElapsed: min(e, total))
            return .interval(p.left, round: p.round, of: program.rounds, resting: p.resting)
        }
        switch state {
        case .ready: return Presentation(content(.zero))
        case .running(let run): return Presentation(content(run.elapsed(at: t)), motion: .monotonic)
        case .paused(let e, let at): return Presentation(content(e), blink: Blinks.paused(at))
        case .ringing(let since): return Presentation(content(total), blink: Blinks.ringing(since))
        case .done: return Presentation(content(total))
        }
    }
}

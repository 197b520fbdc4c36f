/// The life of a count, shared by every program: ready, running, paused,
/// ringing (silenced by a press or, after `ringFor`, by itself), done.
///
/// A program keeps only what is its own beside it: what a run counts and
/// where it ends (`Count`: a `Run` for the timers and the interval
/// program, the target instant for a countdown to a date), the presets,
/// the phases.
public struct Lifecycle<Count: Equatable & Sendable>: Equatable, Sendable {
    public enum State: Equatable, Sendable {
        case ready
        case running(Count)
        case paused(elapsed: Duration, at: Instant)
        case ringing(since: Instant)
        case done
    }

    public internal(set) var state: State
    /// Auto-silence: a ring ends by itself this long after it began.
    public let ringFor: Duration
    /// The get-ready count Start runs first (zero: none). A run carries it
    /// as a negative elapsed time, so the count proper starts exactly when
    /// the elapsed time reaches zero, derived like every other instant.
    public let leadIn: Duration

    public init(_ state: State = .ready, ringFor: Duration, leadIn: Duration = .zero) {
        self.state = state
        self.ringFor = ringFor
        self.leadIn = leadIn
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

    /// The instant ringing began, while ringing.
    public var ringingSince: Instant? {
        if case .ringing(let since) = state { return since }
        return nil
    }

    /// When a ring in progress silences itself.
    var silenceDue: Deadline? { ringingSince.map { .monotonic($0 + ringFor) } }

    mutating func ring(from t: Instant) { state = .ringing(since: t) }

    /// A press or a flip while ringing: silence it (done). Whether it rang.
    @discardableResult
    mutating func silence() -> Bool {
        guard case .ringing = state else { return false }
        state = .done
        return true
    }

    /// Auto-silence, when its time has come by `t`.
    mutating func silenceIfDue(at t: Instant) {
        if let since = ringingSince, since + ringFor <= t { state = .done }
    }

    /// The ring a snapshot remembers, continued on this boot's clock.
    mutating func restoreRing(since wall: Int64, at now: Now) {
        ring(from: ringStart(now.instant(ofWall: wall), now))
    }

    func ringStart(_ t: Instant, _ now: Now) -> Instant { Snapshot.ringStart(t, now: now, ringFor: ringFor) }
}

/// A count that runs, pauses and resumes: the timers and the interval program.
extension Lifecycle where Count == Run {
    /// What the buttons do to the life of a count, the same in every
    /// counting program: Start runs and resumes, Stop pauses, Start or
    /// Stop silences, Reset returns to ready from paused, ringing or done.
    /// False when the press means nothing here (the program may take it).
    mutating func press(_ action: ButtonAction, at t: Instant) -> Bool {
        switch (state, action) {
        case (.ready, .pressed(.start)):
            state = .running(Run(since: t, before: .zero - leadIn))
        case (.running(let run), .pressed(.stop)):
            state = .paused(elapsed: run.elapsed(at: t), at: t)
        case (.paused(let e, _), .pressed(.start)):
            state = .running(Run(since: t, before: e))
        case (.paused, .pressed(.reset)), (.ringing, .pressed(.reset)), (.done, .pressed(.reset)):
            state = .ready
        case (.ringing, .pressed(.start)), (.ringing, .pressed(.stop)):
            state = .done
        default:
            return false
        }
        return true
    }

    /// A running count reaches its end (when it has one) by `t`, and a ring
    /// silences itself, each at its own instant.
    mutating func advance(to t: Instant, end: (Run) -> Instant?) {
        if case .running(let run) = state, let e = end(run), e <= t { ring(from: e) }
        silenceIfDue(at: t)
    }

    /// The display for each state, given how a count shows an elapsed time
    /// and where it ends. Inlined, so that the caller's `content` needs no
    /// context: passed to a call, it took a copy of the whole count each
    /// wake-up (`make bench-tick`).
    @inline(__always)
    func presentation(at t: Instant, final: Duration, _ content: (Duration) -> DisplayContent) -> Presentation {
        switch state {
        case .running(let run) where run.elapsed(at: t) < .zero:
            return Presentation(.leadIn(.zero - run.elapsed(at: t)), motion: .monotonic)
        case .paused(let e, let at) where e < .zero: return Presentation(.leadIn(.zero - e), blink: Blinks.paused(at))
        default: break
        }
        return switch state {
        case .ready: Presentation(content(.zero))
        case .running(let run): Presentation(content(run.elapsed(at: t)), motion: .monotonic)
        case .paused(let e, let at): Presentation(content(e), blink: Blinks.paused(at))
        case .ringing(let since): Presentation(content(final), blink: Blinks.ringing(since))
        case .done: Presentation(content(final))
        }
    }

    /// The time left in the lead-in, while in it (running or paused).
    func leadInLeft(at t: Instant) -> Duration? {
        let e: Duration
        switch state {
        case .running(let run): e = run.elapsed(at: t)
        case .paused(let p, _): e = p
        default: return nil
        }
        return e < .zero ? .zero - e : nil
    }

    /// The lead-in's 3-2-1 beeps: elapsed times (before zero) at which one
    /// sounds, only those inside the lead-in.
    private var leadInBeeps: [Duration] {
        (1...3).map { Duration.seconds(-$0) }.filter { $0 >= .zero - leadIn && leadIn > .zero }
    }

    /// The next lead-in beep or the lead-in's end strictly after `t`.
    func nextLeadInEvent(of run: Run, after t: Instant) -> Instant? {
        guard run.elapsed(at: t) < .zero else { return nil }
        return (leadInBeeps + [.zero]).map { run.instant(whenElapsed: $0) }.filter { $0 > t }.min()
    }

    /// The last lead-in beep at or before `t` (not one a resume started
    /// at), while it still sounds; with `start`, the start sound at the
    /// lead-in's end too.
    func leadInSignal(of run: Run, at t: Instant, start: Bool) -> (Buzzer.Signal, Instant)? {
        // Every event is at an elapsed time of zero or less: a run that
        // began at or after zero has none (the common case, every tick).
        guard run.before < .zero else { return nil }
        var events = leadInBeeps.map { (Buzzer.Signal.warning, $0) }
        if start { events.append((.phase, .zero)) }
        guard let (signal, e) = events.filter({ $0.1 > run.before && run.instant(whenElapsed: $0.1) <= t }).max(by: { $0.1 < $1.1 })
        else { return nil }
        let at = run.instant(whenElapsed: e)
        return t - at < signal.pattern.length ? (signal, at) : nil
    }

    /// What a snapshot adds to the elapsed time so it is never negative:
    /// the lead-in (or more, for a run restored under a longer one).
    var storedLeadIn: Duration {
        switch state {
        case .running(let run): max(leadIn, .zero - run.before)
        case .paused(let e, _): max(leadIn, .zero - e)
        default: .zero
        }
    }

    /// The snapshot's phase: instants on the wall clock. A lead-in is
    /// counted in (see `Snapshot.leadIn`), so no stored time is negative.
    func phase(at now: Now) -> Snapshot.Phase {
        switch state {
        case .ready: .ready
        case .running(let run): .running(Run(since: run.since, before: run.before + storedLeadIn), at: now)
        case .paused(let e, _): .paused(elapsed: (e + storedLeadIn).nanoseconds)
        case .ringing(let since): .ringing(since: now.wall(of: since))
        case .done: .done
        }
    }

    /// Continue from a snapshot's phase as if the box had stayed on; a
    /// count whose end passed meanwhile rings at once (from its end, so
    /// auto-silence still counts from then; at least from now if it rang
    /// out unheard).
    mutating func restore(_ phase: Snapshot.Phase, leadIn: Duration = .zero, at now: Now, end: (Run) -> Instant?) {
        switch phase {
        case .ready, .over: state = .ready
        case .running:
            var run = phase.run(at: now)!
            run.before = run.before - leadIn
            state = .running(run)
            if let e = end(run), e <= now.monotonic { ring(from: ringStart(e, now)) }
        case .paused(let e): state = .paused(elapsed: .nanoseconds(e) - leadIn, at: now.monotonic)
        case .ringing(let since): restoreRing(since: since, at: now)
        case .done: state = .done
        }
    }
}

/// A run that can be paused and resumed: the elapsed time is derived from
/// the instant it (re)started and what had elapsed before, never summed
/// from ticks.
public struct Run: Equatable, Sendable {
    public var since: Instant
    public var before: Duration

    public init(since: Instant, before: Duration = .zero) {
        self.since = since
        self.before = before
    }

    public func elapsed(at t: Instant) -> Duration { before + (t - since) }
    /// The instant the elapsed time reaches `d`.
    public func instant(whenElapsed d: Duration) -> Instant { since + (d - before) }
}

/// Blink rates, chosen so each state reads differently at a glance.
enum Blinks {
    /// Paused: the whole display blinks slowly (1 Hz, half on).
    static func paused(_ t: Instant) -> Blink { Blink(anchor: t, on: .milliseconds(500), off: .milliseconds(500)) }
    /// Ringing: the final value flashes (2 Hz).
    static func ringing(_ t: Instant) -> Blink { Blink(anchor: t, on: .milliseconds(250), off: .milliseconds(250)) }
    /// Editing: mostly lit, with a short dark blink; restarts lit on each step.
    static func editing(_ t: Instant) -> Blink { Blink(anchor: t, on: .milliseconds(750), off: .milliseconds(250)) }
}

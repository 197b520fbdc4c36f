/// How far a program has come: time elapsed, and time left where it has an
/// end (for the control socket's status and the MQTT link).
public struct Progress: Equatable, Sendable {
    public var elapsed: Duration?
    public var remaining: Duration?
    /// Time left in a lead-in, while in one.
    public var leadIn: Duration? = nil
    /// How long a count-down is over, while its overrun counts.
    public var overrun: Duration? = nil
    /// A named program's round (and set), its name, and a For Time's finish.
    public var round: RoundReport? = nil
    public var program: String? = nil
    public var finish: Duration? = nil
    public init(elapsed: Duration? = nil, remaining: Duration? = nil, leadIn: Duration? = nil, overrun: Duration? = nil) {
        self.elapsed = elapsed
        self.remaining = remaining
        self.leadIn = leadIn
        self.overrun = overrun
    }
}

extension Machine {
    public func progress(at now: Now) -> Progress { program.progress(at: now) }
}

extension CountTimer {
    /// Time elapsed, and left where the count has an end (for the status).
    public func progress(at now: Now) -> Progress {
        let elapsed: Duration
        switch state {
        case .running(let run): elapsed = max(run.elapsed(at: now.monotonic), .zero)
        case .paused(let e, _): elapsed = max(e, .zero)
        case .ringing, .done: elapsed = target ?? .zero
        case .ready, .editing: elapsed = .zero
        }
        return Progress(elapsed: elapsed, remaining: target.map { max($0 - elapsed, .zero) }, leadIn: lifecycle.leadInLeft(at: now.monotonic),
                        overrun: overrunSince.map { now.monotonic - $0 })
    }
}

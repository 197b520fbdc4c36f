/// How far a program has come: time elapsed, and time left where it has an
/// end (for the control socket's status and the MQTT link).
public struct Progress: Equatable, Sendable {
    public var elapsed: Duration?
    public var remaining: Duration?
    public init(elapsed: Duration? = nil, remaining: Duration? = nil) {
        self.elapsed = elapsed
        self.remaining = remaining
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
        case .running(let run): elapsed = run.elapsed(at: now.monotonic)
        case .paused(let e, _): elapsed = e
        case .ringing, .done: elapsed = target ?? .zero
        case .ready, .editing: elapsed = .zero
        }
        return Progress(elapsed: elapsed, remaining: target.map { max($0 - elapsed, .zero) })
    }
}

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

extension Appliance {
    public func progress(at now: Now) -> Progress {
        switch program {
        case let timer as CountTimer:
            let elapsed: Duration
            switch timer.state {
            case .running(let run): elapsed = run.elapsed(at: now.monotonic)
            case .paused(let e, _): elapsed = e
            case .ringing, .done: elapsed = timer.target ?? .zero
            case .ready, .editing: elapsed = .zero
            }
            return Progress(elapsed: elapsed, remaining: timer.target.map { max($0 - elapsed, .zero) })
        case let interval as IntervalProgram:
            let elapsed: Duration
            switch interval.state {
            case .running(let run): elapsed = min(run.elapsed(at: now.monotonic), interval.total)
            case .paused(let e, _): elapsed = e
            case .ringing, .done: elapsed = interval.total
            case .ready: elapsed = .zero
            }
            return Progress(elapsed: elapsed, remaining: interval.total - elapsed)
        case let countdown as CalendarCountdown:
            return Progress(remaining: max(countdown.target - now.wall, .zero))
        default:
            return Progress()
        }
    }
}

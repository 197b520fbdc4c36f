import TockCore

/// When a STATUS line may go to systemd: at most one a second, and never
/// at the cost of a wake-up the appliance would not have made anyway.
///
/// A change within a second of the last message waits: for the core's
/// next wake-up when one is due within the following second (a count's
/// next tick, a blink), whose batch sends it; otherwise (the core idle)
/// for a timer at the end of that second. A count's tick that comes a few
/// microseconds short of a second after the last message (wake-up latency
/// varies) thus waits for the next tick instead of arming a timer for a
/// few microseconds later.
struct StatusPacer {
    enum Decision: Equatable {
        /// Build the text and send it if it differs.
        case send
        /// Nothing now: a batch or the armed timer will send it.
        case wait
        /// Arm the timer for this instant.
        case armTimer(Instant)
    }

    static let interval = Duration.seconds(1)
    private(set) var lastSent: Instant?
    private var timerArmed = false

    /// A change to report at `t`; `nextWake`: the core's next monotonic
    /// wake-up, if it has one.
    mutating func offer(at t: Instant, nextWake: Instant?) -> Decision {
        guard let last = lastSent, t - last < Self.interval else { return .send }
        if timerArmed { return .wait }
        let due = last + Self.interval
        if let w = nextWake, w > t, w <= due + Self.interval { return .wait }
        timerArmed = true
        return .armTimer(due)
    }

    /// A message went out at `t`.
    mutating func sent(at t: Instant) {
        lastSent = t
        timerArmed = false
    }

    /// The timer fired (its send follows, if the text still differs).
    mutating func timerFired() { timerArmed = false }
}

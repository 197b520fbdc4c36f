import TockCore

/// When a STATUS line may go to systemd: at most one in each second of the
/// monotonic clock. Keyed by whole seconds rather than by the time since
/// the last message, so that a count's ticks, one a second with a wake-up
/// latency that varies, each send at once instead of arming a timer a few
/// microseconds later.
struct StatusPacer {
    enum Decision: Equatable {
        /// Build the text and send it if it changed.
        case now
        /// Not in this second: arm the timer for the next one.
        case at(Instant)
        /// The timer is already armed; it will send.
        case alreadyDeferred
    }

    /// The second (of the monotonic clock) of the last message sent.
    private var lastSecond: Int64 = .min
    private var deferred = false

    static func second(_ t: Instant) -> Int64 {
        t.nanoseconds >= 0 ? t.nanoseconds / 1_000_000_000 : (t.nanoseconds + 1) / 1_000_000_000 - 1
    }

    mutating func offer(at t: Instant) -> Decision {
        let s = Self.second(t)
        if s > lastSecond {
            deferred = false
            return .now
        }
        if deferred { return .alreadyDeferred }
        deferred = true
        return .at(Instant(nanoseconds: (lastSecond + 1) * 1_000_000_000))
    }

    /// A message went out at `t`.
    mutating func sent(at t: Instant) { lastSecond = Self.second(t) }
    /// The deferred send ran (whether or not the text had changed).
    mutating func deferredSent() { deferred = false }
}

/// A point on the monotonic time line the appliance counts durations on
/// (`CLOCK_BOOTTIME` in production: it keeps counting through a suspend;
/// a virtual clock in tests and in the scripted simulator).
///
/// Stored as whole nanoseconds: every running count is derived from two
/// instants, never summed from tick intervals, so integer arithmetic keeps
/// it exact over years of uptime (Int64 nanoseconds span 292 years).
public struct Instant: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var nanoseconds: Int64

    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    public static let zero = Instant(nanoseconds: 0)

    /// The earlier of two instants either of which may be missing (nil
    /// when both are): `[a, b].compactMap { $0 }.min()` without an array.
    @inlinable public static func earliest(_ a: Instant?, _ b: Instant?) -> Instant? {
        guard let a else { return b }
        guard let b else { return a }
        return b < a ? b : a
    }

    public static func < (a: Instant, b: Instant) -> Bool { a.nanoseconds < b.nanoseconds }
    public static func + (a: Instant, d: Duration) -> Instant { Instant(nanoseconds: a.nanoseconds + d.nanoseconds) }
    public static func - (a: Instant, d: Duration) -> Instant { Instant(nanoseconds: a.nanoseconds - d.nanoseconds) }
    public static func - (a: Instant, b: Instant) -> Duration { .nanoseconds(a.nanoseconds - b.nanoseconds) }

    public var description: String { "Instant(\(Duration.nanoseconds(nanoseconds).secondsText))" }
}

/// A point in civil time: nanoseconds since 1970-01-01T00:00:00Z
/// (`CLOCK_REALTIME`). Used only for countdowns to a calendar instant and
/// for persisting deadlines across a reboot; the real-time clock can be
/// stepped (NTP, a manual change), so durations never use it.
public struct WallTime: Hashable, Comparable, Sendable {
    public var nanoseconds: Int64

    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }
    public init(secondsSince1970 s: Int64) { self.nanoseconds = s * 1_000_000_000 }

    public static func < (a: WallTime, b: WallTime) -> Bool { a.nanoseconds < b.nanoseconds }
    public static func + (a: WallTime, d: Duration) -> WallTime { WallTime(nanoseconds: a.nanoseconds + d.nanoseconds) }
    public static func - (a: WallTime, d: Duration) -> WallTime { WallTime(nanoseconds: a.nanoseconds - d.nanoseconds) }
    public static func - (a: WallTime, b: WallTime) -> Duration { .nanoseconds(a.nanoseconds - b.nanoseconds) }
}

/// "Now" on both clocks, read once per event by whoever owns the clock
/// (the reactor, or the virtual loop) and handed to the core.
public struct Now: Sendable, Equatable {
    public var monotonic: Instant
    public var wall: WallTime
    /// Whether the kernel reports the real-time clock synchronised (NTP);
    /// a Pi without an RTC boots with a wrong time until it is.
    public var wallSynchronised: Bool

    public init(monotonic: Instant, wall: WallTime, wallSynchronised: Bool = true) {
        self.monotonic = monotonic
        self.wall = wall
        self.wallSynchronised = wallSynchronised
    }

    /// Both clocks as read from the kernel (or a virtual clock): the one
    /// place a clock reading enters. A wall clock outside the trusted range
    /// (`TimeBounds.earliestWall...latestClock`) is unverified, and reads
    /// as 1970 plus the monotonic time: it runs at the right rate (no step
    /// is seen while it stays out), everything derived from it stays within
    /// the range the state file reads back, and every count goes on on the
    /// monotonic clock as before.
    public init(monotonic: Instant, clockReading wall: WallTime, wallSynchronised: Bool) {
        if wall >= TimeBounds.earliestWall, wall <= TimeBounds.latestClock {
            self.init(monotonic: monotonic, wall: wall, wallSynchronised: wallSynchronised)
        } else {
            self.init(monotonic: monotonic, wall: TimeBounds.earliestWall + .nanoseconds(max(monotonic.nanoseconds, 0)), wallSynchronised: false)
        }
    }

    /// The same moment expressed at another monotonic instant, assuming the
    /// wall clock is not stepped in between (a step is reported separately).
    public func at(_ instant: Instant) -> Now {
        Now(monotonic: instant, wall: wall + (instant - monotonic), wallSynchronised: wallSynchronised)
    }

    /// The monotonic instant at which the wall clock will read `w`.
    public func monotonic(at w: WallTime) -> Instant { monotonic + (w - wall) }
}

extension Duration {
    /// Whole nanoseconds (durations here never need finer resolution),
    /// truncated toward zero. One 128-by-64-bit division (`div` on x86-64)
    /// while the attoseconds' high word is under 10^9, as it is for any
    /// duration whose nanoseconds fit in an Int64; the 128-bit division
    /// (a call to `__divti3`, 200 instructions) only beyond.
    public var nanoseconds: Int64 {
        if #available(macOS 15, *) {
            let atto = attoseconds
            let m = atto.magnitude
            let high = UInt64(truncatingIfNeeded: m >> 64)
            guard high < 1_000_000_000 else { return Int64(atto / 1_000_000_000) }
            let q = UInt64(1_000_000_000).dividingFullWidth((high: high, low: UInt64(truncatingIfNeeded: m))).quotient
            guard q <= UInt64(Int64.max) else { return Int64(atto / 1_000_000_000) }
            return atto < 0 ? -Int64(q) : Int64(q)
        }
        let (s, atto) = components
        return s * 1_000_000_000 + atto / 1_000_000_000
    }

    public static func nanoseconds(_ n: Int64) -> Duration {
        if #available(macOS 15, *) { return Duration(attoseconds: Int128(n) * 1_000_000_000) }
        return .seconds(n / 1_000_000_000) + .nanoseconds(Int(n % 1_000_000_000))
    }

    /// `12.345s`-style text for logs and errors.
    public var secondsText: String {
        let n = nanoseconds
        let sign = n < 0 ? "-" : ""
        let a = n.magnitude
        let ms = (a % 1_000_000_000) / 1_000_000
        let msText = ms < 10 ? "00\(ms)" : ms < 100 ? "0\(ms)" : "\(ms)"
        return "\(sign)\(a / 1_000_000_000).\(msText)s"
    }
}

/// Time to the next boundary of a quantised value moving along an axis.
///
/// A count shown in units of `quantum` changes when its value crosses a
/// multiple of the quantum. Counting up the shown value is `floor(v/q)` and
/// changes at the next multiple above `v`; counting down it is `ceil(v/q)`
/// and changes when `v` reaches the next multiple below (or at `v` itself
/// minus a whole quantum when `v` sits exactly on a multiple).
public func timeToNextBoundary(of value: Duration, quantum: Duration, increasing: Bool) -> Duration {
    timeToNextBoundary(of: value, quantumNanoseconds: quantum.nanoseconds, increasing: increasing)
}

/// `timeToNextBoundary` with the quantum in nanoseconds (a renderer's
/// constants: a `Duration`'s nanoseconds are worked out at each read).
public func timeToNextBoundary(of value: Duration, quantumNanoseconds q: Int64, increasing: Bool) -> Duration {
    .nanoseconds(nanosecondsToNextBoundary(of: value.nanoseconds, quantum: q, increasing: increasing))
}

/// `timeToNextBoundary` in nanoseconds.
@inline(__always)
public func nanosecondsToNextBoundary(of v: Int64, quantum q: Int64, increasing: Bool) -> Int64 {
    precondition(q > 0, "a display quantum must be positive")
    let r = ((v % q) + q) % q
    return increasing ? q - r : (r == 0 ? q : r)
}

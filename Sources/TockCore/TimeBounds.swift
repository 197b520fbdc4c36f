/// The range every duration and wall instant from outside the process must
/// fall in: the state file, a fleet group's message, the control socket,
/// MQTT, the CLI, the configuration file, a simulator script.
///
/// Time is kept in Int64 nanoseconds (292 years), and Swift traps on an
/// overflow. Inside these bounds the core's arithmetic cannot overflow: a
/// wall instant minus another spans at most 230 years (7.3e18 ns), a
/// monotonic instant derived from one stays under 7.3e18 plus the uptime,
/// and the longest interval program (99 rounds of work and rest at the
/// longest duration) is 1.7e18 ns. So a value is checked once, where it is
/// decoded, by the one constructor for its kind (`Duration.checked`,
/// `WallTime(checked:)`), and every later sum is safe.
public enum TimeBounds {
    /// The longest duration anything from outside may carry: 100 days
    /// (2400 h). A count on 4 digits reads up to 99 h 59 min; a fixed date
    /// further off is a countdown to an instant, not a duration.
    public static let longest: Duration = .seconds(100 * 86_400)

    /// The earliest wall instant accepted: 1970-01-01T00:00:00Z.
    public static let earliestWall = WallTime(nanoseconds: 0)
    /// The latest wall instant accepted: 2199-12-31T23:59:59Z.
    public static let latestWall = WallTime(secondsSince1970: 7_258_118_399)

    /// The latest reading of the wall clock that is trusted:
    /// 2199-09-22T23:59:59Z, `latestWall` less the longest duration, so
    /// every instant derived from the clock (an end, a ring, an alarm's
    /// next day) is within `latestWall` and reads back from the state file.
    /// A clock reading outside `earliestWall...latestClock` (a clock chip
    /// that says 2262, a box set to 2200) is an unverified clock, never a
    /// trap (`Now(monotonic:clockReading:wallSynchronised:)`).
    public static let latestClock = WallTime(secondsSince1970: 7_249_478_399)

    /// Whether a whole number of seconds since 1970 read from outside (a
    /// clock chip, a file's time) is a wall instant the box trusts.
    public static func trusts(secondsSince1970 s: Int64) -> Bool {
        s >= 0 && s <= latestClock.nanoseconds / 1_000_000_000
    }

    /// A value outside the bounds, said in words for a log line or a reply.
    public struct Violation: Error, Equatable, Sendable, CustomStringConvertible {
        public var description: String
        public init(_ description: String) { self.description = description }
    }
}

extension Duration {
    /// The one check for a duration in nanoseconds from outside: from 0
    /// (or 1 ns when `positive`) to `TimeBounds.longest`.
    public static func checked(nanoseconds n: Int64, positive: Bool = false) throws(TimeBounds.Violation) -> Duration {
        guard n >= (positive ? 1 : 0) else {
            throw TimeBounds.Violation("\(n) ns is not a duration (\(positive ? "more than zero" : "zero or more") expected)")
        }
        guard n <= TimeBounds.longest.nanoseconds else {
            throw TimeBounds.Violation("\(n) ns is longer than the longest duration accepted (100 days)")
        }
        return .nanoseconds(n)
    }

    /// The same check for a duration already built (from text).
    public func checked(positive: Bool = false) throws(TimeBounds.Violation) -> Duration {
        guard self >= .zero, self <= TimeBounds.longest else {
            throw TimeBounds.Violation("not a duration from 0 to 100 days")
        }
        return try Duration.checked(nanoseconds: nanoseconds, positive: positive)
    }
}

extension WallTime {
    /// The one check for a wall instant in nanoseconds since 1970 from
    /// outside: between `TimeBounds.earliestWall` and `latestWall`.
    public init(checked n: Int64) throws(TimeBounds.Violation) {
        guard n >= TimeBounds.earliestWall.nanoseconds, n <= TimeBounds.latestWall.nanoseconds else {
            throw TimeBounds.Violation("\(n) ns since 1970 is not an instant between 1970 and 2199")
        }
        self.init(nanoseconds: n)
    }
}

extension WallTime {
    /// A wall instant in nanoseconds moved by `d`: within the bounds, or
    /// refused (a snapshot's instants moved onto another clock).
    static func moved(_ t: Int64, by d: Duration) throws(TimeBounds.Violation) -> Int64 {
        let (sum, overflow) = t.addingReportingOverflow(d.nanoseconds)
        guard !overflow else { throw TimeBounds.Violation("\(t) ns moved by \(d) is not an instant") }
        return try WallTime(checked: sum).nanoseconds
    }
}

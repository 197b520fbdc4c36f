import TockCore

/// Whether the wall clock can be trusted, since when, and how it has been
/// stepped: what the log, the status, MQTT and the page say about the time
/// that daily alarms and the calendar countdown are on.
///
/// A Pi has no battery-backed clock: it boots with the time it saved at
/// shutdown (fake-hwclock) or a build date, and an NTP client steps it once
/// the network answers. The kernel says which it is (`adjtimex(2)`: timesyncd
/// and chrony clear `STA_UNSYNC` once they have set it), read by the loop's
/// clock into `Now.wallSynchronised`. This value only watches: the core
/// applies the rules for steps itself (`AlarmClock`, `CalendarCountdown`).
///
/// A step is recognised as the core recognises it: the wall clock moved
/// against the monotonic one, since the last look, by more than 1 s or
/// 0.1 % of the time between (NTP slews at most 0.05 %).
public struct ClockTrust: Sendable, Equatable {
    /// What changed at a look.
    public enum Change: Sendable, Equatable {
        /// The kernel reports the clock synchronised (for the first time, or again).
        case synchronised
        /// The kernel reports it not synchronised (at the start, or lost).
        case unsynchronised(atStart: Bool)
        /// The wall clock moved by this much against the monotonic one.
        case stepped(by: Duration)
    }

    /// A step of the wall clock, as seen.
    public struct Step: Sendable, Equatable {
        public var by: Duration
        /// When it was seen, on the monotonic clock.
        public var at: Instant
    }

    public private(set) var synchronised: Bool
    /// When the clock was last seen become synchronised, on the monotonic
    /// clock (at the start when it already was); nil while it is not.
    public private(set) var since: Instant?
    /// Whether it was already synchronised when the box started (`since`
    /// is then the start, not the moment NTP set it).
    public private(set) var sinceStart: Bool
    /// The last step seen, and how many.
    public private(set) var lastStep: Step?
    public private(set) var steps = 0
    /// Both clocks at the last look.
    private var lookMonotonic: Instant
    private var lookWall: WallTime

    public init(at now: Now) {
        synchronised = now.wallSynchronised
        since = now.wallSynchronised ? now.monotonic : nil
        sinceStart = now.wallSynchronised
        lookMonotonic = now.monotonic
        lookWall = now.wall
    }

    /// What the start says: nothing when the clock is synchronised.
    public var atStart: [Change] { synchronised ? [] : [.unsynchronised(atStart: true)] }

    /// The wall clock when it became synchronised, as it reads now.
    public func since(at now: Now) -> WallTime? { since.map { now.wall - (now.monotonic - $0) } }

    /// Look at `now`: whether the clock was stepped since the last look and
    /// whether the kernel's verdict changed, in that order (a step seen
    /// with the verdict is NTP's first setting). A look back in monotonic
    /// time (an edge dated before the last look) changes nothing.
    public mutating func look(at now: Now) -> [Change] {
        guard now.monotonic >= lookMonotonic else { return [] }
        var changes: [Change] = []
        // In nanoseconds: this runs at every wake-up.
        let elapsed = now.monotonic.nanoseconds - lookMonotonic.nanoseconds
        let drift = (now.wall.nanoseconds - lookWall.nanoseconds) - elapsed
        let tolerance = max(1_000_000_000, elapsed / 1000)
        if drift > tolerance || drift < -tolerance {
            lastStep = Step(by: .nanoseconds(drift), at: now.monotonic)
            steps += 1
            changes.append(.stepped(by: .nanoseconds(drift)))
        }
        lookMonotonic = now.monotonic
        lookWall = now.wall
        if now.wallSynchronised != synchronised {
            synchronised = now.wallSynchronised
            since = synchronised ? now.monotonic : nil
            sinceStart = false
            changes.append(synchronised ? .synchronised : .unsynchronised(atStart: false))
        }
        return changes
    }
}

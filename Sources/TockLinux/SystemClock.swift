import Glibc
import Synchronization
import TockCore

/// The kernel's clocks, read for the core: `CLOCK_BOOTTIME` for durations
/// and `CLOCK_REALTIME` for civil time.
///
/// clock_gettime(2): `CLOCK_BOOTTIME` is `CLOCK_MONOTONIC` plus the time the
/// system spent suspended, so a countdown keeps counting through a suspend;
/// it is never stepped. `CLOCK_REALTIME` can be stepped (NTP, `date -s`),
/// which is why it only ever positions calendar deadlines.
public struct SystemClock: Sendable {
    private let sync = SyncFlag(read: { SystemClock.synchronised })

    public init() {}

    /// Both clocks, read back to back, and whether the kernel reports the
    /// real-time clock synchronised (taken as yes where the kernel will not
    /// say: see `synchronised`). Local time is the core's business: it has
    /// the zone's rules (`ClockSettings.zone`).
    public func now() -> Now {
        let monotonic = Syscall.clockNanoseconds(CLOCK_BOOTTIME)
        return Now(
            monotonic: Instant(nanoseconds: monotonic),
            clockReading: WallTime(nanoseconds: Syscall.clockNanoseconds(CLOCK_REALTIME)),
            wallSynchronised: sync.value(at: monotonic) ?? true
        )
    }

    /// The kernel's NTP status (adjtimex(2)): nil when it cannot be read.
    public static var synchronised: Bool? { Syscall.clockSynchronised() }
}

/// The kernel's "synchronised" flag without a system call on every event:
/// adjtimex(2) is a real one (about 1.4 µs here, against 27 ns for the
/// vDSO's clock_gettime), and the flag changes about once a boot. A "yes"
/// (or "cannot say") holds for a minute; a "no" holds for 10 ms, so the
/// several clock reads of one wake-up ask once (a Pi without network is
/// never synchronised, and asked 4-5 times a wake-up before), and the
/// first wake-up after NTP has set the clock (usually the step itself)
/// shows the time at once.
final class SyncFlag: Sendable {
    static let trusted: Int64 = 60_000_000_000
    static let untrusted: Int64 = 10_000_000
    private let read: @Sendable () -> Bool?
    private let last = Mutex<(at: Int64, value: Bool?)?>(nil)

    init(read: @escaping @Sendable () -> Bool?) { self.read = read }

    /// The flag at `monotonic` (nanoseconds).
    func value(at monotonic: Int64) -> Bool? {
        last.withLock { last in
            if let l = last, monotonic - l.at < (l.value == false ? Self.untrusted : Self.trusted) { return l.value }
            let v = read()
            last = (monotonic, v)
            return v
        }
    }

}

extension SystemClock {
    /// Converts a `CLOCK_MONOTONIC` timestamp (the clock of GPIO line
    /// events, gpio-v2-line-event(2)) to the `CLOCK_BOOTTIME` time line.
    ///
    /// The two clocks differ by the total time spent suspended, a constant
    /// between suspends, so the current offset applies to any recent
    /// timestamp. The offset is taken against the midpoint of two
    /// monotonic reads around one boottime read, which halves the error
    /// from the reads not being simultaneous.
    public func boottimeFromMonotonic(_ nanoseconds: UInt64) -> Instant {
        Instant(nanoseconds: Int64(nanoseconds) + boottimeOffset())
    }

    /// `CLOCK_BOOTTIME` minus `CLOCK_MONOTONIC` now, in nanoseconds.
    public func boottimeOffset() -> Int64 {
        let before = Syscall.clockNanoseconds(CLOCK_MONOTONIC)
        let boottime = Syscall.clockNanoseconds(CLOCK_BOOTTIME)
        let after = Syscall.clockNanoseconds(CLOCK_MONOTONIC)
        return boottime - (before + (after - before) / 2)
    }
}

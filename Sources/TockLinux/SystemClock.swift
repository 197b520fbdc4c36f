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
    private let sync = SyncFlag.shared

    public init() {}

    /// The monotonic clock alone (CLOCK_BOOTTIME), for what needs no wall
    /// time: a mock part's record of when it was driven.
    public func monotonic() -> Instant { Instant(nanoseconds: Syscall.clockNanoseconds(CLOCK_BOOTTIME)) }

    /// The kernel has said the real-time clock changed (a step, seen by the
    /// reactor's `TFD_TIMER_CANCEL_ON_SET` timerfd): its trust is asked again
    /// at the next read rather than when the held answer runs out.
    public static func clockChanged() { SyncFlag.shared.clockChanged() }

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

/// The kernel's "synchronised" flag without a system call on every tick:
/// adjtimex(2) is a real one (about 1.4 µs here, against 27 ns for the
/// vDSO's clock_gettime), and the flag changes about once a boot. One flag
/// for the process. A "yes" (or "cannot say") holds for a minute, a "no"
/// for 10 seconds: a count-down's wake-ups make no adjtimex between (a Pi
/// without network is never synchronised, and asked once a wake-up
/// before). When NTP first sets the clock it usually steps it, and the
/// reactor's step watch (`SystemClock.clockChanged`) has the flag asked
/// again at once, so the time shows on that wake-up; a clock already
/// close enough that NTP only slews it is seen within the 10 seconds.
final class SyncFlag: Sendable {
    static let shared = SyncFlag(read: { SystemClock.synchronised })
    static let trusted: Int64 = 60_000_000_000
    static let untrusted: Int64 = 10_000_000_000
    private let read: @Sendable () -> Bool?
    /// The answer held and when it was asked, in one word so a wake-up
    /// reads it without a lock: the instant (nanoseconds) shifted up two
    /// bits, the answer in the low two (0 none held, 1 cannot say, 2 no,
    /// 3 yes). Two threads that both find it stale both ask; either
    /// answer is a fresh one.
    private let last = Atomic<Int64>(0)

    init(read: @escaping @Sendable () -> Bool?) { self.read = read }

    /// The flag at `monotonic` (nanoseconds).
    func value(at monotonic: Int64) -> Bool? {
        let held = last.load(ordering: .relaxed)
        if held & 3 != 0 {
            let value: Bool? = held & 3 == 1 ? nil : held & 3 == 3
            if monotonic - held >> 2 < (value == false ? Self.untrusted : Self.trusted) { return value }
        }
        let v = read()
        last.store(monotonic << 2 | (v.map { $0 ? 3 : 2 } ?? 1), ordering: .relaxed)
        return v
    }

    /// Asked again at the next `value(at:)`.
    func clockChanged() {
        last.store(0, ordering: .relaxed)
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

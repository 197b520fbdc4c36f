import Glibc
import TockCore
import TockHardware

/// The real `Delay` for bit-banged buses: waits on `CLOCK_MONOTONIC`.
///
/// Each wait is measured from where the previous one ended, not from the
/// call: the line change (a GPIO ioctl) between two waits takes real time,
/// and that time counts toward the bus phase it started. A wait whose
/// deadline has already passed returns at once, and the next one is
/// measured from then. The first wait, and one after the bus was idle
/// (its deadline long past), therefore never shortens a phase: each phase
/// lasts at least its duration from the end of the wait before the edge.
///
/// Waits shorter than `spinBelow` are a busy-wait on clock_gettime(2)
/// (a vDSO call, no system call); longer ones sleep with
/// clock_nanosleep(2) on an absolute deadline. A sleep cannot be short:
/// prctl(2) gives a normal thread a timer slack of 50 µs by default, and
/// the wake-up itself costs scheduler latency, so a 5 µs nanosleep lasts
/// 60 µs or more and a TM1637 frame of ~140 half periods would take
/// around ten milliseconds instead of under one. Spinning for a few
/// microseconds costs less CPU than that many wake-ups.
public final class NanosleepDelay: Delay {
    public let spinBelow: Duration
    private let spinBelowNanoseconds: Int64
    /// Where the previous wait ended (CLOCK_MONOTONIC ns); nil before the first.
    private var previousEnd: Int64?

    public init(spinBelow: Duration = .microseconds(50)) {
        self.spinBelow = spinBelow
        self.spinBelowNanoseconds = spinBelow.nanoseconds
    }

    public func wait(_ d: Duration) {
        let wanted = d.nanoseconds
        guard wanted > 0 else { return }
        let now = Syscall.clockNanoseconds(CLOCK_MONOTONIC)
        let deadline = Self.deadline(previousEnd: previousEnd, now: now, wait: wanted)
        if deadline > now {
            if wanted < spinBelowNanoseconds {
                while Syscall.clockNanoseconds(CLOCK_MONOTONIC) < deadline {}
            } else {
                // Only EINTR can be thrown, and it is retried.
                try! Syscall.sleep(until: deadline, clock: CLOCK_MONOTONIC)
            }
        }
        previousEnd = max(deadline, now)
    }

    /// The instant a wait of `d` ns called at `now` ends: `d` after the
    /// previous wait ended, or `d` after `now` for the first wait.
    static func deadline(previousEnd: Int64?, now: Int64, wait d: Int64) -> Int64 {
        (previousEnd ?? now) + d
    }
}

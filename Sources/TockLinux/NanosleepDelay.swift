import Glibc
import TockCore
import TockHardware

/// The real `Delay` for bit-banged buses: waits on `CLOCK_MONOTONIC`.
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

    public init(spinBelow: Duration = .microseconds(50)) {
        self.spinBelow = spinBelow
    }

    public func wait(_ d: Duration) {
        guard d > .zero else { return }
        let deadline = Syscall.clockNanoseconds(CLOCK_MONOTONIC) + d.nanoseconds
        if d < spinBelow {
            while Syscall.clockNanoseconds(CLOCK_MONOTONIC) < deadline {}
        } else {
            // Only EINTR can be thrown, and it is retried.
            try! Syscall.sleep(until: deadline, clock: CLOCK_MONOTONIC)
        }
    }
}

import CTockLinux
import Glibc
import SystemPackage
import TockCore

/// An owning timerfd (timerfd_create(2)): a one-shot timer on an absolute
/// deadline whose expiry makes the descriptor readable, so an epoll loop
/// waits for it like any other input. Non-blocking and close-on-exec.
public final class TimerFD {
    public enum Clock: Sendable {
        /// `CLOCK_BOOTTIME`: counts through suspend, never stepped.
        case boottime
        /// `CLOCK_REALTIME`: civil time; a step of it cancels the timer.
        case realtime
    }

    /// What one `read()` found.
    public enum Reading: Equatable, Sendable {
        /// The deadline passed. A one-shot timer reports 1 however late the
        /// read is; only a periodic timer counts missed periods.
        case expired(count: UInt64)
        /// The real-time clock was stepped (timerfd_create(2): read fails
        /// with `ECANCELED` for a `TFD_TIMER_CANCEL_ON_SET` timer). The
        /// kernel drops a pending expiry when it reports this.
        case clockStepped
        /// Nothing has happened since the last read (`EAGAIN`).
        case nothing
    }

    public let clock: Clock
    private var fd: FileDescriptor?

    public init(clock: Clock) throws(Errno) {
        self.clock = clock
        fd = try Syscall.timerfdCreate(clock: clock == .boottime ? CLOCK_BOOTTIME : CLOCK_REALTIME)
    }

    deinit { close() }

    /// The descriptor to watch for readability. Trapping after `close()`.
    public var descriptor: FileDescriptor {
        guard let fd else { preconditionFailure("TimerFD used after close()") }
        return fd
    }

    /// What arming found besides the new deadline.
    public enum Arming: Equatable, Sendable {
        case armed
        /// Armed, and the real-time clock had been stepped since the last
        /// read: fs/timerfd.c (`timerfd_setup`) starts the timer, then
        /// fails the call with `ECANCELED` and clears the pending report,
        /// so `read()` will not see that step.
        case armedAfterClockStep
    }

    /// Arms a `.boottime` timer for the absolute instant `deadline`.
    public func arm(at deadline: Instant) throws(Errno) {
        precondition(clock == .boottime, "an Instant deadline needs a .boottime TimerFD")
        _ = try arm(nanoseconds: deadline.nanoseconds)
    }

    /// Arms a `.realtime` timer for the absolute wall time `deadline`, with
    /// `TFD_TIMER_CANCEL_ON_SET` so that a step of the real-time clock makes
    /// the descriptor readable and `read()` report `.clockStepped`.
    @discardableResult
    public func arm(at deadline: WallTime) throws(Errno) -> Arming {
        precondition(clock == .realtime, "a WallTime deadline needs a .realtime TimerFD")
        return try arm(nanoseconds: deadline.nanoseconds)
    }

    /// Arms the timer for an absolute deadline on its own clock.
    func arm(nanoseconds: Int64) throws(Errno) -> Arming {
        var flags = CInt(TFD_TIMER_ABSTIME)
        if clock == .realtime { flags |= CInt(TFD_TIMER_CANCEL_ON_SET) }
        // timerfd_create(2): an it_value of zero disarms the timer. A
        // deadline at or before the epoch has passed anyway, so it becomes
        // 1 ns, which fires at once.
        let ns = max(nanoseconds, 1)
        let value = timespec(tv_sec: time_t(ns / 1_000_000_000), tv_nsec: Int(ns % 1_000_000_000))
        do {
            try Syscall.timerfdSetTime(descriptor, flags: flags, value: value)
            return .armed
        } catch where error == .canceled && clock == .realtime {
            return .armedAfterClockStep
        }
    }

    /// Disarms the timer (and, for `.realtime`, stops step detection).
    public func disarm() throws(Errno) {
        try Syscall.timerfdSetTime(descriptor, flags: 0, value: timespec(tv_sec: 0, tv_nsec: 0))
    }

    /// Reads the expiry count without blocking.
    public func read() throws(Errno) -> Reading {
        var count: UInt64 = 0
        do {
            let n = try withUnsafeMutableBytes(of: &count) { buffer throws(Errno) in
                try Syscall.read(descriptor, into: buffer)
            }
            guard let n else { return .nothing }
            precondition(n == MemoryLayout<UInt64>.size, "timerfd_create(2): a read returns 8 bytes, got \(n)")
            return .expired(count: count)
        } catch where error == .canceled {
            return .clockStepped
        }
    }

    /// Closes the descriptor; later calls do nothing.
    public func close() {
        guard let fd else { return }
        self.fd = nil
        Syscall.close(fd)
    }
}

import Glibc

/// A mutual-exclusion lock over a pthread mutex, for the few places that
/// share state between threads (tock-web's connections, the MQTT link's
/// connect thread).
public final class Lock: @unchecked Sendable {
    fileprivate let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    public init() { pthread_mutex_init(mutex, nil) }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    public func lock() { pthread_mutex_lock(mutex) }
    public func unlock() { pthread_mutex_unlock(mutex) }

    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// A lock with a condition to wait on: `wait(until:)` releases the lock
/// while it waits and holds it again when it returns.
public final class Condition: @unchecked Sendable {
    private let guarding = Lock()
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    public init() {
        // Waits are measured on the monotonic clock: a wall clock set back
        // (NTP's first answer on a box without a real-time clock) must not
        // stretch them.
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
    }

    public func lock() { guarding.lock() }
    public func unlock() { guarding.unlock() }
    public func signal() { pthread_cond_signal(condition) }
    public func broadcast() { pthread_cond_broadcast(condition) }

    /// Waits (the lock held) until signalled or `deadline` passes on the
    /// monotonic clock (`Threads.now()`); false once it has passed.
    @discardableResult
    public func wait(until deadline: Duration) -> Bool {
        guard deadline > Threads.now() else { return false }
        let (seconds, attoseconds) = deadline.components
        var when = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        return pthread_cond_timedwait(condition, guarding.mutex, &when) == 0 || Threads.now() < deadline
    }
}

/// Threads of their own for blocking work, and the time they wait by.
public enum Threads {
    /// Starts `body` on a new detached thread, with a stack of
    /// `stackSize` bytes (the system's default when nil).
    public static func detach(stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
        var thread = pthread_t()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        if let stackSize { pthread_attr_setstacksize(&attributes, stackSize) }
        let started = pthread_create(&thread, &attributes, { raw in
            Unmanaged<ThreadBody>.fromOpaque(raw!).takeRetainedValue().body()
            return nil
        }, context)
        guard started == 0 else {
            Unmanaged<ThreadBody>.fromOpaque(context).release()
            fatalError("cannot start a thread: \(String(cString: strerror(started)))")
        }
    }

    /// The monotonic clock, for deadlines of `Condition.wait(until:)`.
    public static func now() -> Duration {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return .seconds(t.tv_sec) + .nanoseconds(t.tv_nsec)
    }

    public static func sleep(_ d: Duration) {
        let (seconds, attoseconds) = d.components
        var left = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var rest = timespec()
        while nanosleep(&left, &rest) != 0, errno == EINTR { left = rest }
    }
}

private final class ThreadBody {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
}

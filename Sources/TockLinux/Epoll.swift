import CTockLinux
import Glibc
import SystemPackage

/// An owning epoll instance (epoll(7)) watching descriptors for input.
///
/// Level-triggered: a descriptor is reported on every wait until its
/// pending input has been read, so a handler that does not drain its
/// descriptor makes the next wait return at once.
public final class Epoll {
    private var fd: FileDescriptor?
    private let events: UnsafeMutableBufferPointer<epoll_event>

    /// `capacity`: how many ready descriptors one wait reports at most; the
    /// rest stay ready and are reported by the next wait.
    public init(capacity: Int = 16) throws(Errno) {
        precondition(capacity > 0, "an epoll wait needs room for at least one event")
        fd = try Syscall.epollCreate()
        events = .allocate(capacity: capacity)
        events.initialize(repeating: epoll_event())
    }

    deinit {
        close()
        events.deallocate()
    }

    /// Watches `descriptor` for input (`EPOLLIN`). epoll_ctl(2) reports
    /// `EEXIST` if it is already watched.
    public func add(_ descriptor: FileDescriptor) throws(Errno) {
        try Syscall.epollControl(epollDescriptor, EPOLL_CTL_ADD, descriptor, events: EPOLLIN.rawValue)
    }

    /// Watches `descriptor` for input, and for room to write while
    /// `writable` is true (`EPOLLOUT`; level-triggered, so ask for it only
    /// while there is something waiting to be written).
    public func modify(_ descriptor: FileDescriptor, writable: Bool) throws(Errno) {
        let events = EPOLLIN.rawValue | (writable ? EPOLLOUT.rawValue : 0)
        try Syscall.epollControl(epollDescriptor, EPOLL_CTL_MOD, descriptor, events: events)
    }

    /// Stops watching `descriptor`. epoll_ctl(2) reports `ENOENT` if it was
    /// not watched. Closing a descriptor removes it by itself only when no
    /// duplicate of it is open (epoll(7), Q6), so remove before closing.
    public func remove(_ descriptor: FileDescriptor) throws(Errno) {
        try Syscall.epollControl(epollDescriptor, EPOLL_CTL_DEL, descriptor, events: 0)
    }

    /// Waits until at least one watched descriptor is ready, or `timeout`
    /// (rounded up to whole milliseconds) has passed; `nil` waits without
    /// a limit. Returns the ready descriptors, empty after a timeout.
    ///
    /// A descriptor with an error or a hang-up (`EPOLLERR`, `EPOLLHUP`,
    /// always reported by epoll_ctl(2)) is returned as ready too: its read
    /// reports what happened. A retried `EINTR` restarts the full timeout.
    public func wait(timeout: Duration? = nil, retryOnInterrupt: Bool = true) throws(Errno) -> [FileDescriptor] {
        var ready: [FileDescriptor] = []
        try wait(into: &ready, timeout: timeout, retryOnInterrupt: retryOnInterrupt)
        return ready
    }

    /// The same, into `ready` (emptied first, its storage kept): a loop
    /// that passes the same array each time allocates nothing per wake-up.
    public func wait(into ready: inout [FileDescriptor], timeout: Duration? = nil,
                     retryOnInterrupt: Bool = true) throws(Errno) {
        let n = try Syscall.epollWait(
            epollDescriptor, into: events,
            timeoutMilliseconds: Self.milliseconds(timeout),
            retryOnInterrupt: retryOnInterrupt)
        // Emptied from the end: `removeAll(keepingCapacity:)` goes through
        // the general `replaceSubrange` (80 instructions a wake-up).
        while !ready.isEmpty { ready.removeLast() }
        for e in events.prefix(n) { ready.append(FileDescriptor(rawValue: e.data.fd)) }
    }

    /// Closes the epoll descriptor; later calls do nothing.
    public func close() {
        guard let fd else { return }
        self.fd = nil
        Syscall.close(fd)
    }

    private var epollDescriptor: FileDescriptor {
        guard let fd else { preconditionFailure("Epoll used after close()") }
        return fd
    }

    /// epoll_wait(2) takes milliseconds, -1 for no limit. Rounding up keeps
    /// a wait from ending just before the instant it was meant to reach.
    private static func milliseconds(_ timeout: Duration?) -> CInt {
        guard let timeout else { return -1 }
        let ns = max(timeout.nanoseconds, 0)
        let ms = ns / 1_000_000 + (ns % 1_000_000 == 0 ? 0 : 1)
        return CInt(min(ms, Int64(CInt.max)))
    }
}

import Glibc
import TockCore

/// The loop on virtual time, for the scripted simulator and the tests:
/// time stands still until `run(until:)` moves it, from one deadline to the
/// next, firing timers in (time, scheduling order). Watched descriptors
/// are real (socket pairs, pipes) and are served, without waiting, before
/// each step. A whole day of appliance runs in milliseconds, and the same
/// run gives the same trace every time.
public final class VirtualLoop: EventLoop {
    public let timers = TimerQueue()
    /// Monotonic time now.
    public private(set) var instant: Instant
    /// The wall clock at `origin`, and how far it was stepped since.
    private let origin: Instant
    private let epoch: WallTime
    public private(set) var wallOffset: Duration = .zero
    /// What the kernel would say of the wall clock (`adjtimex(2)`): set it
    /// to false for a box that boots before NTP has answered.
    public var wallSynchronised = true
    /// How late a timer fires after its deadline (given the deadline), as
    /// a kernel's wake-ups come a little late, by varying amounts; nil:
    /// exactly on time.
    public var lateness: ((Instant) -> Duration)?
    private var handlers: [CInt: () -> Void] = [:]
    private var writable: Set<CInt> = []
    private var stepHandlers: [() -> Void] = []

    /// - Parameters:
    ///   - origin: the monotonic instant at the start.
    ///   - epoch: the wall clock then.
    public init(origin: Instant = Instant(nanoseconds: 1_000_000_000), epoch: WallTime) {
        self.origin = origin
        self.epoch = epoch
        instant = origin
    }

    public func now() -> Now {
        Now(monotonic: instant, clockReading: epoch + (instant - origin) + wallOffset, wallSynchronised: wallSynchronised)
    }

    public func watch(_ fd: CInt, _ handler: @escaping () -> Void) throws {
        precondition(handlers[fd] == nil, "descriptor \(fd) is already watched")
        handlers[fd] = handler
    }

    public func setWritable(_ fd: CInt, _ on: Bool) throws {
        precondition(handlers[fd] != nil, "descriptor \(fd) is not watched")
        if on { writable.insert(fd) } else { writable.remove(fd) }
    }

    public func unwatch(_ fd: CInt) throws {
        precondition(handlers[fd] != nil, "descriptor \(fd) is not watched")
        handlers[fd] = nil
        writable.remove(fd)
    }

    public func onClockStep(_ handler: @escaping () -> Void) { stepHandlers.append(handler) }

    /// Steps the wall clock by `d` (as NTP or `date -s` would), now;
    /// `synchronised` also sets what the kernel says of it from then on
    /// (an NTP client's first setting steps it and clears `STA_UNSYNC`).
    public func stepWall(by d: Duration, synchronised: Bool? = nil) {
        wallOffset = wallOffset + d
        if let synchronised { wallSynchronised = synchronised }
        for h in stepHandlers { h() }
    }

    /// Runs until the clock reads `end`: serves ready descriptors, then
    /// takes the next due timer, moving the clock to its deadline, until
    /// none is due by `end`.
    public func run(until end: Instant) {
        var repeats = 0
        while true {
            serveDescriptors()
            guard let next = timers.next(now()), next <= end else { break }
            repeats = next <= instant ? repeats + 1 : 0
            precondition(repeats < 10_000, "timers keep falling due at \(instant) without time passing")
            instant = max(instant, next + (lateness?(next) ?? .zero))
            timers.fireNext(now())
        }
        serveDescriptors()
        instant = max(instant, end)
    }

    public func advance(by d: Duration) { run(until: instant + d) }

    /// Serves the watched descriptors that are ready now (poll(2) without
    /// waiting), until none is.
    public func serveDescriptors() {
        for _ in 0..<10_000 {
            guard !handlers.isEmpty else { return }
            var fds = handlers.keys.sorted().map { pollfd(fd: $0, events: Int16(POLLIN) | (writable.contains($0) ? Int16(POLLOUT) : 0), revents: 0) }
            let n = poll(&fds, nfds_t(fds.count), 0)
            guard n > 0 else { return }
            for p in fds where p.revents != 0 { handlers[p.fd]?() }
        }
        preconditionFailure("a watched descriptor stays ready: its handler does not read it")
    }
}

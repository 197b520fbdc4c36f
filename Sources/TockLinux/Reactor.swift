import Glibc
import SystemPackage
import TockCore
import TockLoop

/// The appliance's single-threaded event loop: one epoll instance waiting
/// on a `CLOCK_BOOTTIME` timerfd (the next monotonic deadline), a
/// `CLOCK_REALTIME` timerfd (the next calendar deadline, which also reports
/// clock steps), a signalfd, and the descriptors the caller watches.
///
/// Nothing polls: with no deadline armed and no input, `run()` sleeps in
/// `epoll_wait` without a timeout and the process is never woken.
///
/// Create it before any other thread starts and run it on that thread
/// (see `SignalFD`). Everything here runs on that one thread, and no
/// access to the loop's state spans a handler's call: the run-time
/// exclusivity checks are left out of the per-wake-up state
/// (`@exclusivity(unchecked)`, as in `TimerQueue` and `Shell`); the
/// compile-time ones stay.
public final class Reactor: EventLoop {
    /// Counters for tests, benchmarks and the status log.
    public struct Stats: Equatable, Sendable {
        /// Returns from `epoll_wait` with at least one ready descriptor.
        public var wakeUps = 0
        /// Expirations read from the two timerfds (kernel counts, summed).
        public var timerExpirations: UInt64 = 0
        /// `timerfd_settime` calls: arming, disarming, re-arming.
        public var rearms = 0
        /// Signals read from the signalfd.
        public var signals = 0
        /// `ECANCELED` reads of the real-time timerfd.
        public var clockSteps = 0

        public init() {}
    }

    /// A deadline passed: the boottime one, the realtime one, or both;
    /// called once per wake-up however late the loop is. With `arm`, the
    /// kernel-level path the tests drive directly; the appliance's parts use
    /// timers (`EventLoop`).
    @exclusivity(unchecked) var onTimer: (() -> Void)?
    /// The real-time clock was stepped (parts hear of it through
    /// `onClockStep`). Watched at all times: with no wall deadline the
    /// real-time timerfd is armed for `stepWatch`, which never comes.
    @exclusivity(unchecked) var onClockStepped: (() -> Void)?
    /// One of the blocked signals arrived. When nil, a signal stops the
    /// loop: these signals ask for termination, and swallowing them would
    /// leave Ctrl-C without effect.
    @exclusivity(unchecked) public var onSignal: ((CInt) -> Void)?
    /// The monotonic deadline passed: called with it and with the
    /// `CLOCK_BOOTTIME` instant the loop woke (read as `epoll_wait`
    /// returned), before `onTimer`. Measures wake-up lateness
    /// (`--timing-log`); the clock is read only while this is set.
    @exclusivity(unchecked) public var onDeadlineWake: ((_ deadline: Instant, _ woke: Instant) -> Void)?

    @exclusivity(unchecked) public private(set) var stats = Stats()
    /// The parts' timers: after each wake-up the earliest of each clock is
    /// armed on the timerfds (see `EventLoop`).
    public let timers = TimerQueue()
    private let clock = SystemClock()
    private var stepHandlers: [() -> Void] = []

    private let epoll: Epoll
    private let boottimeTimer: TimerFD
    private let realtimeTimer: TimerFD
    private let signalFD: SignalFD
    @exclusivity(unchecked) private var monotonicDeadline = DeadlineState.disarmed
    @exclusivity(unchecked) private var wallDeadline = DeadlineState.disarmed
    /// Each watched descriptor's handler, at its number: descriptors are
    /// small and dense, and an array costs no hashing on each wake-up
    /// (nor the runtime's first look for `CInt: Hashable`, a quarter of a
    /// million instructions at start-up).
    @exclusivity(unchecked) private var handlers: [(() -> Void)?] = []
    @exclusivity(unchecked) private var isRunning = false
    /// The descriptors of the last wake-up (its storage kept from one
    /// wake-up to the next).
    @exclusivity(unchecked) private var ready: [FileDescriptor] = []
    @exclusivity(unchecked) private var stopRequested = false
    /// A clock step reported while arming rather than by a read; it is
    /// delivered before the loop next waits.
    @exclusivity(unchecked) private var stepFoundWhileArming = false
    /// The clock as the due timers were found, for the first read by the
    /// first of their handlers (`dispatch`).
    @exclusivity(unchecked) private var handedOver: Now?
    /// The real-time timerfd's deadline when no part asks for one: the end
    /// of the kernel's time (it never expires), armed with
    /// `TFD_TIMER_CANCEL_ON_SET` only so that a step is reported. Without
    /// it a step that came while no wall deadline was armed (NTP's first
    /// setting on a box counting a stopwatch) went unseen, and the state
    /// file kept instants read on the clock before the step.
    static let stepWatch = Int64.max

    /// Blocks `signals` on the calling thread (they arrive through
    /// `onSignal`) and opens the epoll instance and both timerfds.
    public init(signals: [CInt] = SignalFD.defaultSignals) throws {
        signalFD = try SignalFD(signals: signals)
        epoll = try Epoll()
        boottimeTimer = try TimerFD(clock: .boottime)
        realtimeTimer = try TimerFD(clock: .realtime)
        try epoll.add(signalFD.descriptor)
        try epoll.add(boottimeTimer.descriptor)
        try epoll.add(realtimeTimer.descriptor)
        if try realtimeTimer.arm(nanoseconds: Self.stepWatch) == .armedAfterClockStep { stepFoundWhileArming = true }
        wallDeadline = .armed(Self.stepWatch)
    }

    /// Calls `handler` on every wake-up while `fd` has input pending (or,
    /// see `setWritable`, room for output). The
    /// handler must read what is pending (epoll is level-triggered) and must
    /// not be given a descriptor that is already watched.
    public func watch(_ fd: CInt, _ handler: @escaping () -> Void) throws {
        precondition(fd >= 0 && handlerOf(fd) == nil && !isInternal(fd), "descriptor \(fd) is already watched by the reactor")
        try epoll.add(FileDescriptor(rawValue: fd))
        if handlers.count <= Int(fd) { handlers += Array(repeating: nil, count: Int(fd) + 1 - handlers.count) }
        handlers[Int(fd)] = handler
    }

    /// Also calls `fd`'s handler when `fd` can take more output, while
    /// `writable` is true (a socket with a backlog to send).
    public func setWritable(_ fd: CInt, _ writable: Bool) throws {
        precondition(handlerOf(fd) != nil, "descriptor \(fd) is not watched by the reactor")
        try epoll.modify(FileDescriptor(rawValue: fd), writable: writable)
    }

    public func now() -> Now {
        if case .some(let n) = handedOver {
            handedOver = nil
            return n
        }
        return clock.now()
    }

    private func handlerOf(_ fd: CInt) -> (() -> Void)? {
        fd >= 0 && Int(fd) < handlers.count ? handlers[Int(fd)] : nil
    }

    public func onClockStep(_ handler: @escaping () -> Void) { stepHandlers.append(handler) }

    /// Stops watching `fd`; call it before closing `fd`. A handler may
    /// unwatch descriptors, its own included.
    public func unwatch(_ fd: CInt) throws {
        precondition(handlerOf(fd) != nil, "descriptor \(fd) is not watched by the reactor")
        handlers[Int(fd)] = nil
        try epoll.remove(FileDescriptor(rawValue: fd))
    }

    /// Arm the wake-up deadlines (absolute). nil disarms the boottime
    /// timerfd and leaves the realtime one armed for `stepWatch` (clock
    /// steps are watched at all times). Re-arms a timerfd only when its
    /// deadline changed (no syscall otherwise).
    ///
    /// A deadline that has already been reported through `onTimer` counts
    /// as unchanged, so handing the same past deadline back does not wake
    /// the loop again. Called after
    /// each wake-up with the timers' earliest deadlines; the tests call it
    /// directly to drive the timerfds.
    func arm(monotonic: Instant?, wall: WallTime?) throws {
        try update(boottimeTimer, &monotonicDeadline, to: monotonic?.nanoseconds)
        try update(realtimeTimer, &wallDeadline, to: wall?.nanoseconds ?? Self.stepWatch)
    }

    /// Waits for and dispatches events until `stop()` is called. Each
    /// wake-up drains the timerfds and the signalfd, then calls, in order:
    /// `onSignal` per signal, the handlers of ready watched descriptors,
    /// `onClockStepped`, and `onTimer` at most once.
    public func run() throws {
        precondition(!isRunning, "Reactor.run() called from inside a handler")
        isRunning = true
        defer {
            isRunning = false
            stopRequested = false
        }
        while !stopRequested {
            // Armed before each wait, the first included: the parts
            // scheduled their timers before the loop ran, and handlers
            // reschedule theirs while it runs.
            try armTimers()
            if stepFoundWhileArming {
                stepFoundWhileArming = false
                stats.clockSteps += 1
                clockWasStepped()
                continue
            }
            try epoll.wait(into: &ready, timeout: nil)
            let woke = onDeadlineWake == nil ? nil : Instant(nanoseconds: Syscall.clockNanoseconds(CLOCK_BOOTTIME))
            try dispatch(ready, wokeAt: woke)
        }
    }

    /// Makes `run()` return once the current wake-up has been dispatched.
    /// Called while the loop is not running, the next `run()` returns at
    /// once.
    public func stop() { stopRequested = true }

    // MARK: dispatch

    private func dispatch(_ ready: [FileDescriptor], wokeAt woke: Instant?) throws {
        stats.wakeUps += 1
        var deadlinePassed = false
        var clockStepped = false
        var signals: [CInt] = []
        var watched: [CInt] = []
        for fd in ready {
            switch fd {
            case boottimeTimer.descriptor:
                let due = monotonicDeadline
                guard try drain(boottimeTimer, &monotonicDeadline) else { continue }
                deadlinePassed = true
                if let woke, case .armed(let ns) = due { onDeadlineWake?(Instant(nanoseconds: ns), woke) }
            case realtimeTimer.descriptor:
                switch try realtimeTimer.read() {
                case .expired(let count):
                    stats.timerExpirations += count
                    wallDeadline.expired()
                    deadlinePassed = true
                case .clockStepped:
                    stats.clockSteps += 1
                    clockStepped = true
                    try reprogramAfterStep()
                case .nothing:
                    break
                }
            case signalFD.descriptor:
                signals += try signalFD.read()
            default:
                watched.append(fd.rawValue)
            }
        }
        stats.signals += signals.count
        for signal in signals {
            if let onSignal { onSignal(signal) } else { stop() }
        }
        for fd in watched {
            // Looked up now: an earlier handler may have unwatched it.
            handlerOf(fd)?()
        }
        if clockStepped { clockWasStepped() }
        if deadlinePassed { onTimer?() }
        // A timer falls due only by a timerfd's expiry (each is armed for
        // the earliest before every wait, a past one fires at once): an
        // input alone costs no clock read here.
        //
        // The reading that finds the timers due is the first one their
        // handlers get (`now`): a timer's handler reads the clock first, and
        // the shell's tick is one read cheaper for it. Any later read, or a
        // handler after the first, reads the clock again.
        if deadlinePassed || clockStepped {
            let now = clock.now()
            handedOver = now
            timers.fireDue(now) { handedOver = nil }
            handedOver = nil
        }
    }

    private func clockWasStepped() {
        SystemClock.clockChanged()
        onClockStepped?()
        for h in stepHandlers { h() }
    }

    /// Arms the timerfds for the earliest timers. A deadline the kernel has
    /// delivered was consumed by the timers it fired: one scheduled again
    /// for that same instant is a new wake-up (a part that keeps asking
    /// for a past instant must not, see `Shell`).
    private func armTimers() throws {
        if case .delivered = wallDeadline { wallDeadline = .disarmed }
        guard timers.scheduled > 0 else {
            // Armed by hand (`arm`), or nothing to arm: steps are still watched.
            if wallDeadline == .disarmed { try update(realtimeTimer, &wallDeadline, to: Self.stepWatch) }
            return
        }
        if case .delivered = monotonicDeadline { monotonicDeadline = .disarmed }
        let e = timers.earliest
        try arm(monotonic: e.monotonic, wall: e.wall)
    }

    private func drain(_ timer: TimerFD, _ state: inout DeadlineState) throws -> Bool {
        guard case .expired(let count) = try timer.read() else { return false }
        stats.timerExpirations += count
        state.expired()
        return true
    }

    /// timerfd_create(2): after a clock step the read fails with
    /// `ECANCELED`, and fs/timerfd.c discards an expiry it had counted (a
    /// step past the deadline fires the timer and cancels it at once).
    /// Arming the same deadline again makes the kernel fire it now if it
    /// has passed, and keeps step detection on. A deadline already
    /// delivered may lie ahead again after a step back, so it is forgotten:
    /// the caller re-evaluates and arms what it still needs.
    private func reprogramAfterStep() throws {
        switch wallDeadline {
        case .armed(let ns):
            try program(realtimeTimer, ns)
        case .delivered:
            wallDeadline = .disarmed
        case .disarmed:
            break
        }
    }

    private func update(_ timer: TimerFD, _ state: inout DeadlineState, to deadline: Int64?) throws {
        switch state.transition(to: deadline) {
        case .none:
            break
        case .arm(let ns):
            try program(timer, ns)
        case .disarm:
            try timer.disarm()
            stats.rearms += 1
        }
    }

    private func program(_ timer: TimerFD, _ ns: Int64) throws {
        stats.rearms += 1
        if try timer.arm(nanoseconds: ns) == .armedAfterClockStep {
            stepFoundWhileArming = true
        }
    }

    private func isInternal(_ fd: CInt) -> Bool {
        fd == boottimeTimer.descriptor.rawValue || fd == realtimeTimer.descriptor.rawValue
            || fd == signalFD.descriptor.rawValue
    }
}

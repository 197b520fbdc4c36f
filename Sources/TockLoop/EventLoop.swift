import TockCore

/// What the appliance's parts run on: descriptors to watch, timers to
/// schedule, the clocks to read. `Reactor` (TockLinux) is the real one:
/// epoll, two timerfds and a signalfd. `VirtualLoop` runs the same parts on
/// virtual time for the simulator and the tests. Everything is called on
/// the loop's one thread.
///
/// Each part owns its timers and schedules its own deadlines on them; the
/// loop alone knows which comes first.
public protocol EventLoop: AnyObject {
    /// Both clocks, now.
    func now() -> Now
    /// Calls `handler` whenever `fd` has input pending (level-triggered:
    /// the handler must read it), and also when it can take output while
    /// `setWritable(fd, true)`.
    func watch(_ fd: CInt, _ handler: @escaping () -> Void) throws
    func setWritable(_ fd: CInt, _ writable: Bool) throws
    /// Stops watching `fd`; call it before closing `fd`.
    func unwatch(_ fd: CInt) throws
    /// The loop's timers, in the order due (time, then scheduling order).
    var timers: TimerQueue { get }
    /// Calls `handler` after the wall clock was stepped (NTP, `date -s`):
    /// calendar deadlines are re-evaluated by the loop itself; this is for
    /// parts that show or judge the wall time.
    func onClockStep(_ handler: @escaping () -> Void)
}

extension EventLoop {
    /// A timer that calls `fire` each time its deadline passes, until it is
    /// cancelled. It starts unscheduled.
    public func makeTimer(_ fire: @escaping () -> Void) -> LoopTimer { timers.makeTimer(fire) }

    /// Calls `work` once, at `deadline` (the queue holds the timer until then).
    public func schedule(at deadline: Deadline, _ work: @escaping () -> Void) {
        timers.makeTimer(work).schedule(deadline)
    }
}

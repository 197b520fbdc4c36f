import Glibc
import SystemPackage
import Testing
@testable import TockLinux
import TockLoop
import TockCore

/// The reactor against the real kernel: timerfds, signalfd, epoll. Every
/// wait is bounded by a timer the test arms; timings are printed, and only
/// what cannot depend on machine load is asserted.
@Suite(.serialized)
struct ReactorTests {
    let clock = SystemClock()

    @Test func deadlineAheadFiresOnceAndNotBeforeIt() throws {
        let reactor = try Reactor()
        let deadline = clock.now().monotonic + .milliseconds(20)
        var firedAt: [Instant] = []
        reactor.onTimer = { [clock] in firedAt.append(clock.now().monotonic) }
        try reactor.arm(monotonic: deadline, wall: nil)
        let stopTimer = try StopTimer(reactor, at: deadline + .milliseconds(30))

        try reactor.run()

        #expect(stopTimer.fired)
        #expect(firedAt.count == 1)
        #expect(reactor.stats.timerExpirations == 1)
        #expect(firedAt.allSatisfy { $0 >= deadline })
        if let first = firedAt.first {
            print("deadline 20 ms ahead: onTimer \(millisecondsText(first - deadline)) after the deadline;",
                  "stats \(reactor.stats)")
        }
    }

    /// onDeadlineWake reports the armed deadline and an instant read as the
    /// loop woke, before onTimer runs; the clock is not read without it.
    @Test func aDeadlineWakeReportsTheDeadlineAndWhenTheLoopWoke() throws {
        let reactor = try Reactor()
        let deadline = clock.now().monotonic + .milliseconds(10)
        var reports: [(Instant, Instant)] = []
        var timerSawReport = false
        reactor.onDeadlineWake = { reports.append(($0, $1)) }
        reactor.onTimer = { timerSawReport = reports.count == 1 }
        try reactor.arm(monotonic: deadline, wall: nil)
        _ = try StopTimer(reactor, at: deadline + .milliseconds(30))

        try reactor.run()

        #expect(reports.count == 1)
        #expect(reports.first?.0 == deadline)
        #expect((reports.first?.1 ?? .zero) >= deadline)
        #expect(timerSawReport)
        if let (due, woke) = reports.first { print("deadline wake: woke \(millisecondsText(woke - due)) after the deadline") }
    }

    @Test func deadlineLongPastFiresExactlyOnce() throws {
        let reactor = try Reactor()
        let now = clock.now().monotonic
        let deadline = now - .seconds(2)
        var calls = 0
        reactor.onTimer = { calls += 1 }
        try reactor.arm(monotonic: deadline, wall: nil)
        _ = try StopTimer(reactor, at: now + .milliseconds(30))

        try reactor.run()

        #expect(calls == 1)
        #expect(reactor.stats.timerExpirations == 1)
        print("deadline 2 s in the past: \(calls) onTimer call, stats \(reactor.stats)")

        // The delivered deadline handed back again costs nothing and does
        // not wake the loop a second time.
        let rearms = reactor.stats.rearms
        try reactor.arm(monotonic: deadline, wall: nil)
        #expect(reactor.stats.rearms == rearms)
        _ = try StopTimer(reactor, at: clock.now().monotonic + .milliseconds(30))
        try reactor.run()
        #expect(calls == 1)
        #expect(reactor.stats.timerExpirations == 1)
    }

    @Test func sameDeadlineIsNotReprogrammed() throws {
        let reactor = try Reactor()
        let now = clock.now()
        let deadline = now.monotonic + .seconds(60)
        let wall = now.wall + .seconds(60)

        try reactor.arm(monotonic: deadline, wall: nil)
        #expect(reactor.stats.rearms == 1)
        try reactor.arm(monotonic: deadline, wall: nil)
        #expect(reactor.stats.rearms == 1)
        try reactor.arm(monotonic: deadline, wall: wall)
        #expect(reactor.stats.rearms == 2)
        try reactor.arm(monotonic: deadline, wall: wall)
        #expect(reactor.stats.rearms == 2)
        try reactor.arm(monotonic: deadline + .seconds(1), wall: wall)
        #expect(reactor.stats.rearms == 3)
        try reactor.arm(monotonic: nil, wall: nil)
        #expect(reactor.stats.rearms == 5)
        try reactor.arm(monotonic: nil, wall: nil)
        #expect(reactor.stats.rearms == 5)
    }

    @Test func nothingArmedWakesOnlyForInput() throws {
        let reactor = try Reactor()
        let pipe = try TestPipe()
        var timerCalls = 0
        var received: [UInt8] = []
        reactor.onTimer = { timerCalls += 1 }
        try reactor.watch(pipe.readEnd.rawValue) { [unowned reactor] in
            received += (try? pipe.receive()) ?? []
            reactor.stop()
        }
        try pipe.send([42])

        try reactor.run()

        #expect(received == [42])
        #expect(reactor.stats.wakeUps == 1)
        #expect(reactor.stats.timerExpirations == 0)
        #expect(timerCalls == 0)
    }

    @Test func nothingArmedSleepsThroughABoundedWait() throws {
        let reactor = try Reactor()
        var timerCalls = 0
        reactor.onTimer = { timerCalls += 1 }
        let start = clock.now().monotonic
        let stopTimer = try StopTimer(reactor, at: start + .milliseconds(50))

        try reactor.run()

        let elapsed = clock.now().monotonic - start
        #expect(stopTimer.fired)
        #expect(reactor.stats.wakeUps == 1)
        #expect(reactor.stats.timerExpirations == 0)
        #expect(timerCalls == 0)
        print("nothing armed: \(reactor.stats.wakeUps) wake-up in \(millisecondsText(elapsed)) (the stop timer's)")
    }

    @Test func disarmedDeadlineDoesNotFire() throws {
        let reactor = try Reactor()
        let now = clock.now().monotonic
        var timerCalls = 0
        reactor.onTimer = { timerCalls += 1 }
        try reactor.arm(monotonic: now + .milliseconds(10), wall: nil)
        try reactor.arm(monotonic: nil, wall: nil)
        _ = try StopTimer(reactor, at: now + .milliseconds(40))

        try reactor.run()

        #expect(timerCalls == 0)
        #expect(reactor.stats.timerExpirations == 0)
        #expect(reactor.stats.rearms == 2)
    }

    @Test func wallDeadlineInThePastFiresOnce() throws {
        let reactor = try Reactor()
        let now = clock.now()
        var calls = 0
        var steps = 0
        reactor.onTimer = { calls += 1 }
        reactor.onClockStepped = { steps += 1 }
        try reactor.arm(monotonic: nil, wall: now.wall - .seconds(2))
        _ = try StopTimer(reactor, at: now.monotonic + .milliseconds(30))

        try reactor.run()

        #expect(calls == 1)
        #expect(steps == 0)
        #expect(reactor.stats.timerExpirations == 1)
        #expect(reactor.stats.clockSteps == 0)
        print("wall deadline 2 s in the past: \(calls) onTimer call, stats \(reactor.stats)")
    }

    /// A step of the real-time clock is reported with no wall deadline
    /// armed: NTP's first setting while the box counts a stopwatch and has
    /// no alarm (the state file's instants must follow the step, or a
    /// restart after it moved the count by the step). The step is made:
    /// the clock set 10 µs ahead of what it read, forward, so no other
    /// reader sees time go back. It needs CAP_SYS_TIME: root, as make test
    /// runs; without root the test is skipped and says why.
    @Test(.enabled(if: geteuid() == 0, "setting CLOCK_REALTIME needs root (CAP_SYS_TIME): run as make test does"))
    func aClockStepIsReportedWithNoWallDeadlineArmed() throws {
        let reactor = try Reactor()
        var steps = 0
        var timerCalls = 0
        reactor.onClockStepped = { steps += 1 }
        reactor.onTimer = { timerCalls += 1 }
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        ts.tv_nsec += 10_000
        if ts.tv_nsec >= 1_000_000_000 { ts.tv_sec += 1; ts.tv_nsec -= 1_000_000_000 }
        let rc = clock_settime(CLOCK_REALTIME, &ts)
        try #require(rc == 0, "clock_settime(CLOCK_REALTIME): errno \(errno) (CAP_SYS_TIME)")
        _ = try StopTimer(reactor, at: clock.now().monotonic + .milliseconds(200))

        try reactor.run()

        #expect(steps == 1)
        #expect(reactor.stats.clockSteps == 1)
        // The watch's deadline is the end of time: it never fires.
        #expect(timerCalls == 0)
        #expect(reactor.stats.timerExpirations == 0)
    }

    @Test func bothDeadlinesPassedCallOnTimerOncePerWakeUp() throws {
        let reactor = try Reactor()
        let now = clock.now()
        var calls = 0
        reactor.onTimer = { calls += 1 }
        try reactor.arm(monotonic: now.monotonic - .seconds(1), wall: now.wall - .seconds(1))
        _ = try StopTimer(reactor, at: now.monotonic + .milliseconds(30))

        try reactor.run()

        // Both timers are normally ready in the same wake-up (one call);
        // a preempted test may see them in two.
        #expect(reactor.stats.timerExpirations == 2)
        #expect(calls >= 1 && calls <= 2)
        #expect(calls <= reactor.stats.wakeUps - 1)
        print("both deadlines passed: \(calls) onTimer call(s) for 2 expirations, stats \(reactor.stats)")
    }

    @Test func raisedSignalArrivesThroughOnSignal() throws {
        let reactor = try Reactor()
        var received: [CInt] = []
        reactor.onSignal = { [unowned reactor] signal in
            received.append(signal)
            reactor.stop()
        }
        // Thread-directed (raise(3)); this thread blocks SIGHUP, so without
        // the signalfd it would stay pending rather than end the process.
        #expect(raise(SIGHUP) == 0)

        try reactor.run()

        #expect(received == [SIGHUP])
        #expect(reactor.stats.signals == 1)
    }

    @Test func signalWithoutHandlerStopsTheLoop() throws {
        let reactor = try Reactor(signals: [SIGHUP])
        #expect(raise(SIGHUP) == 0)

        try reactor.run()

        #expect(reactor.stats.signals == 1)
        #expect(reactor.stats.wakeUps == 1)
    }

    @Test func handlerMayUnwatchADescriptorReadyInTheSameWakeUp() throws {
        let reactor = try Reactor()
        let first = try TestPipe()
        let second = try TestPipe()
        var calls: [String] = []
        try reactor.watch(first.readEnd.rawValue) { [unowned reactor] in
            calls.append("first")
            try? reactor.unwatch(second.readEnd.rawValue)
            reactor.stop()
        }
        try reactor.watch(second.readEnd.rawValue) { [unowned reactor] in
            calls.append("second")
            try? reactor.unwatch(first.readEnd.rawValue)
            reactor.stop()
        }
        try first.send([1])
        try second.send([2])

        try reactor.run()

        #expect(calls.count == 1)
        #expect(reactor.stats.wakeUps == 1)
    }

    /// Timers scheduled before `run()` (as the box schedules its first
    /// wake-ups) are armed before the first wait: no input is needed.
    @Test func timersScheduledBeforeRunFireWithNothingElseHappening() throws {
        let reactor = try Reactor()
        let start = reactor.now()
        var fired: [String] = []
        reactor.schedule(at: .monotonic(start.monotonic + .milliseconds(30))) { fired.append("monotonic") }
        reactor.schedule(at: .wall(start.wall + .milliseconds(10))) { fired.append("wall") }
        reactor.schedule(at: .monotonic(start.monotonic + .milliseconds(50))) { [unowned reactor] in reactor.stop() }
        // Were the timers not armed, only this would wake the loop, 5 s on:
        // a timerfd of the test's own, watched as any descriptor is.
        let guardTimer = try TimerFD(clock: .boottime)
        try guardTimer.arm(at: start.monotonic + .seconds(5))
        var nudged = false
        try reactor.watch(guardTimer.descriptor.rawValue) { [unowned reactor] in
            _ = try? guardTimer.read()
            nudged = true
            reactor.stop()
        }
        try reactor.run()
        #expect(!nudged, "the loop slept until another descriptor woke it")
        #expect(fired == ["wall", "monotonic"])
        #expect(reactor.timers.fired == 3)
        #expect(reactor.now().monotonic >= start.monotonic + .milliseconds(50))
    }

    /// A part that keeps a backlog takes one item per wake-up, each its own
    /// turn of the loop, and the loop then sleeps.
    @Test func aTimerThatSchedulesItselfForNowRunsOncePerWakeUp() throws {
        let reactor = try Reactor()
        var left = 5
        var timer: LoopTimer!
        timer = reactor.makeTimer { [unowned reactor] in
            left -= 1
            if left > 0 { timer.schedule(at: reactor.now().monotonic) } else { reactor.stop() }
        }
        timer.schedule(at: reactor.now().monotonic)
        try reactor.run()
        #expect(left == 0)
        #expect(reactor.stats.wakeUps == 5)
    }

    /// The reading that found the timers due is the first read of their
    /// first handler, and only that: the handler's next read, the next
    /// handler's and a read outside the loop read the clock again.
    @Test func theFirstHandlersFirstReadIsTheOneThatFoundItDue() throws {
        let reactor = try Reactor()
        let due = reactor.now().monotonic + .milliseconds(5)
        var reads: [Instant] = []
        let first = reactor.makeTimer { [unowned reactor] in
            reads.append(reactor.now().monotonic)
            let spin = reads[0] + .milliseconds(2)
            while SystemClock().monotonic() < spin {}  // time passes inside the handler
            reads.append(reactor.now().monotonic)
        }
        let second = reactor.makeTimer { [unowned reactor] in
            reads.append(reactor.now().monotonic)
            reactor.stop()
        }
        first.schedule(at: due)
        second.schedule(at: due)
        try reactor.run()
        #expect(reads.count == 3)
        guard reads.count == 3 else { return }
        #expect(reads[0] >= due)
        // The handler's second read and the second handler's are fresh:
        // both after the time spent in the first handler.
        #expect(reads[1] >= reads[0] + .milliseconds(2))
        #expect(reads[2] >= reads[1])
        #expect(reactor.now().monotonic >= reads[2])
    }
}

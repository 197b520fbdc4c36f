import Testing
@testable import TockCore

/// Daily alarms when the wall clock is set late: a box that boots before
/// NTP has answered, with its clock slow (fake-hwclock's time of the last
/// shutdown) or fast (a wrong RTC), and the first synchronisation steps it.
/// No alarm is rung twice, and none is skipped without a notice, on virtual
/// time with steps forward and back around the alarm (Europe/Berlin).
@Suite struct ClockSyncTests {
    let berlin: ZoneRules

    init() throws { berlin = try zone("Europe/Berlin") }

    func local(_ y: Int, _ m: Int, _ d: Int, _ h: Int, _ mi: Int, _ s: Int = 0) -> WallTime {
        WallTime(secondsSince1970: berlin.instant(of: CivilDate(year: y, month: m, day: d), second: h * 3600 + mi * 60 + s))
    }

    func settings(_ at: String = "06:45") -> Settings {
        var s = Settings.timer()
        s.clock.zone = berlin
        s.alarms = [DailyAlarm(minute: try! DailyAlarm.parseTime(at), days: try! DailyAlarm.parseDays(["daily"]), label: "")]
        return s
    }

    /// A box switched on `fastBy` ahead of the true time `truth`, not synchronised.
    func booted(at truth: WallTime, fastBy: Duration, restoring snapshot: Snapshot? = nil) -> VirtualMachine {
        var v = VirtualMachine(settings(), epoch: truth + fastBy, restoring: snapshot)
        v.synchronised = false
        return v
    }

    var missed: (AlarmClock.Notice) -> Bool { { if case .missed = $0 { true } else { false } } }

    // MARK: - A clock that was fast

    @Test func aClockFastAtBootThatNTPSetsBackStillRingsTheAlarmAtItsTrueTime() {
        // True 06:00; the clock reads 07:00, past today's 06:45.
        var v = booted(at: local(2026, 11, 26, 6, 0), fastBy: .seconds(3600))
        v.run(to: 600)
        #expect(v.rang.isEmpty)
        v.synchronised = true
        v.stepClock(by: .seconds(-3600), at: 600)  // NTP answers at true 06:10
        v.run(to: 3600)
        #expect(v.rang == [at(2700)])  // 06:45, true time
        #expect(v.notices.filter(missed).isEmpty)
    }

    @Test func aMissReportedOnAFastClockAfterARestartRingsWhenTheClockIsSetBack() {
        // Yesterday's alarm rang and was dismissed; the state file keeps it.
        var before = VirtualMachine(settings(), epoch: local(2026, 11, 25, 6, 44))
        before.press(.reset, at: 70)
        #expect(before.rang == [at(60)])
        let snap = before.core.snapshot(at: before.clock)
        // Today the box comes up at true 06:00 with its clock an hour fast:
        // 06:45 looks 15 minutes past, and is reported missed.
        var v = booted(at: local(2026, 11, 26, 6, 0), fastBy: .seconds(3600), restoring: snap)
        v.run(to: 1)
        #expect(v.notices.filter(missed).count == 1)
        v.synchronised = true
        v.stepClock(by: .seconds(-3600), at: 300)
        v.run(to: 3600)
        #expect(v.rang == [at(2700)])
    }

    @Test func anAlarmThatRangOnAFastClockDoesNotRingAgainWhenTheClockIsSetBack() {
        // The clock reads 06:44 at true 05:44: it rings at 06:45 as it reads.
        var v = booted(at: local(2026, 11, 26, 5, 44), fastBy: .seconds(3600))
        v.run(to: 61)
        #expect(v.rang == [at(60)])
        v.press(.reset, at: 62)
        v.synchronised = true
        v.stepClock(by: .seconds(-3600), at: 100)  // true 05:45:40
        v.run(to: 4 * 3600)
        #expect(v.rang == [at(60)])  // not at true 06:45 again
        #expect(v.core.alarms.entries[0].next == local(2026, 11, 27, 6, 45))
    }

    @Test func aSkippedOccurrenceStaysSkippedAcrossAStepBack() throws {
        var v = booted(at: local(2026, 11, 26, 6, 0), fastBy: .seconds(600))  // reads 06:10
        try v.request(.editAlarms(.skipNext(1)))
        v.stepClock(by: .seconds(-600), at: 60)
        v.run(to: 3600)
        #expect(v.rang.isEmpty)
        #expect(v.core.alarms.entries[0].next == local(2026, 11, 27, 6, 45))
    }

    // MARK: - A clock that was slow

    @Test func aClockSlowAtBootSetForwardBeforeTheAlarmRingsItOnce() {
        // True 06:00; the clock reads 22:00 the evening before (the last shutdown).
        var v = booted(at: local(2026, 11, 26, 6, 0), fastBy: .seconds(-8 * 3600))
        v.run(to: 300)
        v.synchronised = true
        v.stepClock(by: .seconds(8 * 3600), at: 300)
        v.run(to: 2 * 3600)
        #expect(v.rang == [at(2700)])
        #expect(v.notices.filter(missed).isEmpty)
    }

    @Test func aClockSetForwardJustPastTheAlarmRingsItAtOnceAndFarPastReportsItMissed() {
        // NTP answers 30 s after the alarm's true time: it rings from the step.
        var late = booted(at: local(2026, 11, 26, 6, 40), fastBy: .seconds(-3600))
        late.synchronised = true
        late.stepClock(by: .seconds(3600), at: 330)  // true 06:45:30
        #expect(late.rang == [at(330)])
        // 10 minutes after: never silent, the notice says it was missed.
        var far = booted(at: local(2026, 11, 26, 6, 40), fastBy: .seconds(-3600))
        far.synchronised = true
        far.stepClock(by: .seconds(3600), at: 900)
        far.run(to: 3600)
        #expect(far.rang.isEmpty)
        #expect(far.notices.filter(missed).count == 1)
    }

    // MARK: - Back and forth

    @Test func stepsBackAndForthAroundAnAlarmRingItExactlyOnce() {
        var v = VirtualMachine(settings(), epoch: local(2026, 11, 26, 6, 44))
        v.synchronised = false
        v.stepClock(by: .seconds(90), at: 10)  // 06:45:40: 40 s late, rings
        #expect(v.rang == [at(10)])
        v.press(.reset, at: 20)
        v.stepClock(by: .seconds(-120), at: 30)  // 06:44:00 again
        v.stepClock(by: .seconds(120), at: 40)  // 06:46:10
        v.stepClock(by: .seconds(-90), at: 50)  // 06:44:50
        v.synchronised = true
        v.run(to: 3 * 3600)
        #expect(v.rang == [at(10)])
        #expect(v.notices.filter(missed).isEmpty)
    }
}

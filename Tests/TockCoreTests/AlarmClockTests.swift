import Foundation
import Testing
@testable import TockCore

/// Daily alarms and the idle clock, through the whole core on virtual
/// time, in Europe/Berlin.
@Suite struct AlarmClockTests {
    let berlin: ZoneRules

    init() throws { berlin = try zone("Europe/Berlin") }

    /// A Berlin local date-time as a wall instant (the first, if it occurs twice).
    func local(_ y: Int, _ m: Int, _ d: Int, _ h: Int, _ mi: Int, _ s: Int = 0) -> WallTime {
        WallTime(secondsSince1970: berlin.instant(of: CivilDate(year: y, month: m, day: d), second: h * 3600 + mi * 60 + s))
    }

    func settings(_ alarms: [DailyAlarm], idle: Bool = false, presets: [Duration] = [.seconds(300)]) -> Settings {
        var s = Settings.timer(presets)
        s.clock.zone = berlin
        s.alarms = alarms
        s.display.idleClock = idle
        return s
    }

    func alarm(_ text: String, _ days: String = "daily", label: String = "") -> DailyAlarm {
        DailyAlarm(minute: try! DailyAlarm.parseTime(text), days: try! DailyAlarm.parseDays([days]), label: label)
    }

    // MARK: - When an alarm rings

    @Test func ringsAtItsTimeOnItsDaysOnlyAndFallsSilentAfterRingFor() {
        // Friday 2026-11-27 06:00, an alarm at 06:45 on weekdays.
        var v = VirtualMachine(settings([alarm("06:45", "mon-fri")]), epoch: local(2026, 11, 27, 6, 0))
        v.run(to: 4 * 86_400)
        #expect(v.rang == [at(2700), at(3 * 86_400 + 2700)])  // Friday and Monday
        #expect(v.notices.filter { if case .silenced = $0 { true } else { false } }.count == 2)
        #expect(v.times { if case .report(.alarm(.silenced)) = $0 { true } else { false } } == [at(2760), at(3 * 86_400 + 2760)])
    }

    @Test func onASpringForwardDayATimeInTheGapRingsWhenTheGapEnds() {
        // 2026-03-29: 02:00 CET becomes 03:00 CEST; 02:30 never happens.
        var v = VirtualMachine(settings([alarm("02:30")]), epoch: local(2026, 3, 29, 0, 0))
        v.run(to: 4 * 3600)
        #expect(v.rang == [at(7200)])  // two real hours after midnight: 03:00 CEST
        #expect(v.displays.contains("03:00"))
    }

    @Test func onAFallBackDayATimeThatOccursTwiceRingsOnceAtTheFirst() {
        // 2026-10-25: 03:00 CEST becomes 02:00 CET; 02:30 happens twice.
        var v = VirtualMachine(settings([alarm("02:30")]), epoch: local(2026, 10, 25, 0, 0))
        v.run(to: 6 * 3600)
        #expect(v.rang == [at(2.5 * 3600)])
    }

    @Test func aClockSteppedForwardPastAnAlarmRingsItAtOnceWhenLessThanRingForLate() {
        var v = VirtualMachine(settings([alarm("06:45")]), epoch: local(2026, 11, 23, 6, 40))
        v.stepClock(by: .seconds(320), at: 10)  // now 06:45:30, 30 s late
        #expect(v.rang == [at(10)])
        v.run(to: 200)
        // It was never heard, so the whole ring time is owed from the step.
        #expect(v.times { if case .report(.alarm(.silenced)) = $0 { true } else { false } } == [at(70)])
    }

    @Test func aClockSteppedFarPastAnAlarmLogsItMissed() {
        var v = VirtualMachine(settings([alarm("06:45", label: "work")]), epoch: local(2026, 11, 23, 6, 40))
        v.stepClock(by: .seconds(3600), at: 10)
        v.run(to: 3600)
        #expect(v.rang.isEmpty)
        #expect(v.notices == [.missed(alarm("06:45", label: "work"), at: local(2026, 11, 23, 6, 45))])
    }

    @Test func aStepIsRecognisedEvenBeforeItIsReported() {
        // The tick arrives before the reactor's step notice: same rule.
        var v = VirtualMachine(settings([alarm("06:45")]), epoch: local(2026, 11, 23, 6, 40))
        v.run(to: 10)
        v.wallOffset = .seconds(3600)
        v.take(v.core.handle(.wake, at: v.clock))
        #expect(v.rang.isEmpty)
        #expect(v.notices.count == 1)
    }

    @Test func aClockSteppedBackDoesNotRingAnAlarmTwice() {
        var v = VirtualMachine(settings([alarm("06:45")]), epoch: local(2026, 11, 23, 6, 44))
        v.run(to: 61)
        #expect(v.rang == [at(60)])
        v.press(.reset, at: 62)  // dismiss
        v.stepClock(by: .seconds(-300), at: 100)  // 06:40:40 again
        v.run(to: 3600)
        #expect(v.rang == [at(60)])
    }

    @Test func aBoxSwitchedOnAfterAnAlarmsTimeDoesNotRingIt() {
        var v = VirtualMachine(settings([alarm("06:45")]), epoch: local(2026, 11, 23, 6, 45, 1))
        v.run(to: 3600)
        #expect(v.rang.isEmpty)
        #expect(v.core.alarms.entries[0].next == local(2026, 11, 24, 6, 45))
    }

    // MARK: - Restarts

    @Test func aRestartAcrossTheAlarmTimeStillRingsButALongPowerCutMissesIt() {
        var before = VirtualMachine(settings([alarm("06:45")]), epoch: local(2026, 11, 23, 6, 44))
        before.run(to: 50)
        let snap = before.core.snapshot(at: before.clock)
        // Back 20 s later (10 s late): it rings at once.
        var brief = VirtualMachine(settings([alarm("06:45")]), epoch: local(2026, 11, 23, 6, 45, 10), restoring: snap)
        brief.run(to: 1)
        #expect(brief.rang == [at(0)])
        // Back at 07:30: missed, logged, and tomorrow's is next.
        var long = VirtualMachine(settings([alarm("06:45")]), epoch: local(2026, 11, 23, 7, 30), restoring: snap)
        long.run(to: 1)
        #expect(long.rang.isEmpty)
        #expect(long.notices.count == 1)
        #expect(long.core.alarms.entries[0].next == local(2026, 11, 24, 6, 45))
    }

    @Test func aSnoozeSurvivesARestart() {
        var v = VirtualMachine(settings([alarm("06:45")]), epoch: local(2026, 11, 23, 6, 44))
        v.press(.stop, at: 65)  // snooze 9 min: rings again at 06:54:05
        let snap = v.core.snapshot(at: v.clock)
        var after = VirtualMachine(settings([alarm("06:45")]), epoch: local(2026, 11, 23, 6, 50), restoring: snap)
        after.run(to: 600)
        #expect(after.rang == [at(245)])
    }

    @Test func anEditedFileReplacesTheRememberedAlarms() {
        var v = VirtualMachine(settings([alarm("06:45")]), epoch: local(2026, 11, 23, 6, 0))
        _ = v.core.handle(.editAlarms(.add(alarm("07:00"))), at: v.clock)
        let snap = v.core.snapshot(at: v.clock)
        #expect(VirtualMachine(settings([alarm("06:45")]), restoring: snap).core.alarms.entries.count == 2)
        #expect(VirtualMachine(settings([alarm("06:30")]), restoring: snap).core.alarms.entries.map(\.alarm.minute) == [390])
    }

    // MARK: - Buttons while ringing

    @Test func stopSnoozesWithACountDownResetAndStartDismiss() {
        var v = VirtualMachine(settings([alarm("06:45")]), epoch: local(2026, 11, 23, 6, 44))
        v.press(.stop, at: 62)
        #expect(!v.buzzing)
        #expect(v.display == "09:00")  // the count-down to the re-ring
        v.run(to: 603)
        #expect(v.rang == [at(60), at(602)])
        v.press(.reset, at: 610)
        #expect(!v.buzzing)
        #expect(v.core.alarms.state == .quiet)
        v.run(to: 2000)
        #expect(v.rang.count == 2)
        // Start dismisses too (the next day).
        v.run(to: 86_400 + 61)
        v.press(.start, at: 86_400 + 62)
        #expect(v.core.alarms.state == .quiet)
        #expect(v.state == .ready)  // Start did not also start the timer
    }

    @Test func aRunningCountKeepsRunningUnderARingingAlarm() {
        var v = VirtualMachine(settings([alarm("06:45")], presets: [.seconds(600)]), epoch: local(2026, 11, 23, 6, 44))
        v.press(.start, at: 10)  // with alarms, Start in ready acts on release (held, it lists them)
        v.run(to: 60.1)
        #expect(v.display == "06:45")  // the alarm flashes the time of day
        #expect(v.state == .running)
        v.press(.reset, at: 65)  // dismiss: the count is not reset
        #expect(v.state == .running)
        #expect(v.display == "09:05")
        v.run(to: 611)
        #expect(v.state == .ringing)
        #expect(v.times { if case .report(.stateChanged(.ringing)) = $0 { true } else { false } } == [at(610.08)])
    }

    @Test func whenBothRingOnePressSilencesBoth() {
        var v = VirtualMachine(settings([alarm("06:45")], presets: [.seconds(50)]), epoch: local(2026, 11, 23, 6, 44))
        v.press(.start, at: 10)  // ends at 60, with the alarm
        v.run(to: 61)
        #expect(v.state == .ringing && v.core.alarms.isRinging)
        v.press(.stop, at: 62)
        #expect(!v.buzzing)
        #expect(v.state == .done)
        if case .snoozed = v.core.alarms.state {} else { Issue.record("Stop snoozes the alarm") }
    }

    // MARK: - The idle clock

    @Test func theIdleClockShowsAfterIdleAfterAndTheFirstPressOnlyWakes() {
        var v = VirtualMachine(settings([], idle: true), epoch: local(2026, 11, 23, 6, 44))
        v.run(to: 29.9)
        #expect(v.display == "05:00")
        v.run(to: 30.1)
        #expect(v.display == "06:44")
        v.run(to: 30.6)
        #expect(v.display == "0644")  // the colon blinks at 1 Hz
        v.press(.start, at: 40)
        #expect(v.display == "05:00")
        #expect(v.state == .ready)
        v.press(.start, at: 45)
        #expect(v.state == .running)
    }

    @Test func theClockNeverTakesOverAHeldButton() {
        // A long Start begun 0.5 s before the clock would appear stays a
        // long press: the alarm list opens, and the clock waits for the release.
        var s = settings([alarm("06:45")], idle: true)
        s.display.idleAfter = .seconds(2)
        var v = VirtualMachine(s, epoch: local(2026, 11, 23, 6, 0))
        v.press(.start, at: 1.5, hold: 1.5)
        v.run(to: 3.1)
        #expect(v.display == "AL 1")
        var w = VirtualMachine(settings([], idle: true), epoch: local(2026, 11, 23, 6, 0))
        w.edge(.button(.stop), true, at: 10)  // held for a minute: no clock meanwhile
        w.run(to: 70)
        #expect(w.display == "05:00")
        w.edge(.button(.stop), false, at: 70)
        w.run(to: 99.9)
        #expect(w.display == "05:00")  // idle_after counts from the release
        w.run(to: 100.1)
        #expect(w.display == "06:01")
    }

    @Test func aFlipWhileTheClockShowsOnlyWakesAndAppliesAtTheNextReset() {
        var v = VirtualMachine(settings([], idle: true), epoch: local(2026, 11, 23, 6, 44))
        v.flip(.up, at: 40)
        v.run(to: 40.1)  // past the debounce
        #expect(v.display == "05:00")
        #expect(v.core.input.switchPosition == .up)
        v.flip(.down, at: 45)  // acts now: back down
        v.flip(.up, at: 50)
        v.run(to: 50.1)
        #expect(v.display == "00:00")
    }

    @Test func wakeUpsPerMinuteWithTheIdleClock() {
        var blinking = VirtualMachine(settings([], idle: true), epoch: local(2026, 11, 23, 6, 44))
        blinking.run(to: 100)
        let b0 = blinking.wakeUps
        blinking.run(to: 700)
        #expect(blinking.wakeUps - b0 == 1200)  // twice a second
        var s = settings([], idle: true)
        s.clock.blinkColon = false
        var steady = VirtualMachine(s, epoch: local(2026, 11, 23, 6, 44))
        steady.run(to: 100)
        let s0 = steady.wakeUps
        steady.run(to: 700)
        #expect(steady.wakeUps - s0 == 10)  // once a minute
        var eightSettings = settings([], idle: true)
        eightSettings.display.digits = 8
        var eight = VirtualMachine(eightSettings, epoch: local(2026, 11, 23, 6, 44))
        eight.run(to: 100)
        let e0 = eight.wakeUps
        eight.run(to: 700)
        #expect(eight.wakeUps - e0 == 600)  // seconds shown: once a second
        var off = VirtualMachine(settings([]), epoch: local(2026, 11, 23, 6, 44))
        off.run(to: 86_400)
        #expect(off.wakeUps == 0)
    }

    @Test func twelveHourEightDigitAndUnsynchronisedFormats() {
        var s = settings([], idle: true)
        s.clock.format = .h12
        var pm = VirtualMachine(s, epoch: local(2026, 11, 23, 13, 5))
        pm.run(to: 30.1)
        #expect(pm.display == " 1:05.")  // the last point: PM
        var am = VirtualMachine(s, epoch: local(2026, 11, 23, 0, 5))
        am.run(to: 30.1)
        #expect(am.display == "12:05")
        var eight = settings([], idle: true)
        eight.display.digits = 8
        var v8 = VirtualMachine(eight, epoch: local(2026, 11, 23, 13, 5))
        v8.run(to: 30.1)
        #expect(v8.display == "  13.05.30")
        var unsynced = VirtualMachine(settings([], idle: true), epoch: local(2026, 11, 23, 6, 44))
        unsynced.synchronised = false
        unsynced.run(to: 31)
        #expect(unsynced.display == "--:--")
        unsynced.synchronised = true
        unsynced.run(to: 91)  // re-checked once a minute
        #expect(unsynced.display?.hasPrefix("06") == true)
    }

    // MARK: - The alarm list on the panel

    @Test func aLongStartShowsTheAlarmsStartTogglesStopStepsResetLeaves() {
        var v = VirtualMachine(settings([alarm("06:45", "weekdays"), alarm("09:00", "weekends")]), epoch: local(2026, 11, 23, 6, 0))
        v.press(.start, at: 10, hold: 1.2)
        #expect(v.state == .ready)
        v.run(to: 11.5)
        #expect(v.display == "AL 1")
        v.run(to: 12.1)
        #expect(v.display == "06:45")
        v.press(.start, at: 13)  // off
        #expect(v.core.alarms.entries[0].alarm.enabled == false)
        v.run(to: 15.1)
        #expect(v.display == " oFF")
        v.press(.stop, at: 16)
        #expect(v.display == "AL 2")
        v.press(.reset, at: 18)
        #expect(v.display == "05:00")
        v.run(to: 3600)
        #expect(v.rang.isEmpty)  // 06:45 is off
    }

    @Test func skipNextSkipsOneOccurrence() throws {
        var v = VirtualMachine(settings([alarm("06:45")]), epoch: local(2026, 11, 23, 6, 0))
        try v.request(.editAlarms(.skipNext(1)))
        #expect(v.notices == [.skipped(alarm("06:45"), at: local(2026, 11, 23, 6, 45))])
        v.run(to: 86_400 + 3600)
        #expect(v.rang == [at(86_400 + 2700)])
        #expect(throws: Machine.Refusal.self) { try v.request(.editAlarms(.remove(3))) }
    }

    /// A skip made days ahead survives a restart, and the state is not
    /// taken for one saved by a clock that was ahead.
    @Test func aSkipDaysAheadSurvivesARestart() throws {
        let start = local(2026, 11, 24, 7, 0)  // a Tuesday
        var v = VirtualMachine(settings([alarm("06:45", "mon")]), epoch: start)
        try v.request(.editAlarms(.skipNext(1)))  // Monday the 30th
        v.run(to: 1)
        let saved = v.persisted.last!
        #expect(!saved.isFromTheFuture(at: start + .seconds(1)))
        var b = VirtualMachine(settings([alarm("06:45", "mon")]), epoch: start + .seconds(1), restoring: saved)
        #expect(b.core.alarms.entries[0].next == local(2026, 12, 7, 6, 45))
        b.run(to: 7 * 86_400)
        #expect(b.rang.isEmpty)
    }

    // MARK: - Progress whatever happens

    /// Random presses, holds, flips and clock steps over 20 virtual minutes,
    /// with alarms and the idle clock on: the core must never ask to be woken
    /// at an instant already passed (the harness fails that), and never
    /// more than the display and buzzer need.
    @Test func randomPanelUseNeverSpinsTheLoop() {
        var rng = SplitMix(seed: 0x70C4)
        for round in 0..<30 {
            var s = settings([alarm("06:05"), alarm("06:20", "weekends"), alarm("07:00")], idle: true, presets: [.seconds(40)])
            s.display.idleAfter = .seconds(Int64(1 + rng.next() % 20))
            s.alarm.ringFor = .seconds(Int64(5 + rng.next() % 60))
            s.clock.blinkColon = rng.next() % 2 == 0
            var v = VirtualMachine(s, epoch: local(2026, 11, 21 + Int(rng.next() % 3), 6, 0))
            var t = 0.0
            while t < 1200 {
                t += Double(rng.next() % 30_000) / 1000
                switch rng.next() % 8 {
                case 0, 1, 2: v.press([.start, .stop, .reset][Int(rng.next() % 3)], at: t, hold: Double(rng.next() % 2500) / 1000 + 0.03)
                case 3: v.flip(rng.next() % 2 == 0 ? .up : .down, at: t)
                case 4: v.stepClock(by: .seconds(Int64(rng.next() % 2400) - 1200), at: t)
                case 5: v.act(.pressed([.start, .stop, .reset][Int(rng.next() % 3)]), at: t)
                default: v.run(to: t)
                }
            }
            v.run(to: 1300)
            // The busiest the panel gets: the stopwatch-free timer, the ringing
            // pattern and the blinking colon together stay far below this.
            #expect(v.wakeUps < 1300 * 12, "round \(round)")
        }
    }
}

/// A small seeded generator (SplitMix64), so a failing round can be replayed.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

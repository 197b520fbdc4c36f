import Testing
@testable import TockCore

@Suite struct CalendarCountdownTests {
    func settings(untilSecondsAfterEpoch s: Int64) -> Settings {
        var settings = Settings()
        settings.mode = .countdown
        settings.countdownUntil = epoch + .seconds(s)
        return settings
    }

    @Test func countsToTheInstantRingsOnceThenShowsOver() {
        var a = VirtualMachine(settings(untilSecondsAfterEpoch: 3 * 86_400 + 3_600))
        #expect(a.display == "3d01")
        #expect(a.state == .running)
        #expect(a.wake.1 != nil)  // woken on the wall clock
        a.run(to: 3 * 86_400 + 3_600)
        #expect(a.state == .ringing && a.buzzing)
        a.run(to: 3 * 86_400 + 3_600 + 60)
        #expect(a.state == .over && a.display == "over" && !a.buzzing)
        #expect(a.wake.0 == nil && a.wake.1 == nil)
    }

    @Test func buttonsDoNotStopItButAnyButtonSilencesItsAlarm() {
        var a = VirtualMachine(settings(untilSecondsAfterEpoch: 100))
        a.press(.stop, at: 1)
        a.press(.reset, at: 2)
        a.run(to: 3)
        #expect(a.state == .running)
        #expect(a.display == "01:37")
        a.run(to: 100)
        #expect(a.state == .ringing)
        a.press(.start, at: 101)
        a.run(to: 102)
        #expect(a.state == .over && !a.buzzing)
    }

    @Test func aClockStepIsAppliedAtOnceNotAtTheNextTick() {
        var a = VirtualMachine(settings(untilSecondsAfterEpoch: 7_200))
        a.run(to: 10)
        #expect(a.display == " 2:00")  // 1:59:50 left, rounded up
        // NTP steps the clock forward by an hour.
        a.wallOffset = .seconds(3_600)
        a.take(a.core.handle(.clockStepped, at: a.clock))
        #expect(a.display == "59:50")
        // And past the instant: it rings at once, for the full ring time.
        a.wallOffset = .seconds(8_000)
        a.take(a.core.handle(.clockStepped, at: a.clock))
        #expect(a.state == .ringing && a.buzzing)
        a.run(to: 69)
        #expect(a.state == .ringing)
    }

    @Test func switchedOnAfterTheInstantItIsOverWithoutRinging() {
        let a = VirtualMachine(settings(untilSecondsAfterEpoch: -10))
        #expect(a.state == .over && !a.buzzing)
    }
}

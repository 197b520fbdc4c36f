import Testing
@testable import TockCore

/// A wake-up before any deadline but the display's own draws the frame and
/// nothing else (`Machine.quietTick`); debug builds check every one against
/// a full batch, so these tests say how many took that path and that the
/// deadlines around them still act at their instants.
@Suite struct QuietTickTests {
    @Test func aCountDownsSecondsAreQuietTicks() {
        var a = VirtualMachine(.timer([.seconds(300)]))
        a.press(.start, at: 1)
        let before = (a.core.quietTicks, a.wakeUps)
        a.run(to: 61)
        let quiet = a.core.quietTicks - before.0, wakes = a.wakeUps - before.1
        #expect(wakes >= 59 && wakes <= 61, "\(wakes) wake-ups in 60 s")
        #expect(quiet >= wakes - 1, "\(quiet) of \(wakes) wake-ups quiet")
        #expect(a.display == "04:00")
    }

    @Test func theEndStillRingsAtItsInstantAndAPressStillActs() {
        var a = VirtualMachine(.timer([.seconds(10)]))
        a.press(.start, at: 1)
        a.run(to: 5.5)
        #expect(a.core.quietTicks > 0)
        // A press between quiet ticks: paused, then resumed.
        a.press(.stop, at: 5.5)
        #expect(a.core.stateName == .paused)
        a.press(.start, at: 7)
        a.run(to: 12.3)
        #expect(a.core.stateName == .running)
        a.run(to: 12.6)
        #expect(a.core.stateName == .ringing)
        // 10 s counted: 4.5 s before the pause, 5.5 s from 7 s on (the
        // press settles 20 ms after its edge, dated at the edge).
        let beeps = a.log.filter { item in if case .command(.buzzer(let t?)) = item.1 { t.hertz > 0 } else { false } }.map(\.0)
        #expect(beeps.first == at(12.5))
    }

    @Test func aStopwatchsHundredthsAreQuietTicks() {
        var a = VirtualMachine(.timer(mode: .stopwatch), switch: .up)
        a.press(.start, at: 1)
        let before = a.core.quietTicks
        a.run(to: 3)
        #expect(a.core.quietTicks - before >= 190)
    }

    // A quiet tick moves the last full batch's count on (`QuietTick.Base`)
    // rather than asking every part what shows; each clock a display moves
    // with is taken here, and the debug check holds every tick to a full
    // batch.

    @Test func aCalendarCountdownMovesOnWithTheWallClock() {
        var s = Settings()
        s.mode = .countdown
        s.countdownUntil = epoch + .seconds(100)
        var a = VirtualMachine(s)
        let before = a.core.quietTicks
        a.run(to: 30.5)
        #expect(a.core.quietTicks - before >= 29)
        #expect(a.display == "01:10")
    }

    @Test func theIdleClockReadsTheTimeOfDayAgainEachTick() {
        var s = Settings.timer()
        s.display.idleClock = true
        s.display.idleAfter = .seconds(5)
        var a = VirtualMachine(s)
        a.run(to: 10)
        let before = a.core.quietTicks
        a.run(to: 190)  // three minutes of the clock, across its minutes
        #expect(a.core.quietTicks - before >= 2)
        #expect(a.display != "05:00")
    }

    @Test func movingACountGoesItsOwnWayAndLeavesTheRestAlone() {
        var n: Int64?
        let second: Int64 = 1_000_000_000
        #expect(DisplayContent.down(.seconds(10)).moved(by: 3 * second, count: &n, from: 10 * second) == .down(.seconds(7)))
        #expect(n == 7 * second)
        #expect(DisplayContent.stopwatch(.seconds(10)).moved(by: 3 * second, count: &n, from: 10 * second) == .stopwatch(.seconds(13)))
        #expect(n == 13 * second)
        #expect(DisplayContent.overrun(.seconds(1)).moved(by: second, count: &n, from: second) == .overrun(.seconds(2)))
        #expect(DisplayContent.calendar(.seconds(90)).moved(by: second, count: &n, from: 90 * second) == .calendar(.seconds(89)))
        #expect(DisplayContent.interval(.seconds(20), round: 2, of: 8, resting: true).moved(by: second, count: &n, from: 20 * second)
                    == .interval(.seconds(19), round: 2, of: 8, resting: true))
        #expect(DisplayContent.text("t2").moved(by: second, count: &n, from: nil) == .text("t2"))
        #expect(n == nil)
        #expect(DisplayContent.round(3, set: nil).moved(by: second, count: &n, from: 5) == .round(3, set: nil))
        #expect(n == nil)
    }

    /// The renderer given the count's value as an integer draws what it
    /// draws from the content's `Duration`, on both sides of each format's
    /// edge.
    @Test func theRendererDrawsTheSameFromTheIntegerValue() {
        let r = Renderer(digits: 4, brightness: 7)
        let ns: [Int64] = [-1, 0, 1, 9_999_999, 10_000_000, 59_999_999_999, 60_000_000_000, 61_500_000_000,
                           5_999_000_000_000, 5_999_000_000_001, 6_000_000_000_000, 7_200_000_000_000]
        for n in ns {
            for c in [DisplayContent.down(.nanoseconds(n)), .up(.nanoseconds(n)), .stopwatch(.nanoseconds(n)), .calendar(.nanoseconds(n))] {
                let p = Presentation(c, motion: .monotonic)
                #expect(r.frame(for: p, at: .zero, count: n) == r.frame(for: p, at: .zero), "\(c)")
                #expect(r.nanosecondsToNextChange(of: c, count: n) == r.nanosecondsToNextChange(of: c), "\(c)")
            }
        }
    }
}

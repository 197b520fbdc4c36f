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
}

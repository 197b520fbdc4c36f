import Testing
@testable import TockCore

/// `timer.overrun`: after a count-down rings, the display counts up how
/// long it is over, until Reset.
@Suite struct OverrunTests {
    func settings(digits: Int = 4) -> Settings {
        var s = Settings.timer([.seconds(60)])
        s.overrun = true
        s.display.digits = digits
        return s
    }

    @Test func afterZeroTheDisplayCountsUpWithALeadingMinus() {
        var a = VirtualMachine(settings())
        a.press(.start, at: 0)
        a.run(to: 59.5)
        #expect(a.display == "00:01")
        a.run(to: 60)
        #expect(a.state == .ringing && a.display == "-0:00")
        a.run(to: 61)
        #expect(a.display == "-0:01")
        // Silencing stops the sound, not the overrun count.
        a.press(.stop, at: 75.2)
        a.run(to: 75.5)
        #expect(a.state == .done && !a.buzzing && a.display == "-0:15")
        a.run(to: 60 + 9 * 60 + 59)
        #expect(a.display == "-9:59")
        a.run(to: 60 + 600)
        #expect(a.display == "- 10")
        #expect(a.core.progress(at: a.clock).overrun == .seconds(600))
        a.press(.reset, at: 700)
        a.run(to: 701)
        #expect(a.state == .ready && a.display == "01:00")
        #expect(a.core.progress(at: a.clock).overrun == nil)
    }

    @Test func eachSecondOfTheOverrunIsShownOnTheSecond() {
        var a = VirtualMachine(settings(digits: 8))
        a.press(.start, at: 0)
        a.run(to: 63.5)
        let changes = a.log.compactMap { e -> Instant? in
            if case .command(.render(let f)) = e.1, f.text.contains("-") { return e.0 }
            return nil
        }
        // (The ringing blink darkens the frame between.)
        #expect(Set(changes).isSuperset(of: [at(60), at(61), at(62), at(63)]))
        #expect(a.display == "   -00.03" || a.display == "        ")
    }

    @Test func withoutOverrunTheEndStaysAtZero() {
        var s = settings()
        s.overrun = false
        var a = VirtualMachine(s)
        a.press(.start, at: 0)
        a.press(.stop, at: 61)
        a.run(to: 90)
        #expect(a.display == "00:00")
        #expect(a.core.progress(at: a.clock).overrun == nil)
    }

    @Test func theIdleClockDoesNotCoverAnOverrun() {
        var s = settings()
        s.display.idleClock = true
        s.display.idleAfter = .seconds(5)
        var a = VirtualMachine(s)
        a.press(.start, at: 0)
        a.press(.stop, at: 61)
        a.run(to: 200)
        #expect(a.display == "-2:20")
    }

    @Test func theOverrunSurvivesAKillAndAClockStep() throws {
        var a = VirtualMachine(settings())
        a.press(.start, at: 0)
        a.press(.stop, at: 62)
        a.run(to: 70)
        // The wall clock is stepped an hour ahead (NTP): the overrun shown
        // follows the monotonic clock, and the state file is written again
        // in the stepped clock's terms.
        let written = a.persisted.count
        a.stepClock(by: .seconds(3600), at: 80)
        #expect(a.display == "-0:20")
        #expect(a.persisted.count == written + 1)
        a.run(to: 90)
        let saved = try #require(a.persisted.last)
        // SIGKILL at 90; back 5 s later on the stepped wall clock.
        var b = VirtualMachine(settings(), epoch: epoch + .seconds(3600 + 95), restoring: saved)
        b.run(to: 0.5)
        #expect(b.state == .done && b.display == "-0:35")
        b.run(to: 25)
        #expect(b.display == "-1:00")
    }

    @Test func aCountThatEndedWhileOffIsOverSinceItsEnd() throws {
        var a = VirtualMachine(settings())
        a.press(.start, at: 0)
        a.run(to: 30)
        let saved = try #require(a.persisted.last)
        // Off at 30 s, on again at 100 s: the count ended at 60, 40 s ago.
        var b = VirtualMachine(settings(), epoch: epoch + .seconds(100), restoring: saved)
        b.run(to: 0.1)
        #expect(b.state == .ringing)
        #expect(b.core.progress(at: b.clock).overrun == .milliseconds(40_100))
    }

    @Test func renderedFormats() {
        let four = Renderer(digits: 4, brightness: 7), eight = Renderer(digits: 8, brightness: 7)
        #expect(four.text(for: .overrun(.milliseconds(65_900)), moving: true) == "-1:05")
        #expect(four.text(for: .overrun(.seconds(125 * 60)), moving: true) == "-125")
        #expect(four.text(for: .overrun(.seconds(1000 * 60)), moving: true) == "----")
        #expect(eight.text(for: .overrun(.seconds(3 * 3600 + 62)), moving: true) == "-3.01.02")
        #expect(four.timeToNextChange(of: .overrun(.milliseconds(65_900))) == .milliseconds(100))
        #expect(four.timeToNextChange(of: .overrun(.seconds(630))) == .seconds(30))
        #expect(four.text(for: .leadIn(.milliseconds(2_100)), moving: true) == "Pr 3")
    }
}

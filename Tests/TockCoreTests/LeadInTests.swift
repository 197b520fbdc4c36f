import Testing
@testable import TockCore

/// The get-ready count before a count or a program (`timer.lead_in`,
/// `interval.lead_in`), on virtual time.
@Suite struct LeadInTests {
    func interval(leadIn: Duration = .seconds(10)) -> Settings {
        var s = Settings()
        s.mode = .interval
        s.interval.work = .seconds(20)
        s.interval.rest = .seconds(10)
        s.interval.rounds = 3
        s.interval.leadIn = leadIn
        return s
    }

    func timer(leadIn: Duration = .seconds(10)) -> Settings {
        var s = Settings.timer([.seconds(60)])
        s.leadIn = leadIn
        return s
    }

    /// Instants a tone of `hertz` began.
    func tones(_ a: VirtualMachine, _ hertz: Int) -> [Instant] {
        a.times { if case .command(.buzzer(let t)) = $0, t?.hertz == hertz { true } else { false } }
    }

    @Test func theFirstRoundStartsExactlyAtTheEndOfTheLeadIn() {
        var a = VirtualMachine(interval())
        a.press(.start, at: 0)
        a.run(to: 0.5)
        #expect(a.display == "Pr10")
        #expect(a.state == .running)
        a.run(to: 9.999_999_999)
        #expect(a.display == "Pr 1")
        a.run(to: 10)
        #expect(a.display == "00:20")
        // The first round's phase change is 20 s after the lead-in: the
        // rest begins at 30 exactly, not a tick later or earlier.
        a.run(to: 29.999_999_999)
        #expect(a.display == "00:01")
        a.run(to: 30)
        #expect(a.display == "00:10.")
        let displays = a.times { if case .command(.render(let f)) = $0 { f.text == "00:20" } else { false } }
        #expect(displays == [at(0), at(10)])  // ready, then the round
    }

    @Test func threeTwoOneBeepsThenTheStartSound() {
        var a = VirtualMachine(interval())
        a.press(.start, at: 0)
        a.run(to: 12)
        // 80 ms warning ticks at 7, 8, 9 s and the 300 ms phase beep at 10.
        #expect(tones(a, 2_000) == [at(7), at(8), at(9), at(10)])
        let silences = a.times { if case .command(.buzzer(nil)) = $0 { true } else { false } }
        #expect(Array(silences.suffix(4)) == [at(7.08), at(8.08), at(9.08), at(10.3)])
    }

    @Test func theTimersCountStartsAtTheEndOfItsLeadInWithTheStartSound() {
        var a = VirtualMachine(timer(leadIn: .seconds(5)))
        a.press(.start, at: 0)
        a.run(to: 4.9)
        #expect(a.display == "Pr 1")
        a.run(to: 5)
        #expect(a.display == "01:00")
        #expect(tones(a, 2_000) == [at(2), at(3), at(4), at(5)])
        a.run(to: 66)
        #expect(a.times { $0 == .report(.stateChanged(.ringing)) } == [at(65)])
    }

    @Test func stopPausesTheLeadInAndResetAbandonsIt() {
        var a = VirtualMachine(interval())
        a.press(.start, at: 0)
        a.press(.stop, at: 4.5)
        a.run(to: 4.6)
        #expect(a.state == .paused && a.display == "Pr 6")
        a.run(to: 30)
        #expect(a.core.progress(at: a.clock).leadIn == .milliseconds(5_500))
        // Resumed: 5.5 s of lead-in left, so the round starts at 35.5.
        a.press(.start, at: 30)
        a.run(to: 35.499)
        #expect(a.display == "Pr 1")
        a.run(to: 35.5)
        #expect(a.display == "00:20")
        a.press(.stop, at: 36)
        a.press(.reset, at: 37)
        a.run(to: 38)
        #expect(a.state == .ready && a.display == "00:20")

        var b = VirtualMachine(interval())
        b.press(.start, at: 0)
        b.press(.stop, at: 3)
        b.press(.reset, at: 4)
        b.run(to: 20)
        #expect(b.state == .ready && b.display == "00:20")
        #expect(tones(b, 2_000).isEmpty)  // no beeps of an abandoned lead-in
    }

    @Test func withoutALeadInStartCountsAtOnceAsBefore() {
        var a = VirtualMachine(interval(leadIn: .zero))
        a.press(.start, at: 0)
        a.run(to: 0.5)
        #expect(a.display == "00:20")
        #expect(tones(a, 2_000).isEmpty)
    }

    @Test func aPowerCutMidLeadInResumesExactly() throws {
        var a = VirtualMachine(interval())
        a.press(.start, at: 0)
        a.run(to: 3)
        let saved = try #require(a.persisted.last)
        #expect(saved.count.program.flat.leadIn == Duration.seconds(10).nanoseconds)
        // Off at 3 s, back at 6 s (the wall clock went on): 4 s of lead-in left.
        var b = VirtualMachine(interval(), epoch: epoch + .seconds(6), restoring: saved)
        b.run(to: 0.5)
        #expect(b.display == "Pr 4")
        b.run(to: 4)
        #expect(b.display == "00:20")
        let starts = b.times { if case .command(.render(let f)) = $0 { f.text == "00:20" } else { false } }
        #expect(starts == [at(4)])
    }

    @Test func aPausedLeadInIsStoredWithoutANegativeTime() throws {
        var a = VirtualMachine(timer())
        a.press(.start, at: 0)
        a.press(.stop, at: 2)
        a.run(to: 3)
        let saved = try #require(a.persisted.last)
        #expect(saved.count.phase == .paused(elapsed: Duration.seconds(2).nanoseconds))
        var b = VirtualMachine(timer(), restoring: saved)
        #expect(b.display == "Pr 8")
        b.press(.start, at: 1)
        b.run(to: 9)
        #expect(b.display == "01:00")
    }

    @Test func eightDigitsSpellReady() {
        var s = timer()
        s.display.digits = 8
        var a = VirtualMachine(s)
        a.press(.start, at: 0)
        a.run(to: 0.5)
        #expect(a.display == "rEAdy 10")
    }
}

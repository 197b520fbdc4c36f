import Testing
@testable import TockCore

@Suite struct IntervalProgramTests {
    func settings() -> Settings {
        var s = Settings()
        s.mode = .interval
        s.interval.work = .seconds(30)
        s.interval.rest = .seconds(10)
        s.interval.rounds = 3
        return s
    }

    @Test func phasesAreDerivedFromElapsedTime() {
        let p = IntervalProgram(program: settings().interval, alarm: AlarmSettings())
        #expect(p.total == .seconds(110))
        #expect(p.phase(atElapsed: .seconds(0)) == .init(round: 1, resting: false, left: .seconds(30), endsAt: .seconds(30)))
        #expect(p.phase(atElapsed: .seconds(30)).resting)
        #expect(p.phase(atElapsed: .seconds(45)) == .init(round: 2, resting: false, left: .seconds(25), endsAt: .seconds(70)))
        #expect(p.phase(atElapsed: .seconds(105)) == .init(round: 3, resting: false, left: .seconds(5), endsAt: .seconds(110)))
    }

    @Test func beepsAtEachPhaseChangeAndRingsAtTheEnd() {
        var a = VirtualMachine(settings())
        #expect(a.display == "00:30")
        a.press(.start, at: 0)
        a.run(to: 35)
        #expect(a.display == "00:05.")
        a.run(to: 120)
        // Phase beeps (2000 Hz, 300 ms) at 30, 40, 70, 80; the alarm at 110.
        let beeps = a.times { if case .command(.buzzer(let t)) = $0, t != nil { true } else { false } }
        #expect(Array(beeps.prefix(4)) == [at(30), at(40), at(70), at(80)])
        #expect(a.times { $0 == .report(.stateChanged(.ringing)) } == [at(110)])
    }

    @Test func stopPausesStartResumesResetReturnsToRoundOne() {
        var a = VirtualMachine(settings())
        a.press(.start, at: 0)
        a.press(.stop, at: 45)
        a.run(to: 50)
        #expect(a.state == .paused)
        a.press(.reset, at: 51)
        a.run(to: 52)
        #expect(a.state == .ready && a.display == "00:30")
        a.press(.reset, at: 53)
        a.run(to: 54)
        #expect(a.chirps.count == 1)  // reset in ready has nothing to do
    }

    @Test func resumingMidPhaseDoesNotBeepAgain() {
        var a = VirtualMachine(settings())
        a.press(.start, at: 0)
        a.press(.stop, at: 31)
        a.press(.start, at: 40)
        a.run(to: 45)
        let beeps = a.times { if case .command(.buzzer(let t)) = $0, t != nil { true } else { false } }
        #expect(beeps == [at(30)])
    }
}

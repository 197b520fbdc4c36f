import Testing
@testable import TockCore

/// `interval.programs`: Tabata, intervals in sets, EMOM, AMRAP and For
/// Time, on virtual time.
@Suite struct NamedProgramTests {
    func settings(_ programs: [NamedProgram], leadIn: Duration = .zero, digits: Int = 4) -> Settings {
        var s = Settings()
        s.mode = .interval
        s.interval.programs = programs
        s.interval.leadIn = leadIn
        s.display.digits = digits
        return s
    }

    func tones(_ a: VirtualMachine, _ hertz: Int) -> [Instant] {
        a.times { if case .command(.buzzer(let t)) = $0, t?.hertz == hertz { true } else { false } }
    }
    func rounds(_ a: VirtualMachine) -> [(Instant, RoundReport)] {
        a.log.compactMap { if case .report(.round(let r)) = $0.1 { ($0.0, r) } else { nil } }
    }

    @Test func aTabatasSoundsHappenAtTheRightInstants() {
        var a = VirtualMachine(settings([NamedProgram(name: "tAbA", kind: .tabata())], leadIn: .seconds(10)))
        a.press(.start, at: 0)
        a.run(to: 250)
        // Lead-in ticks at 7, 8, 9 (2000 Hz, as the rest's two blasts);
        // each work phase one long 2700 Hz blast: at 10, then every 30 s.
        let work = (0..<8).map { at(10 + 30 * Double($0)) }
        #expect(tones(a, 2_700).filter { $0 < at(240) } == work)
        let restStarts = (0..<7).map { 30 + 30 * Double($0) }
        let expectedMid = [at(7), at(8), at(9)] + restStarts.flatMap { [at($0), at($0 + 0.35)] }
        #expect(tones(a, 2_000).filter { $0 < at(240) } == expectedMid)
        #expect(a.times { $0 == .report(.stateChanged(.ringing)) } == [at(240)])
        // The end: three long 2.7 kHz blasts, then the alarm's 2 kHz double beep from 242.
        #expect(tones(a, 2_700).filter { $0 >= at(240) } == [at(240), at(240.6), at(241.2)])
        #expect(tones(a, 2_000).filter { $0 >= at(240) }.prefix(2) == [at(242), at(242.2)])
        #expect(rounds(a).map(\.1.round) == [1, 2, 3, 4, 5, 6, 7, 8])
        #expect(rounds(a).dropFirst().map(\.0) == (1..<8).map { at(10 + 30 * Double($0)) })
    }

    @Test func anEMOMsRoundsStartOnThePeriodBoundariesToTheNanosecondOver60Rounds() {
        var a = VirtualMachine(settings([NamedProgram(name: "E1", kind: .emom(every: .seconds(60), rounds: 60))]))
        a.act(.pressed(.start), at: 0.123_456_789)
        a.run(to: 3700)
        let start = at(0.123_456_789)
        let reported = rounds(a).filter { $0.0 >= start }
        #expect(reported.count == 59)
        for (t, r) in reported {
            #expect(t == start + .seconds(60 * (r.round - 1)))
        }
        #expect(reported.last?.1.round == 60)
        // Each boundary beeps and shows the round for a second.
        #expect(tones(a, 2_700).prefix(60) == ArraySlice((0..<60).map { start + .seconds(60 * $0) }))
        #expect(a.times { $0 == .report(.stateChanged(.ringing)) } == [start + .seconds(3600)])
    }

    @Test func theRoundShowsAtItsStartAndOnDemand() {
        var a = VirtualMachine(settings([NamedProgram(name: "E1", kind: .emom(every: .seconds(60), rounds: 3))]))
        a.press(.start, at: 0)
        a.run(to: 59)
        #expect(a.display == "00:01")
        a.run(to: 60)
        #expect(a.display == "r  2")
        a.run(to: 61)
        #expect(a.display == "00:59")
        a.press(.start, at: 70)  // on demand: Start while running
        a.run(to: 70.5)
        #expect(a.display == "r  2" && a.chirps.isEmpty)
        a.run(to: 71.1)
        #expect(a.display == "00:49")
    }

    @Test func resetInReadyCyclesTheProgramsAndShowsTheName() throws {
        let programs = [NamedProgram(name: "tAbA", kind: .tabata()), NamedProgram(name: "E1", kind: .emom(every: .seconds(60), rounds: 10)),
                        NamedProgram(name: "Ft", kind: .forTime(cap: .seconds(900)))]
        var a = VirtualMachine(settings(programs))
        #expect(a.display == "00:20")
        a.press(.reset, at: 1)
        a.run(to: 1.5)
        #expect(a.display == "  E1")
        a.run(to: 3)
        #expect(a.display == "01:00")
        a.press(.reset, at: 4)
        a.run(to: 6.1)
        #expect(a.display == "00:00")
        let saved = try #require(a.persisted.last)
        #expect(saved.count.program.flat.program == 2)
        let b = VirtualMachine(settings(programs), restoring: saved)
        #expect(b.display == "00:00")
        a.press(.reset, at: 7)
        a.run(to: 9.1)
        #expect(a.display == "00:20")
    }

    @Test func anAMRAPCountsRoundsWithStart() {
        var a = VirtualMachine(settings([NamedProgram(name: "A", kind: .amrap(cap: .seconds(600)))]))
        a.press(.start, at: 0)
        a.press(.start, at: 100)
        a.run(to: 100.5)
        #expect(a.display == "r  2")
        a.press(.start, at: 200)
        a.run(to: 300)
        #expect(a.display == "05:00")
        #expect(a.core.progress(at: a.clock).round == RoundReport(round: 3))
        a.run(to: 600)
        #expect(a.state == .ringing)
        #expect(rounds(a).map(\.1.round) == [1, 2, 3])
    }

    @Test func forTimeCountsUpAndStopRecordsTheFinish() throws {
        var a = VirtualMachine(settings([NamedProgram(name: "Ft", kind: .forTime(cap: .seconds(900)))]))
        a.press(.start, at: 0)
        a.run(to: 65.5)
        #expect(a.display == "01:05")
        a.press(.stop, at: 312.25)
        a.run(to: 400)
        #expect(a.state == .done && a.display == "05:12")
        #expect(a.core.progress(at: a.clock).finish == .milliseconds(312_250))
        let saved = try #require(a.persisted.last)
        let b = VirtualMachine(settings([NamedProgram(name: "Ft", kind: .forTime(cap: .seconds(900)))]), restoring: saved)
        #expect(b.display == "05:12")

        var c = VirtualMachine(settings([NamedProgram(name: "Ft", kind: .forTime(cap: .seconds(900)))]))
        c.press(.start, at: 0)
        c.run(to: 901)
        #expect(c.times { $0 == .report(.stateChanged(.ringing)) } == [at(900)])
    }

    @Test func intervalsInSetsReportRoundAndSet() {
        let kind = NamedProgram.Kind.intervals(work: .seconds(40), rest: .seconds(20), rounds: 2, sets: 2, setRest: .seconds(120))
        var a = VirtualMachine(settings([NamedProgram(name: "Int", kind: kind)]))
        a.press(.start, at: 0)
        a.run(to: 60)
        #expect(a.display == "1.r 2")
        // Set 1: work 0-40, rest 40-60, work 60-100, set rest 100-220; set 2 from 220.
        a.run(to: 220)
        #expect(a.display == "2.r 1")
        let r = rounds(a)
        #expect(r.map(\.1) == [RoundReport(round: 1, set: 1), RoundReport(round: 2, set: 1), RoundReport(round: 1, set: 2)])
        #expect(r.map(\.0) == [at(0), at(60), at(220)])
    }

    @Test func aPowerCutMidRoundResumesExactly() throws {
        var a = VirtualMachine(settings([NamedProgram(name: "E1", kind: .emom(every: .seconds(60), rounds: 10))], leadIn: .seconds(10)))
        a.press(.start, at: 0)
        a.run(to: 100)
        let saved = try #require(a.persisted.last)
        var b = VirtualMachine(a.core.settings, epoch: epoch + .seconds(145), restoring: saved)
        b.run(to: 0.5)
        #expect(b.display == "00:45")  // round 3 began at 130 (10 s lead-in + 2 minutes)
        b.run(to: 45)
        #expect(b.display == "r  4")
    }

    @Test func aConfiguredWorkSoundPlaysInsteadOfTheBuiltIn() {
        var s = settings([NamedProgram(name: "E1", kind: .emom(every: .seconds(60), rounds: 2))])
        s.alarm.sounds[.work] = BuzzerPattern(steps: [.init(Tone(hertz: 1_000), .milliseconds(100)), .init(nil, .milliseconds(100)),
                                                      .init(Tone(hertz: 1_000), .milliseconds(100))], repeats: false)
        var a = VirtualMachine(s)
        a.press(.start, at: 0)
        a.run(to: 61)
        #expect(tones(a, 1_000) == [at(0.02), at(0.2), at(60), at(60.2)])  // (the press is known 20 ms after it began)
        #expect(tones(a, 2_700).isEmpty)
    }

    @Test func namesAreDrawnWithTheNearestGlyphs() {
        #expect(NamedProgram.label("Tabata") == "tAbAtA")
        #expect(NamedProgram.label("Swim") == nil)  // no glyph for m, k, q, w, x, z
        #expect(NamedProgram.label("Go") == "9o")
    }
}

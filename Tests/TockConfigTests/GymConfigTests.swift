import Testing
import TockTestSupport
@testable import TockConfig
import TockCore

/// `timer.lead_in`, `timer.overrun`, `interval.lead_in` and
/// `interval.programs`, with `file:line: key` errors.
@Suite struct GymConfigTests {
    func problems(_ yaml: String) -> [String] { configProblems(yaml).map(\.description) }

    @Test func leadInAndOverrunParseWithDefaultsOff() throws {
        let d = try Configuration.parse(yaml: "", file: "c.yaml").settings
        #expect(d.leadIn == .zero && !d.overrun && d.interval.leadIn == .zero && d.interval.programs.isEmpty)
        let s = try Configuration.parse(yaml: "timer: {presets: [5m], lead_in: 10s, overrun: true}\ninterval: {lead_in: 5s}", file: "c.yaml").settings
        #expect(s.leadIn == .seconds(10) && s.overrun && s.interval.leadIn == .seconds(5))
    }

    @Test func badLeadInAndOverrunNameTheLineAndKey() {
        let p = problems("timer:\n  lead_in: 61s\n  overrun: maybe\ninterval: {lead_in: soon}")
        #expect(p.contains { $0.hasPrefix("c.yaml:2: timer.lead_in: 61s is too long (at most 1m)") })
        #expect(p.contains { $0.hasPrefix("c.yaml:3: timer.overrun:") })
        #expect(p.contains { $0.hasPrefix("c.yaml:4: interval.lead_in:") })
    }

    @Test func everyKindOfProgramParses() throws {
        let yaml = """
        mode: interval
        interval:
          programs:
            - {name: tAbA, kind: tabata}
            - {name: t2, kind: tabata, work: 30s, rounds: 6}
            - {name: Int, kind: intervals, work: 40s, rest: 20s, rounds: 5, sets: 3, set_rest: 2m}
            - {name: E1, kind: emom, every: 1m, rounds: 10}
            - {name: A20, kind: amrap, cap: 20m}
            - {name: Ft, kind: for_time, cap: 15m}
        """
        let p = try Configuration.parse(yaml: yaml, file: "c.yaml").settings.interval.programs
        #expect(p.map(\.name) == ["tAbA", "t2", "Int", "E1", "A20", "Ft"])
        #expect(p[0].kind == .tabata())
        #expect(p[1].kind == .intervals(work: .seconds(30), rest: .seconds(10), rounds: 6, sets: 1, setRest: .zero))
        #expect(p[2].kind == .intervals(work: .seconds(40), rest: .seconds(20), rounds: 5, sets: 3, setRest: .seconds(120)))
        #expect(p[3].kind == .emom(every: .seconds(60), rounds: 10))
        #expect(p[4].kind == .amrap(cap: .seconds(1200)))
        #expect(p[5].kind == .forTime(cap: .seconds(900)))
    }

    @Test func badProgramsNameTheLineAndKey() {
        let yaml = """
        interval:
          programs:
            - {name: Swim, kind: tabata}
            - {name: tabata, kind: tabata}
            - {name: E1, kind: emom, rounds: 10}
            - {name: A, kind: amrap, cap: 20m, rounds: 3}
            - {name: X, kind: yoga}
            - {kind: for_time, cap: 1m}
        """
        let p = problems(yaml)
        #expect(p.contains { $0.hasPrefix("c.yaml:3: interval.programs[0].name: \"Swim\" cannot be drawn on 7 segments") })
        #expect(p.contains { $0 == "c.yaml:4: interval.programs[1].name: \"tabata\" is longer than the display's 4 digits" })
        #expect(p.contains { $0 == "c.yaml:5: interval.programs[2].every: needed for kind emom" })
        #expect(p.contains { $0.hasPrefix("c.yaml:6: interval.programs[3].rounds: does not apply to kind amrap") })
        #expect(p.contains { $0.hasPrefix("c.yaml:7: interval.programs[4].kind: \"yoga\" is not one of tabata, intervals, emom, amrap, for_time") })
        #expect(p.contains { $0.hasPrefix("c.yaml:8: interval.programs[5].name: needed") })
        // Eight digits take longer names.
        #expect(problems("display: {digits: 8}\ninterval:\n  programs: [{name: tabata, kind: tabata}]").isEmpty)
        // Keys that do not apply are named in the file's order, each run.
        let many = problems("interval:\n  programs: [{name: A, kind: amrap, cap: 1m, work: 1s, rounds: 2, rest: 1s, sets: 2, every: 1m}]")
        #expect(many.map { $0.split(separator: ":")[2] } == [" interval.programs[0].work", " interval.programs[0].rounds", " interval.programs[0].rest",
                                                           " interval.programs[0].sets", " interval.programs[0].every"])
    }

    /// One bound for a program, the configuration's, the state file's and
    /// the group's: a program takes at most 100 days less the longest
    /// lead-in, so its elapsed time (lead-in included) always fits the
    /// state file. 24 rounds of 99h59m work with 1m rests is exactly that.
    @Test func aProgramLongerThanTheStateFileCanHoldIsRefused() throws {
        #expect(Settings.longestProgram + Settings.longestLeadIn == TimeBounds.longest)
        let fits = "{name: L, kind: intervals, work: 99h59m, rest: 1m, rounds: 24}"
        let s = try Configuration.parse(yaml: "interval:\n  lead_in: 60s\n  programs:\n    - \(fits)", file: "c.yaml").settings
        #expect(ProgramPlan(s.interval.programs[0].kind).total == Settings.longestProgram)
        let yaml = """
        interval:
          work: 99h59m
          rest: 1m
          rounds: 25
          programs:
            - {name: L, kind: intervals, work: 99h59m, rest: 61s, rounds: 24}
            - {name: S, kind: intervals, work: 99h59m, rest: 99h59m, rounds: 99, sets: 9, set_rest: 99h59m}
            - {name: E, kind: emom, every: 99h59m, rounds: 25}
            - \(fits)
        """
        let p = problems(yaml)
        #expect(p.count == 4, "\(p)")
        #expect(p.contains { $0.hasPrefix("c.yaml:2: interval: takes 2499h59m in all, longer than the 2399h59m a program may take") })
        #expect(p.contains { $0.hasPrefix("c.yaml:6: interval.programs[0]: takes 2399h59m23s in all") })
        #expect(p.contains { $0.hasPrefix("c.yaml:7: interval.programs[1]: takes 178070h19m") && $0.hasSuffix("use fewer rounds or sets, or shorter work and rest") })
        #expect(p.contains { $0.hasPrefix("c.yaml:8: interval.programs[2]: takes 2499h35m") })
    }

    @Test func volumeAndTuneParseAndBadOnesNameTheLineAndKey() throws {
        let s = try Configuration.parse(yaml: "alarm:\n  volume: 40\n  tune: \"t:d=4,o=5,b=120:c,e,g\"", file: "c.yaml").settings
        #expect(s.alarm.volume == 40 && s.alarm.tune?.count == 3)
        #expect(try Configuration.parse(yaml: "", file: "c.yaml").settings.alarm.volume == 100)
        let p = problems("alarm:\n  volume: 0\n  tune: \"t:d=4:c,17e\"")
        #expect(p.contains { $0.hasPrefix("c.yaml:2: alarm.volume:") })
        #expect(p.contains { $0 == "c.yaml:3: alarm.tune: note 2 \"17e\": length 17 is not 1, 2, 4, 8, 16 or 32" })
    }

    @Test func phaseSoundsAreConfigurable() throws {
        let s = try Configuration.parse(yaml: "alarm:\n  sounds: {work: \"500 100 500\", rest: \"100 @1500\"}", file: "c.yaml").settings
        #expect(s.alarm.sounds[.work] == BuzzerPattern(steps: [.init(Tone(hertz: 2_700), .milliseconds(500)), .init(nil, .milliseconds(100)),
                                                                .init(Tone(hertz: 2_700), .milliseconds(500))], repeats: false))
        #expect(s.alarm.sounds[.rest] == BuzzerPattern(steps: [.init(Tone(hertz: 1_500), .milliseconds(100))], repeats: false))
        let p = problems("alarm:\n  sounds:\n    work: \"long\"\n    finish: \"100\"")
        #expect(p.contains { $0.hasPrefix("c.yaml:3: alarm.sounds.work: \"long\" is not 1 to 5000 ms; write milliseconds on and off") })
        #expect(p.contains { $0.hasPrefix("c.yaml:4: alarm.sounds.finish: unknown key") })
    }
}

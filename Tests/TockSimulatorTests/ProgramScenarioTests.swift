import Foundation
import Testing
@testable import TockSimulator
import TockConfig
import TockCore
import TockControl

/// Each kind of named program through `tock sim --script`: the phase and
/// round changes land at the documented instants of the trace.
@Suite struct ProgramScenarioTests {
    let config = """
    mode: interval
    interval:
      lead_in: 10s
      programs:
        - {name: tAbA, kind: tabata}
        - {name: Int, kind: intervals, work: 40s, rest: 20s, rounds: 2, sets: 2, set_rest: 1m}
        - {name: E1, kind: emom, every: 1m, rounds: 3}
        - {name: A5, kind: amrap, cap: 5m}
        - {name: Ft, kind: for_time, cap: 3m}
    """

    /// The program selected by `resets` presses of Reset in ready, then
    /// Start at 10 s (the press is known 20 ms later; it counts from 10).
    func run(resets: Int, then script: String) throws -> Trace {
        let select = (0..<resets).map { "\(1 + $0 * 2) press reset" }.joined(separator: "\n")
        return try Trace(config: config, script: select + "\n10 press start\n" + script)
    }

    @Test func tabata() throws {
        let tr = try run(resets: 0, then: "300 end")
        #expect(tr.first("display", "Pr10") == "10.020")
        #expect(tr.all("display", "00:20") == ["0.000", "20.000"])  // the lead-in ends at 10 + 10
        #expect(tr.values("round") == (1...8).map(String.init))
        #expect(tr.all("round", "2") == ["50.000"])
        #expect(tr.all("round", "8") == ["230.000"])
        #expect(tr.all("display", "00:10.").first == "40.000")
        #expect(tr.first("state", "ringing") == "250.000")  // 10 + 10 + 8 × 20 + 7 × 10
    }

    @Test func intervalsInSets() throws {
        let tr = try run(resets: 1, then: "300 end")
        #expect(tr.all("display", " 1nt") == ["1.020"])  // the name (I drawn as 1), for 2 s
        // Lead-in to 20; set 1: work 20-60, rest 60-80, work 80-120, set rest
        // 120-180; set 2: work 180-220, rest 220-240, work 240-280.
        #expect(tr.all("round", "2") == ["80.000", "240.000"])
        #expect(tr.all("set", "2") == ["180.000"])
        #expect(tr.first("display", "2.r 1") == "180.000")
        #expect(tr.first("state", "ringing") == "280.000")
    }

    @Test func emom() throws {
        let tr = try run(resets: 2, then: "250 end")
        #expect(tr.all("round", "2") == ["80.000"])
        #expect(tr.all("round", "3") == ["140.000"])
        #expect(tr.first("display", "r  3") == "140.000")
        #expect(tr.first("display", "00:59") == "21.000")
        #expect(tr.first("state", "ringing") == "200.000")
    }

    @Test func amrap() throws {
        let tr = try run(resets: 3, then: "100 press start\n200 press start\n400 end")
        #expect(tr.all("round", "2") == ["100.020"])
        #expect(tr.all("round", "3") == ["200.020"])
        #expect(tr.all("display", "05:00").last == "20.000")
        #expect(tr.first("state", "ringing") == "320.000")
    }

    @Test func forTime() throws {
        let tr = try run(resets: 4, then: "145.5 press stop\n300 end")
        #expect(tr.all("display", "00:00").last == "20.000")
        #expect(tr.first("display", "02:05") == "145.000")
        #expect(tr.first("state", "done") == "145.520")
        #expect(tr.values("display").last == "02:05")  // the finish, kept
    }

    /// The Tabata traces in docs/programs.md and docs/buttons.md are lines of
    /// Tests/golden/tabata, in order.
    @Test(arguments: ["docs/programs.md", "docs/buttons.md"]) func theDocumentedTabataTraceIsTheGoldenOne(_ name: String) throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let doc = try String(contentsOf: root.appendingPathComponent(name), encoding: .utf8)
        let golden = try String(contentsOf: root.appendingPathComponent("Tests/golden/tabata/trace.jsonl"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
        let block = try #require(doc.components(separatedBy: "```json\n").dropFirst().first?.components(separatedBy: "```").first)
        let shown = block.split(separator: "\n").map(String.init)
        #expect(shown.count > 10)
        var i = golden.startIndex
        for line in shown {
            guard let at = golden[i...].firstIndex(of: line) else {
                Issue.record("\(name): \(line) is not in Tests/golden/tabata/trace.jsonl after line \(i)")
                return
            }
            i = at + 1
        }
    }

    @Test func theProgramRequestParsesAndRoundTrips() throws {
        let r = try ControlRequest.parse(Array(#"{"cmd":"program","name":"E1"}"#.utf8))
        #expect(r == .program("E1"))
        #expect(try ControlRequest.parse(Array(r.line.utf8)) == r)
        let e = #expect(throws: ControlRequest.Invalid.self) { try ControlRequest.parse(Array(#"{"cmd":"program"}"#.utf8)) }
        #expect(e?.description == "program needs \"name\": a name from interval.programs")
    }
}

@Suite struct SimulatorScreenDetailTests {
    @Test func theStateLineNamesTheProgramRoundLeadInAndOverrun() {
        var p = Progress(leadIn: .milliseconds(6_200))
        p.program = "tAbA"
        p.round = RoundReport(round: 3, set: 2)
        #expect(SimulatorScreen.detail(p) == "program tAbA · set 2 round 3 · lead-in 7 s")
        #expect(SimulatorScreen.detail(Progress(overrun: .milliseconds(65_900))) == "over by 65 s")
        let screen = SimulatorScreen.render(frame: Frame(text: "Pr 7", digits: 4), buzzer: nil, state: .running, leds: [:],
                                            switchPosition: "down", detail: SimulatorScreen.detail(p), color: false)
        #expect(screen.contains("state: running   buzzer: off   program tAbA · set 2 round 3 · lead-in 7 s"))
    }
}

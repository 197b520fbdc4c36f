import Testing
@testable import TockSimulator
@testable import TockSimulator
import TockConfig
import TockCore

/// The simulator's cost per script line is constant: the work of taking
/// scheduled events in order is counted (not timed) for n and 10 n lines.
/// Wall-clock figures are in Benchmarks/sim-scaling.
@Suite struct AgendaTests {
    @Test func elementsComeOutInOrderTiesInTheOrderGiven() {
        var a = Agenda([(3, 0), (1, 1), (3, 2), (2, 3)]) { ($0.0, $0.1) < ($1.0, $1.1) }
        var out: [Int] = []
        while a.first != nil { out.append(a.removeFirst().1) }
        #expect(out == [1, 3, 0, 2])
        #expect(a.count == 0)
    }

    @Test func takingEveryElementIsLinearWork() {
        func work(_ n: Int) -> Int {
            var a = Agenda((0..<n).map { ($0 / 2, $0) }) { ($0.0, $0.1) < ($1.0, $1.1) }
            while a.first != nil { _ = a.removeFirst() }
            return a.work
        }
        #expect(work(1_000) <= 2 * 1_000)
        #expect(work(10_000) <= 10 * work(1_000))
    }

    /// A script of press lines, `n` long, each line half a second after the last.
    func presses(_ n: Int) throws -> Script {
        let buttons = ["start", "stop", "reset"]
        return try Script.parse((0..<n).map { "+0.5 press \(buttons[$0 % 3])" }.joined(separator: "\n"))
    }

    @Test func aScriptTenTimesLongerTakesTenTimesTheWork() throws {
        func work(_ n: Int) throws -> Int {
            let sim = ScriptedSimulation(config: try Configuration.defaults(), script: try presses(n),
                                         epoch: WallTime(secondsSince1970: 1_800_000_000))
            sim.run()
            return sim.agendaWork
        }
        let small = try work(200), large = try work(2_000)
        // Two edges a press; each taken once.
        #expect(small <= 2 * 200 + 10)
        #expect(large <= 10 * small + 10, "\(small) for 200 lines, \(large) for 2000")
    }
}

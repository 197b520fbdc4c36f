import Foundation
import Testing
@testable import TockSimulator
import TockConfig
import TockCore
import TockMock

/// The simulator runs the display and buzzer drivers a board runs, over a
/// mock board whose chips decode what they are sent: over a stopwatch's
/// hundredths, a count-down's colon, a paused blink, a ring and the idle
/// clock, every frame the core draws is lit by the chip as drawn (as the
/// module is wired: a 4-digit TM1637's colon is the second digit's point,
/// a MAX7219 has no colon), and no byte reaches a chip that it would not
/// take.
@Suite struct DriversInSimulationTests {
    static let script = """
        0 press start
        65 press stop
        67 press reset
        68 switch up
        69 press start
        75 press stop
        77 press reset
        78 switch down
        79 press start
        400 end
        """

    func run(_ display: String, digits: Int = 4, extra: String = "") throws -> ScriptedSimulation {
        let yaml = "timer: {presets: [5m]}\ndisplay: {kind: \(display), digits: \(digits)}\nbuzzer: {kind: active}\nleds: [running, ringing]\n" + extra
        let config = try Configuration.parse(yaml: yaml, file: "test.yaml")
        let sim = ScriptedSimulation(config: config, script: try Script.parse(Self.script), epoch: try CalendarText.parse("2026-01-01T00:00:00Z"))
        sim.run()
        return sim
    }

    @Test(arguments: [("tm1637", 4), ("ht16k33", 4), ("max7219", 8)], ["timer", "stopwatch"])
    func everyFrameIsLitAsDrawn(display: (kind: String, digits: Int), mode: String) throws {
        let (kind, digits) = display
        let sim = try run(kind, digits: digits, extra: "mode: \(mode)\n")
        let drawn = try run("none", digits: digits, extra: "mode: \(mode)\n")  // no driver: the frames as the core drew them
        #expect(sim.display.faults.count == 0, "\(sim.display.faults.prefix(3))")
        #expect(sim.display.frames.count == drawn.display.frames.count)
        #expect(sim.display.frames.count > 400, "\(sim.display.frames.count) frames")
        for (lit, core) in zip(sim.display.frames, drawn.display.frames) {
            #expect(lit.at == core.at)
            var want = core.frame.text
            if kind == "max7219" { want = want.filter { $0 != ":" } }
            if kind == "tm1637" {  // the second digit's point is the colon's segment
                let c = Array(core.frame.text)
                if c.count > 2, c[2] == "." { want = String(c[0...1]) + ":" + String(c[3...]).filter { $0 != ":" } }
            }
            #expect(lit.frame.text == want, "at \(lit.at): drew \(core.frame.text)")
            if lit.frame.text != want { break }
        }
        // The buzzer went through the active buzzer's line: it rang at 5:00 and every tone change is on the line.
        let line = try #require(sim.board.outputs["pin"])
        #expect(sim.sounder.history.contains { $0.tone != nil })
        var onOff: [Bool] = []
        for h in sim.sounder.history where onOff.last != (h.tone != nil) { onOff.append(h.tone != nil) }
        #expect(line.history.map(\.active) == onOff)
    }

    @Test func aDriverThatSendsWhatTheChipWouldNotTakeIsAFault() throws {
        let sim = try run("tm1637")
        #expect(sim.display.faults.isEmpty)
        // The chip's own check: a TM1637 with nothing on the wires answers no ACK.
        let bus = try #require(sim.board.displayChip as? MockTwoWireBus)
        #expect(bus.protocolErrors.isEmpty && bus.transactions.count > 400)
    }
}

import Testing
import TockConfig
import TockCore
@testable import TockSimulator

/// The room's light and the clock's verdict in a script: the display's
/// brightness follows the light, and the idle clock shows `--:--` until
/// the script says the clock is synchronised.
@Suite struct LightScenarioTests {
    @Test func aScriptDimsTheRoomAndSynchronisesTheClock() throws {
        let config = try Configuration.parse(yaml: "light: {smoothing: 0s}\ndisplay: {idle: clock, idle_after: 5s}\nclock: {zone: UTC}", file: "t.yaml")
        let script = try Script.parse("""
            0 clock unsync
            1 light 2000
            10 light 2
            20 clock sync
            30 end
            """)
        let sim = ScriptedSimulation(config: config, script: script, epoch: try CalendarText.parse("2026-11-26T12:00:00Z"))
        sim.run(until: sim.origin + .seconds(8))
        #expect(sim.host.shell.frame?.brightness == 7)
        #expect(sim.host.shell.frame?.text == "--:--")
        sim.run(until: sim.origin + .seconds(14))
        #expect(sim.host.shell.frame?.brightness == 1)
        sim.run(until: sim.origin + .seconds(22))
        #expect(sim.host.shell.frame?.text.hasPrefix("12:00") == true)
    }
}

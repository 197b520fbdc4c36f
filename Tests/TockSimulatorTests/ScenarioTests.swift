import Foundation
import Testing
@testable import TockSimulator
import TockConfig
import TockCore

/// Whole scenarios through the scripted simulator: script in, trace out,
/// on virtual time.
struct Trace {
    struct Line: Equatable {
        var t: String
        var key: String
        var value: String
    }

    var lines: [Line]

    init(config yaml: String = "", script: String, epoch: String = "2026-01-01T00:00:00Z") throws {
        let config = try Configuration.parse(yaml: yaml, file: "test.yaml")
        var raw: [String] = []
        let sim = ScriptedSimulation(config: config, script: try Script.parse(script), epoch: try CalendarText.parse(epoch), trace: { raw.append($0) })
        sim.run()
        lines = try raw.map { line in
            let obj = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            let key = obj.keys.first { $0 != "t" }!
            let t = String(line.dropFirst(5).prefix { $0 != "," })
            return Line(t: t, key: key, value: "\(obj[key]!)")
        }
    }

    func values(_ key: String) -> [String] { lines.filter { $0.key == key }.map(\.value) }
    func first(_ key: String, _ value: String) -> String? { lines.first { $0.key == key && $0.value == value }?.t }
    func all(_ key: String, _ value: String) -> [String] { lines.filter { $0.key == key && $0.value == value }.map(\.t) }
}

@Suite struct ScenarioTests {
    @Test func theTraceStartsWithDisplayBuzzerAndStateAtZero() throws {
        let tr = try Trace(config: "timer: {presets: [5m]}", script: "1 end")
        #expect(tr.lines.prefix(3) == [
            .init(t: "0.000", key: "display", value: "05:00"),
            .init(t: "0.000", key: "buzzer", value: "0"),
            .init(t: "0.000", key: "state", value: "ready"),
        ])
    }

    @Test func aCountDownRingsAtPressPlusPresetToTheMillisecond() throws {
        let tr = try Trace(config: "timer: {presets: [10s]}", script: "1.234 press start\n20 end")
        #expect(tr.first("state", "running") == "1.254")  // 20 ms debounce
        #expect(tr.first("display", "00:09") == "2.234")
        #expect(tr.first("state", "ringing") == "11.234")
        #expect(tr.first("buzzer", "1") == "11.234")
        #expect(tr.first("display", "00:00") == "11.234")
    }

    @Test func aBouncyStartIsOnePress() throws {
        let tr = try Trace(config: "timer: {presets: [10s]}", script: "1 bounce start 12\n+2 bounce start\n5 end")
        // The second press is refused (already running): a chirp, no restart.
        #expect(tr.values("state") == ["ready", "running"])
        #expect(tr.all("buzzer", "1").count == 1)
    }

    @Test func aDisplayThatBlinksWritesBothFrames() throws {
        let tr = try Trace(config: "timer: {presets: [10s]}", script: "0 press start\n2.5 press stop\n5 end")
        #expect(tr.first("state", "paused") == "2.520")
        let after = tr.lines.filter { $0.key == "display" && $0.t >= "2.520" }.map(\.value)
        #expect(after == ["    ", "00:08", "    ", "00:08", "    "])
    }

    /// The seed pizza timer: reset while counting up, flip to Down, start.
    @Test func pizzaTimerRegression() throws {
        let tr = try Trace(config: "switch: up\ntimer: {presets: [10s]}", script: """
            0 press start
            3 press stop
            4 press reset
            5 switch down
            6 press start
            30 end
            """)
        #expect(tr.values("state") == ["ready", "running", "paused", "ready", "running", "ringing"])
        #expect(tr.first("display", "00:10") == "5.020")
        #expect(tr.first("state", "ringing") == "16.000")
    }

    /// The seed stopwatch: `else if` rollovers showed 60 seconds for a tick.
    @Test func stopwatchRolloverRegression() throws {
        let tr = try Trace(config: "mode: stopwatch\nswitch: up", script: "0 press start\n62 end")
        let shown = tr.values("display")
        #expect(shown.contains("59:99"))
        #expect(!shown.contains { $0.hasPrefix("60") })
        // `01:00` is 1.00 s as SS:hh, then one minute as MM:SS.
        #expect(tr.all("display", "01:00") == ["1.000", "60.000"])
        #expect(tr.first("display", "59:99") == "59.990")
        #expect(tr.all("display", "01:01").last == "61.000")
    }

    @Test func longPressEditsThePreset() throws {
        let tr = try Trace(config: "timer: {presets: [5m]}", script: """
            0 press reset for 1.2
            2 press start
            +0.5 press start
            +0.5 press reset
            +1 press start
            400 end
            """)
        #expect(tr.first("state", "editing") == "1.000")
        // Each step shows once the press is debounced (20 ms).
        #expect(tr.first("display", "05:10") == "2.020")
        #expect(tr.first("display", "05:20") == "2.520")
        #expect(tr.values("state").prefix(3) == ["ready", "editing", "ready"])
        // The saved 5:20 counts down: started at 4.0, rings at 324.0.
        #expect(tr.first("state", "ringing") == "324.000")
    }

    @Test func ringingSilencesItselfAfterRingFor() throws {
        let tr = try Trace(config: "timer: {presets: [10s]}\nalarm: {ring_for: 5s}", script: "0 press start\n30 end")
        #expect(tr.first("state", "ringing") == "10.000")
        #expect(tr.first("state", "done") == "15.000")
        #expect(tr.lines.last { $0.key == "buzzer" }?.value == "0")
    }

    @Test func countdownToAnInstantWithAnEpoch() throws {
        let tr = try Trace(config: "mode: countdown\ncountdown: {until: \"2026-01-01T00:02:00+00:00\"}",
                           script: "130 end", epoch: "2026-01-01T00:00:00Z")
        #expect(tr.lines.first?.value == "02:00")
        #expect(tr.first("state", "ringing") == "120.000")
        #expect(tr.first("state", "over") == "180.000" || tr.first("state", "over") == nil)
    }

    @Test func intervalProgram() throws {
        let tr = try Trace(config: "mode: interval\ninterval: {work: 20s, rest: 10s, rounds: 2}\nleds: [rest]", script: "0 press start\n60 end")
        #expect(tr.first("led.rest", "true") == "20.000" || tr.first("led.rest", "1") == "20.000")
        #expect(tr.first("display", "00:10.") == "20.000")
        #expect(tr.first("state", "ringing") == "50.000")
    }

    @Test func aLongScenarioRunsInMilliseconds() throws {
        let start = ContinuousClock.now
        _ = try Trace(config: "timer: {presets: [99m]}", script: "0 press start\n6000 end")
        let took = ContinuousClock.now - start
        // Reported, not asserted against a tight bound: 100 minutes of
        // virtual time, about 6000 frames.
        print("100 min of virtual count-down took \(took)")
        #expect(took < .seconds(30))
    }
}

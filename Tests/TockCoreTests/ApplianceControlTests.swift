import Testing
@testable import TockCore

@Suite struct ApplianceControlTests {
    @Test func setReplacesThePresetInReady() throws {
        var a = VirtualAppliance(.timer([.seconds(300)]))
        a.take(try a.core.setPreset(.seconds(750), at: a.clock))
        #expect(a.display == "12:30")
        #expect(a.persisted.last?.presets == [750_000_000_000])
    }

    @Test func setIsRefusedWhileCounting() {
        var a = VirtualAppliance(.timer([.seconds(300)]))
        a.press(.start, at: 0)
        a.run(to: 1)
        #expect(throws: Appliance.Refusal("the timer is running; stop and reset it first")) {
            try a.core.setPreset(.seconds(60), at: a.clock)
        }
        #expect(a.state == .running)
    }

    @Test func modeChangesInReadyAndOutlivesARestart() throws {
        var a = VirtualAppliance(.timer([.seconds(300)]))
        a.take(try a.core.setMode(.interval, at: a.clock))
        #expect(a.core.settings.mode == .interval && a.display == "00:30")
        let snap = a.persisted.last!
        #expect(snap.mode == "interval" && snap.fileMode == "timer")
        // Same file after a restart: still interval.
        let b = Appliance(settings: .timer([.seconds(300)]), switchPosition: .down, restoring: snap, at: now(10))
        #expect(b.settings.mode == .interval)
        // The file's own mode changed: the file wins.
        let c = Appliance(settings: .timer([.seconds(300)], mode: .stopwatch), switchPosition: .down, restoring: snap, at: now(10))
        #expect(c.settings.mode == .stopwatch)
    }

    @Test func aCountdownNeedsItsInstantInTheFile() {
        var a = VirtualAppliance(.timer())
        #expect(throws: Appliance.Refusal.self) { try a.core.setMode(.countdown, at: a.clock) }
    }

    @Test func aReloadKeepsACountRunningAndEditedPresets() throws {
        var a = VirtualAppliance(.timer([.seconds(300)]))
        a.take(try a.core.setPreset(.seconds(120), at: a.clock))
        a.press(.start, at: 1)
        a.run(to: 31)
        var s = Settings.timer([.seconds(300)])
        s.alarm.ringFor = .seconds(5)
        a.core = a.core.reconfigured(s, at: a.clock)
        a.take(a.core.handle(.tick, at: a.clock))
        #expect(a.state == .running && a.display == "01:30")
        a.run(to: 121)
        #expect(a.state == .ringing)
        a.run(to: 126)
        #expect(a.state == .done)  // the new ring time applies
    }

    @Test func aReloadWithNewPresetsUsesThem() {
        var a = VirtualAppliance(.timer([.seconds(300)]))
        a.core = a.core.reconfigured(.timer([.seconds(60), .seconds(90)]), at: a.clock)
        a.take(a.core.handle(.tick, at: a.clock))
        #expect(a.display == "01:00")
    }
}

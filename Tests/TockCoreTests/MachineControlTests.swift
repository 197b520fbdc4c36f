import Testing
@testable import TockCore

@Suite struct MachineControlTests {
    @Test func setReplacesThePresetInReady() throws {
        var a = VirtualMachine(.timer([.seconds(300)]))
        try a.request(.setPreset(.seconds(750)))
        #expect(a.display == "12:30")
        #expect(a.persisted.last?.count.presets == [750_000_000_000])
    }

    @Test func setIsRefusedWhileCounting() {
        var a = VirtualMachine(.timer([.seconds(300)]))
        a.press(.start, at: 0)
        a.run(to: 1)
        #expect(throws: Machine.Refusal("the timer is running; stop and reset it first")) {
            try a.request(.setPreset(.seconds(60)))
        }
        #expect(a.state == .running)
    }

    @Test func modeChangesInReadyAndOutlivesARestart() throws {
        var a = VirtualMachine(.timer([.seconds(300)]))
        try a.request(.setMode(.interval))
        #expect(a.core.settings.mode == .interval && a.display == "00:30")
        let snap = a.persisted.last!
        #expect(snap.mode == .interval && snap.fileMode == .timer)
        // Same file after a restart: still interval.
        let b = Machine(settings: .timer([.seconds(300)]), switchPosition: .down, restoring: snap, at: now(10))
        #expect(b.settings.mode == .interval)
        // The file's own mode changed: the file wins.
        let c = Machine(settings: .timer([.seconds(300)], mode: .stopwatch), switchPosition: .down, restoring: snap, at: now(10))
        #expect(c.settings.mode == .stopwatch)
    }

    @Test func backFromIntervalTheTimerHasThePresetItLeft() throws {
        var a = VirtualMachine(.timer([.seconds(300), .seconds(600)]))
        try a.request(.setPreset(.seconds(750)))
        try a.request(.setMode(.interval))
        try a.request(.setMode(.timer))
        #expect(a.display == "12:30")
        #expect(a.core.presets?.all == [.seconds(750), .seconds(600)])
        // And after a restart while in interval mode.
        try a.request(.setMode(.interval))
        let snap = a.persisted.last!
        var b = Machine(settings: .timer([.seconds(300), .seconds(600)]), switchPosition: .down, restoring: snap, at: now(10))
        _ = b.handle(.setMode(.timer), at: now(11))
        #expect(b.presets?.current == .seconds(750))
    }

    @Test func aCountdownNeedsItsInstantInTheFile() {
        var a = VirtualMachine(.timer())
        #expect(throws: Machine.Refusal.self) { try a.request(.setMode(.countdown)) }
    }

    @Test func aReloadKeepsACountRunningAndEditedPresets() throws {
        var a = VirtualMachine(.timer([.seconds(300)]))
        try a.request(.setPreset(.seconds(120)))
        a.press(.start, at: 1)
        a.run(to: 31)
        var s = Settings.timer([.seconds(300)])
        s.alarm.ringFor = .seconds(5)
        a.take(a.core.handle(.reconfigure(s), at: a.clock))
        #expect(a.state == .running && a.display == "01:30")
        a.run(to: 121)
        #expect(a.state == .ringing)
        a.run(to: 126)
        #expect(a.state == .done)  // the new ring time applies
    }

    @Test func aReloadWithNewPresetsUsesThem() {
        var a = VirtualMachine(.timer([.seconds(300)]))
        a.take(a.core.handle(.reconfigure(.timer([.seconds(60), .seconds(90)])), at: a.clock))
        #expect(a.display == "01:00")
    }
}

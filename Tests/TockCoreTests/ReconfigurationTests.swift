import Testing
@testable import TockCore

/// A change of configuration file, by reload or restart, never cuts short,
/// rings early or loses a count that is running or paused: it applies from
/// the next reset. The file is the source of the presets: edits made on
/// the box persist until the file's own list changes.
@Suite struct ReconfigurationTests {
    let tenMinutes = Settings.timer([.seconds(600), .seconds(300)])
    let oneMinute = Settings.timer([.seconds(60)])

    @Test func aReloadWithAShorterPresetDoesNotCutARunningCountShort() {
        var a = VirtualMachine(tenMinutes)
        a.press(.start, at: 0)
        a.run(to: 100)
        a.take(a.core.handle(.reconfigure(oneMinute), at: a.clock))
        #expect(a.core.pendingSettings == oneMinute)
        a.run(to: 101)
        #expect(a.display == "08:19")
        a.run(to: 599)
        #expect(a.core.stateName == .running)
        a.run(to: 600.001)
        #expect(a.core.stateName == .ringing)
        // Silence, reset: the file's list from now on.
        a.press(.reset, at: 601)
        a.run(to: 602)
        #expect(a.core.stateName == .ready && a.display == "01:00")
        #expect(a.core.pendingSettings == nil && a.core.settings.presets == [.seconds(60)])
    }

    /// The quiet tick reads `waits`, kept beside the pending settings
    /// rather than worked out from them: both say the same at every step,
    /// from a restart's first state (an initialiser sets no observer) to
    /// the reset that applies the file.
    @Test func theWaitingFlagFollowsThePendingSettings() {
        var a = VirtualMachine(tenMinutes)
        #expect(!a.core.setup.waits)
        a.press(.start, at: 0)
        a.run(to: 10)
        a.take(a.core.handle(.reconfigure(oneMinute), at: a.clock))
        #expect(a.core.setup.waits && a.core.pendingSettings == oneMinute)
        var b = VirtualMachine(oneMinute, epoch: epoch + .seconds(20), restoring: a.persisted.last!)
        #expect(b.core.setup.waits && b.core.pendingSettings == oneMinute)
        b.press(.stop, at: 1)
        b.press(.reset, at: 2)
        b.run(to: 3)
        #expect(!b.core.setup.waits && b.core.pendingSettings == nil && b.display == "01:00")
    }

    @Test func aReloadWhilePausedWaitsForTheReset() {
        var a = VirtualMachine(tenMinutes)
        a.press(.start, at: 0)
        a.press(.stop, at: 30)
        a.run(to: 31)
        a.take(a.core.handle(.reconfigure(Settings.timer([.seconds(60)], mode: .stopwatch)), at: a.clock))
        a.run(to: 40)
        #expect(a.core.stateName == .paused && a.core.settings.mode == .timer)
        a.press(.reset, at: 41)
        a.run(to: 42)
        #expect(a.core.settings.mode == .stopwatch && a.core.pendingSettings == nil)
    }

    @Test func aRestartWithAChangedFileContinuesTheCountAndAppliesTheFileAtTheReset() {
        var a = VirtualMachine(tenMinutes)
        a.press(.start, at: 0)
        a.run(to: 100)
        let saved = a.persisted.last!
        #expect(saved.filePresets == [600_000_000_000, 300_000_000_000])
        // Power back 50 s later with a file that lists one 1-minute preset.
        let b = VirtualMachine(oneMinute, epoch: epoch + .seconds(150), restoring: saved)
        #expect(b.core.stateName == .running && b.display == "07:30")
        #expect(b.core.pendingSettings == oneMinute)
        // Restarted again before the reset: still the count it had.
        var c = VirtualMachine(oneMinute, epoch: epoch + .seconds(200), restoring: b.persisted.last!)
        #expect(c.core.stateName == .running && c.display == "06:40")
        c.press(.stop, at: 1)
        c.press(.reset, at: 2)
        c.run(to: 3)
        #expect(c.display == "01:00" && c.core.pendingSettings == nil)
    }

    @Test func editsPersistUntilTheFilesListChanges() throws {
        var a = VirtualMachine(tenMinutes)
        try a.request(.setPreset(.seconds(120)))
        a.run(to: 1)
        let saved = a.persisted.last!
        let same = VirtualMachine(tenMinutes, restoring: saved)
        #expect(same.display == "02:00")
        let changed = VirtualMachine(Settings.timer([.seconds(600), .seconds(240)]), restoring: saved)
        #expect(changed.display == "10:00")
        #expect(changed.core.program.countTimer?.presets == [.seconds(600), .seconds(240)])
    }

    @Test func aStateFileWithoutTheFilesListKeepsItsEdits() throws {
        var a = VirtualMachine(tenMinutes)
        try a.request(.setPreset(.seconds(120)))
        a.run(to: 1)
        var saved = a.persisted.last!
        saved.filePresets = nil
        #expect(VirtualMachine(oneMinute, restoring: saved).display == "02:00")
    }
}

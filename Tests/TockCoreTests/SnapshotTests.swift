import Foundation
import Testing
@testable import TockCore

/// Restarts: a snapshot taken on one boot, restored on another with a
/// different monotonic clock but the same wall clock.
@Suite struct SnapshotTests {
    /// The same wall clock as `now(s)`, but a monotonic clock that started
    /// from zero again (a reboot).
    func afterReboot(_ s: Double) -> Now {
        Now(monotonic: Instant(nanoseconds: Int64(5e9)), wall: epoch + .nanoseconds(Int64((s * 1e9).rounded())))
    }

    @Test func aRunningCountDownContinuesAsIfTheBoxHadStayedOn() {
        var a = VirtualMachine(.timer([.seconds(300)]))
        a.press(.start, at: 0)
        a.run(to: 1)
        let snap = a.persisted.last!
        #expect(snap.count.phase == .running(since: (epoch + .seconds(0)).nanoseconds, before: 0))
        // Power comes back 100 s later.
        var b = Machine(settings: .timer([.seconds(300)]), switchPosition: .down, restoring: snap, at: afterReboot(100))
        let out = b.handle(.powerOn, at: afterReboot(100)).commands
        #expect(out.contains(.render(Frame(text: "03:20", digits: 4))))
        #expect(b.stateName == .running)
    }

    @Test func aCountDownWhoseEndPassedWhileOffRingsAtOnce() {
        var a = VirtualMachine(.timer([.seconds(300)]))
        a.press(.start, at: 0)
        a.run(to: 1)
        var b = Machine(settings: .timer([.seconds(300)]), switchPosition: .down, restoring: a.persisted.last!, at: afterReboot(3_600))
        let out = b.handle(.powerOn, at: afterReboot(3_600)).commands
        #expect(b.stateName == .ringing)
        #expect(out.contains { if case .buzzer(let t) = $0 { t != nil } else { false } })
    }

    @Test func aPausedCountStaysPausedAtTheSameValue() {
        var a = VirtualMachine(.timer([.seconds(300)]))
        a.press(.start, at: 0)
        a.press(.stop, at: 42.5)
        a.run(to: 43)
        var b = Machine(settings: .timer([.seconds(300)]), switchPosition: .down, restoring: a.persisted.last!, at: afterReboot(1_000))
        _ = b.handle(.powerOn, at: afterReboot(1_000)).commands
        #expect(b.stateName == .paused)
        #expect(b.program.presentation(at: afterReboot(1_000)).content == .down(.milliseconds(257_500)))
    }

    @Test func editedPresetsAndTheDirectionSurvive() {
        var a = VirtualMachine(.timer([.seconds(300), .seconds(60)]), switch: .up)
        a.edge(.button(.reset), true, at: 0)
        a.edge(.button(.reset), false, at: 1.2)
        a.press(.start, at: 2)
        a.press(.reset, at: 3)
        a.run(to: 4)
        let snap = a.persisted.last!
        #expect(snap.count.presets == [310_000_000_000, 60_000_000_000] && snap.count.program.flat.direction == .up)
        let b = Machine(settings: .timer([.seconds(300), .seconds(60)]), switchPosition: .up, restoring: snap, at: afterReboot(10))
        #expect(b.program.countTimer?.preset == .seconds(310))
    }

    @Test func theSnapshotChangesOnlyOnTransitionsNotWithTime() {
        var a = VirtualMachine(.timer([.seconds(300)]))
        let initial = a.persisted.count
        a.press(.start, at: 0)
        a.run(to: 200)
        #expect(a.persisted.count == initial + 1)  // one write for the whole count
        a.run(to: 300)
        #expect(a.persisted.count == initial + 2)  // ringing
    }

    @Test func aSnapshotOfAnotherModeIsIgnoredInReady() {
        let snap = Snapshot(mode: .interval, phase: .ready, presets: [], presetIndex: 0, direction: .down)
        let b = Machine(settings: .timer(), switchPosition: .down, restoring: snap, at: afterReboot(0))
        #expect(b.stateName == .ready && b.settings.mode == .timer)
    }

    /// A count in progress is never lost to a change of file: it goes on in
    /// its own mode, and the file's applies from its reset.
    @Test func aCountOfAnotherModeContinuesUntilItsReset() {
        let snap = Snapshot(mode: .interval, phase: .paused(elapsed: 5_000_000_000), presets: [], presetIndex: 0, direction: .down)
        var b = Machine(settings: .timer(), switchPosition: .down, restoring: snap, at: afterReboot(0))
        #expect(b.stateName == .paused && b.settings.mode == .interval && b.pendingSettings == .timer())
        _ = b.handle(.remotePress(.pressed(.reset)), at: afterReboot(1))
        #expect(b.stateName == .ready)
        #expect(b.settings.mode == .timer)
        #expect(b.pendingSettings == nil)
    }

    @Test func aCalendarCountdownRemembersThatItAlreadyRang() {
        var s = Settings()
        s.mode = .countdown
        s.countdownUntil = epoch + .seconds(10)
        let over = Snapshot(mode: .countdown, phase: .over, presets: [], presetIndex: 0, direction: .down)
        let b = Machine(settings: s, switchPosition: .down, restoring: over, at: afterReboot(20))
        #expect(b.stateName == .over)
        // Counting when the power went, the instant passed while off: ring once now.
        let counting = Snapshot(mode: .countdown, phase: .running(since: (epoch + .seconds(10)).nanoseconds, before: 0), presets: [], presetIndex: 0, direction: .down)
        let c = Machine(settings: s, switchPosition: .down, restoring: counting, at: afterReboot(20))
        #expect(c.stateName == .ringing)
    }
}

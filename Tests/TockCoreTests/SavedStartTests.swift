import Testing
@testable import TockCore

/// A count's stored start is written once and comes back as it was, however
/// many times the box restarts: a restore and the save after it read the
/// clocks at different moments, and a wall instant made from the monotonic
/// one with each save's own reading moved by that reading's noise.
@Suite struct SavedStartTests {
    func since(_ s: Snapshot) -> Int64? {
        if case .running(let since, _) = s.count.program.phase { since } else { nil }
    }

    /// One restart: restored at `t0`, its first batch (power-on) read
    /// `noise` later on the wall clock than on the monotonic one.
    func restart(_ saved: Snapshot, noise: Duration, boot: Int) -> (Machine, Snapshot?) {
        let t0 = at(Double(boot) * 100)
        let wall = epoch + (t0 - at(0))
        var m = Machine(settings: .timer(mode: .stopwatch), switchPosition: .up, restoring: saved, at: Now(monotonic: t0, wall: wall))
        let later = t0 + .microseconds(70)
        let out = m.handle(.powerOn, at: Now(monotonic: later, wall: wall + .microseconds(70) + noise))
        let persisted = out.items.compactMap { if case .command(.persist(let s)) = $0 { s } else { nil } }.last
        return (m, persisted)
    }

    /// A stopwatch started at 1 s and saved, 4 s on.
    func started() -> VirtualMachine {
        var a = VirtualMachine(.timer(mode: .stopwatch), switch: .up)
        a.press(.start, at: 1)
        a.run(to: 5)
        return a
    }

    @Test func aStopwatchRestartedAHundredTimesKeepsItsStartToTheNanosecond() throws {
        var saved = try #require(started().persisted.last)
        let first = try #require(since(saved))
        var rng = SystemRandomNumberGenerator()
        for boot in 1...100 {
            // The readings' skew as on a loaded board: up to 40 µs, either way.
            let (_, persisted) = restart(saved, noise: .microseconds(Int64.random(in: -40...40, using: &rng)), boot: boot)
            saved = try #require(persisted, "the power-on batch persists")
            #expect(since(saved) == first, "boot \(boot): the start moved by \(((since(saved) ?? 0) - first)) ns")
        }
    }

    /// A step of the clock is not noise: the start written after it is the
    /// count's as the stepped clock reads it (the count, on the monotonic
    /// clock, does not jump).
    @Test func aStepOfTheClockMovesTheStoredStartWithIt() throws {
        var a = started()
        let firstSaved = try #require(a.persisted.last)
        let first = try #require(since(firstSaved))
        a.stepClock(by: .seconds(2), at: 10)
        a.press(.stop, at: 11)  // paused: nothing anchored to the wall
        a.press(.start, at: 12)
        let resumedSaved = try #require(a.persisted.last)
        let resumed = try #require(since(resumedSaved))
        // Resumed 11 s after the first start on the monotonic clock, and
        // written on the stepped clock: 13 s after it on the wall.
        #expect(abs(resumed - first - 13_000_000_000) < 100_000_000, "\(resumed - first) ns")
        let (_, after) = restart(resumedSaved, noise: .zero, boot: 1)
        let afterSaved = try #require(after)
        #expect(since(afterSaved) == resumed)
    }

    /// A save as the service stops uses the same offset.
    @Test func theLastSaveAsTheServiceStopsKeepsTheStartToo() throws {
        let saved = try #require(started().persisted.last)
        let (m, _) = restart(saved, noise: .microseconds(23), boot: 1)
        let t = at(150)
        #expect(since(m.savedSnapshot(at: Now(monotonic: t, wall: epoch + (t - at(0)) + .microseconds(31)))) == since(saved))
    }
}

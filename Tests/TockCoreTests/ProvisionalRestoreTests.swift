import Testing
@testable import TockCore

/// A count restored after a power cut while the wall clock is unverified
/// (a Pi without a battery-backed clock boots with an old time) is
/// corrected by the step that makes the clock trusted: every count ends
/// when it would have ended had the box stayed on.
@Suite struct ProvisionalRestoreTests {
    /// 12m30s started at 1 s; the power is cut at 66 s and the box is back
    /// 30 s of true time later (96 s), with its clock 225 s behind.
    func pastaAfterACut(behind: Duration = .seconds(225)) throws -> VirtualMachine {
        var a = VirtualMachine(.timer([.seconds(750)]))
        a.press(.start, at: 1)
        a.run(to: 66)
        let saved = try #require(a.persisted.last)
        #expect(a.state == .running)
        return VirtualMachine(.timer([.seconds(750)]), epoch: epoch + .seconds(96) - behind, restoring: saved, synchronised: false)
    }

    /// When it rang, in true seconds since the first boot's origin (the
    /// second boot's virtual clock starts at 96 s true time).
    func rangAt(_ b: VirtualMachine) -> Double? {
        b.times { $0 == .report(.stateChanged(.ringing)) }.first
            .map { Double(($0 - at(0)).nanoseconds) / 1e9 + 96 }
    }

    @Test func aCountRestoredOnAClockBehindIsCorrectedWhenNTPSetsTheClock() throws {
        var b = try pastaAfterACut()
        b.run(to: 10)
        // Until then the restored count is behind by the clock's error.
        #expect(b.state == .running)
        b.stepClock(by: .seconds(225), at: 20, synchronised: true)
        b.run(to: 800)
        let rang = try #require(rangAt(b))
        // Started at 1.0x s (a press is dated at its first edge), 750 s long.
        #expect(abs(rang - 751) < 0.1, "rang at \(rang) s, not 751 s")
    }

    @Test func aClockAheadAtBootIsCorrectedBackTheSameWay() throws {
        var b = try pastaAfterACut(behind: .seconds(-100))
        b.run(to: 5)
        b.stepClock(by: .seconds(-100), at: 6, synchronised: true)
        b.run(to: 800)
        let rang = try #require(rangAt(b))
        #expect(abs(rang - 751) < 0.1, "rang at \(rang) s, not 751 s")
    }

    @Test func aSynchronisedFlagWithoutAStepCorrectsNothing() throws {
        var b = try pastaAfterACut(behind: .zero)
        b.run(to: 5)
        b.synchronised = true
        b.run(to: 800)
        #expect(abs(try #require(rangAt(b)) - 751) < 0.1)
        #expect(b.core.provisional == nil)
    }

    @Test func aCountPausedBeforeTheClockIsTrustedIsTheOwnersAndStaysAsItIs() throws {
        var b = try pastaAfterACut()
        b.press(.stop, at: 10)
        b.run(to: 12)
        #expect(b.state == .paused)
        let left = b.core.progress(at: b.clock).remaining
        b.stepClock(by: .seconds(225), at: 20, synchronised: true)
        #expect(b.state == .paused)
        #expect(b.core.progress(at: b.clock).remaining == left)
    }

    @Test func anExtraTimerRestoredOnAClockBehindIsCorrectedToo() throws {
        var a = VirtualMachine(.timer())
        try a.request(.timer(.add(name: "EGG", duration: .seconds(360))))
        a.run(to: 60)
        let saved = try #require(a.persisted.last)
        var b = VirtualMachine(.timer(), epoch: epoch + .seconds(90) - .seconds(300), restoring: saved, synchronised: false)
        b.run(to: 5)
        #expect(b.core.timers.named("EGG")?.left(at: b.t) == .seconds(360 - 95 + 300))
        b.stepClock(by: .seconds(300), at: 10, synchronised: true)
        // True time now 100 s: 260 s left, as if the box had stayed on.
        #expect(b.core.timers.named("EGG")?.left(at: b.t) == .seconds(260))
        // And written again as the corrected clock reads it.
        #expect(b.persisted.last?.timers?.first?.state == .running(ends: (epoch + .seconds(360)).nanoseconds))
    }

    @Test func aRestoreOnATrustedClockIsNotProvisional() throws {
        var a = VirtualMachine(.timer([.seconds(750)]))
        a.press(.start, at: 1)
        a.run(to: 66)
        let b = VirtualMachine(.timer([.seconds(750)]), epoch: epoch + .seconds(96), restoring: a.persisted.last)
        #expect(b.core.provisional == nil)
    }

    /// A count started on a clock NTP never set (its state written as
    /// unverified) is off by an error no step can tell: the box at its
    /// first boot read a build date, NTP later steps the clock by years.
    /// It goes on as restored, never moved by the step.
    @Test func aCountWrittenUnderAnUnverifiedClockIsNotMovedByTheStep() throws {
        var a = VirtualMachine(.timer([.seconds(750)]), synchronised: false)
        a.press(.start, at: 1)
        a.run(to: 66)
        let saved = try #require(a.persisted.last)
        #expect(saved.wallUnverified)
        var b = VirtualMachine(.timer([.seconds(750)]), epoch: epoch + .seconds(96), restoring: saved, synchronised: false)
        #expect(b.core.provisional == nil)
        b.run(to: 5)
        b.stepClock(by: .seconds(3 * 365 * 86_400), at: 6, synchronised: true)
        b.run(to: 10)
        #expect(b.state == .running)
        #expect(b.core.progress(at: b.clock).remaining == .seconds(750 - 105))
    }
}

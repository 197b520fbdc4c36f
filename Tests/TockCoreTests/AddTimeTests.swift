import Testing
@testable import TockCore

/// Adding time to a count in progress (AddTime.swift, docs/timers.md), on
/// virtual time: the end moves by exactly the amount, in every state a
/// count can be in, from outside and from the box, at the limits, across
/// a power cut and through a fleet group.
@Suite struct AddTimeTests {
    func left(_ a: VirtualMachine) -> Duration? { a.core.program.countTimer?.left(at: a.t) }
    func add(_ a: inout VirtualMachine, _ d: Duration, _ ref: Machine.CountRef = .main, at s: Double) throws(Machine.Refusal) {
        a.run(to: s)
        try a.request(.addTime(d, ref))
    }
    func refusal(_ a: inout VirtualMachine, _ d: Duration, _ ref: Machine.CountRef = .main, at s: Double) -> String? {
        do throws(Machine.Refusal) { try add(&a, d, ref, at: s) } catch { return error.description }
        return nil
    }

    @Test func aMinuteAddedToARunningCountDownMovesItsEndByExactlyAMinute() throws {
        var a = VirtualMachine(.timer([.seconds(60)]))
        a.act(.pressed(.start), at: 1)
        try add(&a, .seconds(60), at: 31)
        #expect(a.display == "01:30")
        #expect(left(a) == .seconds(90))
        a.run(to: 121 - 0.001)
        #expect(a.state == .running)
        a.run(to: 121)
        #expect(a.state == .ringing)
    }

    @Test func addedInTheLast100msTheCountDoesNotRingAtItsOldEnd() throws {
        var a = VirtualMachine(.timer([.seconds(60)]))
        a.act(.pressed(.start), at: 1)
        try add(&a, .seconds(60), at: 60.95)
        a.run(to: 61.5)
        #expect(a.state == .running)
        #expect(a.core.snapshot(at: a.clock).count.phase.stateName == .running)
        #expect(!a.log.contains { if case .report(.stateChanged(.ringing)) = $0.1 { true } else { false } })
        a.run(to: 121 - 0.001)
        #expect(a.state == .running)
        a.run(to: 121)
        #expect(a.state == .ringing)
    }

    @Test func timeTakenAwayMovesTheEndEarlierAndLessThanASecondLeftIsRefused() throws {
        var a = VirtualMachine(.timer([.seconds(120)]))
        a.act(.pressed(.start), at: 0)
        try add(&a, .seconds(-30), at: 10)
        #expect(left(a) == .seconds(80))
        let before = a.core.snapshot(at: a.clock)
        let why = refusal(&a, .seconds(-80), at: 10)
        #expect(why == "the count has 1m20s left; taking away 1m20s would leave less than 1s (cancel or reset it instead)")
        #expect(a.core.snapshot(at: a.clock) == before)
        try add(&a, .milliseconds(-79_000), at: 10)
        #expect(left(a) == .seconds(1))
        a.run(to: 11)
        #expect(a.state == .ringing)
    }

    @Test func aPausedCountTakesTimeAndResumesFromTheNewValue() throws {
        var a = VirtualMachine(.timer([.seconds(60)]))
        a.act(.pressed(.start), at: 0)
        a.act(.pressed(.stop), at: 20)
        try add(&a, .seconds(60), at: 25)
        #expect(a.state == .paused)
        #expect(left(a) == .seconds(100))
        a.act(.pressed(.start), at: 30)
        a.run(to: 129.999)
        #expect(a.state == .running)
        a.run(to: 130)
        #expect(a.state == .ringing)
    }

    @Test func aRingingCountDownGivenTimeCountsThatTimeAgainFromNow() throws {
        var a = VirtualMachine(.timer([.seconds(10)]))
        a.act(.pressed(.start), at: 0)
        a.run(to: 12)
        #expect(a.state == .ringing && a.buzzing)
        try add(&a, .seconds(30), at: 12)
        #expect(a.state == .running && !a.buzzing)
        #expect(a.display == "00:30")
        a.run(to: 42)
        #expect(a.state == .ringing)
        // Done (silenced) too; nothing to take away from a count that ended.
        a.act(.pressed(.stop), at: 43)
        #expect(a.state == .done)
        #expect(refusal(&a, .seconds(-5), at: 44) == "the count has ended; there is no time left to take away")
        try add(&a, .seconds(5), at: 44)
        a.run(to: 49)
        #expect(a.state == .ringing)
        // Reset returns to the preset: the added time was for that count only.
        a.act(.pressed(.reset), at: 50)
        #expect(a.state == .ready && a.display == "00:10")
    }

    @Test func aCountUpToItsPresetCountsOnToATargetThatMuchFurther() throws {
        var a = VirtualMachine(.timer([.seconds(60)]), switch: .up)
        a.act(.pressed(.start), at: 0)
        try add(&a, .seconds(30), at: 10)
        a.run(to: 89.999)
        #expect(a.state == .running && a.display == "01:29")
        a.run(to: 90)
        #expect(a.state == .ringing && a.display == "01:30")
        try add(&a, .seconds(60), at: 91)
        #expect(a.display == "01:30" && a.state == .running)
        a.run(to: 151)
        #expect(a.state == .ringing && a.display == "02:30")
    }

    @Test func whereItMakesNoSenseItIsRefusedWithWhy() {
        var ready = VirtualMachine(.timer())
        #expect(refusal(&ready, .seconds(60), at: 1) == "nothing is counting: start the count first (tock start), or change the preset (tock set)")
        var stopwatch = VirtualMachine(.timer(mode: .stopwatch), switch: .up)
        stopwatch.act(.pressed(.start), at: 0)
        #expect(refusal(&stopwatch, .seconds(60), at: 1)?.hasPrefix("a stopwatch counting up has no end to add to") == true)
        var interval = VirtualMachine(.timer(mode: .interval))
        interval.act(.pressed(.start), at: 0)
        #expect(refusal(&interval, .seconds(60), at: 1)?.hasPrefix("an interval program's rounds keep their lengths") == true)
        var zero = VirtualMachine(.timer())
        zero.act(.pressed(.start), at: 0)
        #expect(refusal(&zero, .zero, at: 1)?.hasPrefix("add needs an amount other than 0") == true)
        var noTimer = VirtualMachine(.timer())
        #expect(refusal(&noTimer, .seconds(60), .extra("EGG"), at: 1) == "no timer named EGG")
    }

    @Test func aStopwatchCountingDownFromItsPresetTakesTime() throws {
        var a = VirtualMachine(.timer([.seconds(60)], mode: .stopwatch), switch: .down)
        a.act(.pressed(.start), at: 0)
        try add(&a, .seconds(60), at: 1)
        #expect(left(a) == .seconds(119))
    }

    @Test func aFloodOfAddsAtTheLimitIsRefusedEachTimeAndChangesNothing() throws {
        var a = VirtualMachine(.timer([AddTime.mostLeft - .seconds(60)]))
        a.act(.pressed(.start), at: 0)
        try add(&a, .seconds(60), at: 0)
        #expect(left(a) == AddTime.mostLeft)
        let before = a.core.snapshot(at: a.clock)
        let persisted = a.persisted.count
        for i in 0..<1_000 {
            #expect(refusal(&a, .seconds(1), at: 0) != nil, "add \(i)")
        }
        #expect(a.core.snapshot(at: a.clock) == before)
        #expect(a.persisted.count == persisted)
        // One who stays one under the limit: as the count runs down, each
        // second adds the second that passed and no more.
        for s in 1...300 {
            try add(&a, .seconds(1), at: Double(s))
            #expect(left(a) == AddTime.mostLeft)
        }
        #expect(refusal(&a, .nanoseconds(1), at: 300) != nil)
    }

    @Test func aCountNeverLastsMoreThan100DaysWhateverIsAdded() throws {
        var c = CountTimer(settings: .timer([AddTime.mostLeft]), switchPosition: .down)
        _ = c.handle(.pressed(.start), at: now(0))
        var t = 0.0
        var refused: String?
        // Each time it is nearly over, add all it may have left.
        for _ in 0..<40 {
            t += Double(AddTime.mostLeft.components.seconds - 10)
            do throws(Machine.Refusal) { try c.addTime(AddTime.mostLeft - .seconds(10), at: at(t)) } catch {
                refused = error.description
                break
            }
        }
        #expect(refused == "a count lasts at most 100 days in all")
        #expect(c.target! <= TimeBounds.longest)
    }

    @Test func resetOnTheBoxAddsAMinuteToTheRunningCountAndHeldItRepeats() {
        var a = VirtualMachine(.timer([.seconds(60)]))
        a.press(.start, at: 0)
        a.press(.reset, at: 10)
        a.run(to: 10.2)
        #expect(left(a) == .milliseconds(109_800))
        #expect(a.chirps.isEmpty)
        // Held 1.2 s: a minute at once, and one at 0.5, 0.7, 0.9 and 1.1 s.
        a.press(.reset, at: 20, hold: 1.2)
        a.run(to: 22)
        #expect(left(a) == .seconds(100 + 5 * 60 - 2))
    }

    @Test func resetFromOutsideWhileRunningStillChangesNothing() {
        var a = VirtualMachine(.timer([.seconds(60)]))
        a.act(.pressed(.start), at: 0)
        #expect(!a.core.pressChanges(.reset, at: a.clock))
        a.act(.pressed(.reset), at: 10)
        #expect(left(a) == .seconds(50))
    }

    @Test func resetHeldWhileTheCountRingsCountsAMinuteAgainAndAShortOneStillResets() {
        var a = VirtualMachine(.timer([.seconds(10)]))
        a.press(.start, at: 0)
        a.run(to: 11)
        #expect(a.state == .ringing)
        a.press(.reset, at: 11, hold: 1.2)
        a.run(to: 12.5)
        #expect(a.state == .running)
        #expect(left(a) == .seconds(59) + .milliseconds(500))
        a.run(to: 72.1)
        #expect(a.state == .ringing)
        a.press(.reset, at: 73)
        a.run(to: 73.5)
        #expect(a.state == .ready && a.display == "00:10")
    }

    @Test func theCountAtItsLimitChirpsNoOnTheBox() {
        var a = VirtualMachine(.timer([AddTime.mostLeft]))
        a.press(.start, at: 0)
        a.press(.reset, at: 0.2)
        a.run(to: 0.5)
        #expect(a.chirps.count == 1)
    }

    @Test func anExtraTimerTakesTimeRunningPausedAndRinging() throws {
        var a = VirtualMachine(.timer())
        a.run(to: 1)
        try a.request(.timer(.add(name: "EGG", duration: .seconds(60))))
        try add(&a, .seconds(60), .extra("EGG"), at: 11)
        #expect(a.core.timers.named("EGG")?.left(at: a.t) == .seconds(110))
        #expect(a.core.timers.named("EGG")?.duration == .seconds(120))
        a.run(to: 21)
        try a.request(.timer(.pause("EGG")))
        try add(&a, .seconds(-30), .extra("EGG"), at: 22)
        #expect(a.core.timers.named("EGG")?.left(at: a.t) == .seconds(70))
        #expect(refusal(&a, .seconds(-70), .extra("EGG"), at: 22)?.hasPrefix("EGG has 1m10s left") == true)
        try a.request(.timer(.resume("EGG")))
        a.run(to: 92.1)
        #expect(a.core.timers.named("EGG")?.stateName == .ringing)
        // Held Reset while it rings on the display: one more minute, from
        // the long press (94 s).
        a.press(.reset, at: 93, hold: 1.2)
        a.run(to: 94.5)
        #expect(a.core.timers.named("EGG")?.stateName == .running)
        #expect(a.core.timers.named("EGG")?.left(at: a.t) == .milliseconds(59_500))
        // Running and shown: Reset adds a minute.
        a.press(.reset, at: 95)
        a.run(to: 95.2)
        #expect(a.core.timers.named("EGG")?.left(at: a.t) == .milliseconds(118_800))
    }

    @Test func theNewEndIsWhatAPowerCutKeeps() throws {
        var a = VirtualMachine(.timer([.seconds(60)]))
        a.act(.pressed(.start), at: 0)
        try add(&a, .seconds(120), at: 10)
        let saved = try #require(a.persisted.last)
        guard case .count(let c) = saved.count.program else { Issue.record("not a count"); return }
        #expect(c.length == 180_000_000_000)
        // Off for 100 s: on again, 70 s are left of the 3 minutes.
        var b = VirtualMachine(.timer([.seconds(60)]), epoch: epoch + .seconds(110), restoring: saved)
        #expect(b.state == .running)
        #expect(left(b) == .seconds(70))
        b.run(to: 70)
        #expect(b.state == .ringing)
        // After a reset the snapshot holds no length: the preset is back.
        b.act(.pressed(.stop), at: 71)
        b.act(.pressed(.reset), at: 72)
        guard case .count(let r) = try #require(b.persisted.last).count.program else { return }
        #expect(r.length == nil)
    }

    @Test func aLengthFromOutsideIsCheckedAsEveryDuration() {
        for bad: Int64 in [0, -1, 999_999_999, TimeBounds.longest.nanoseconds + 1, .max, .min] {
            let s = Program.Saved.count(.init(mode: .timer, phase: .running(since: epoch.nanoseconds, before: 0), direction: .down, length: bad))
            #expect(throws: Snapshot.Invalid.self) { try Snapshot.Count(program: s, presets: [60_000_000_000]).check() }
        }
    }

    @Test func inAGroupTheAddGoesToEveryMemberOnceAndEachEndsAMinuteLaterOnItsOwnClock() throws {
        func changes(_ a: VirtualMachine) -> [GroupChange] { a.log.compactMap { if case .command(.group(let g)) = $0.1 { g } else { nil } } }
        var a = GroupTests.grouped(), b = GroupTests.grouped()
        // b's wall clock runs 700 ms ahead of a's: the members disagree.
        b.wallOffset = .milliseconds(700)
        a.press(.start, at: 1)
        let start = try #require(changes(a).first)
        a.run(to: 1.25)
        try a.request(.adoptGroup(start.state))
        b.run(to: 1.25 - 0.7)
        try b.request(.adoptGroup(start.state))
        try add(&b, .seconds(60), at: 10)
        #expect(left(b) == .milliseconds(50_550))  // not yet: it goes to the group
        let added = try #require(changes(b).first)
        #expect(added.press == .add)
        guard case .count(let c) = added.state.program else { Issue.record("not a count"); return }
        #expect(c.length == 120_000_000_000)
        // Delivered to both at the agreed instant on each one's clock (to a
        // twice, as a broker may): each count grows by the minute, once.
        a.run(to: 10.25 + 0.7)
        let leftA = try #require(left(a))
        for _ in 0..<2 { try a.request(.adoptGroup(added.state)) }
        #expect(left(a) == leftA + .seconds(60))
        b.run(to: 10.25)
        let leftB = try #require(left(b))
        try b.request(.adoptGroup(added.state))
        #expect(left(b) == leftB + .seconds(60))
        // Each rings 2 minutes after the agreed start, on its own clock.
        a.run(to: 121.25 - 0.001)
        #expect(a.state == .running)
        a.run(to: 121.25)
        #expect(a.state == .ringing)
        b.run(to: 121.25 - 0.7 - 0.001)
        #expect(b.state == .running)
        b.run(to: 121.25 - 0.7)
        #expect(b.state == .ringing)
    }
}

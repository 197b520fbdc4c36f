import Testing
@testable import TockCore

/// Fleet groups in the core: presses become `GroupChange`s at the press's
/// instant plus the lead, and every member adopts them at that instant.
@Suite struct GroupTests {
    static func grouped(_ presets: [Duration] = [.seconds(60)], lead: Duration = .milliseconds(250)) -> VirtualMachine {
        var s = Settings.timer(presets)
        s.group = GroupSettings(lead: lead)
        var a = VirtualMachine(s)
        a.take(a.core.handle(.groupLink(true), at: a.clock))
        return a
    }

    var changes: (VirtualMachine) -> [GroupChange] = { a in a.log.compactMap { if case .command(.group(let g)) = $0.1 { g } else { nil } } }

    @Test func aStartGoesToTheGroupInsteadOfActing() throws {
        var a = Self.grouped()
        a.press(.start, at: 1)
        a.run(to: 1.2)
        #expect(a.state == .ready)
        let g = try #require(changes(a).first)
        // Start acts on press: the edge at 1 s settles after the 20 ms
        // debounce, dated at its first edge; the agreed instant is 250 ms on.
        #expect(g.press == .start)
        #expect(g.at == now(1.25).wall)
        #expect(g.state.phase == .running(since: now(1.25).wall.nanoseconds, before: 0))
        #expect(g.state.presets == [60_000_000_000])
    }

    @Test func withoutTheGroupLinkAPressActsAtOnce() {
        var a = Self.grouped()
        a.take(a.core.handle(.groupLink(false), at: a.clock))
        a.press(.start, at: 1)
        a.run(to: 1.1)
        #expect(a.state == .running)
        #expect(changes(a).isEmpty)
    }

    @Test func aPressThatChangesNothingStaysLocalWithItsChirp() {
        var a = Self.grouped()
        a.press(.stop, at: 1)
        a.run(to: 1.5)
        #expect(changes(a).isEmpty)
        #expect(a.chirps.count == 1)
    }

    @Test func adoptingCountsFromTheAgreedInstantOnThisBoxsClock() throws {
        var presser = Self.grouped()
        presser.press(.start, at: 1)
        let g = try #require(changes(presser).first)
        // A second member whose wall clock runs 40 ms ahead, adopting the
        // change 3 s late (it joined late): it counts from `at` all the same.
        var member = Self.grouped()
        member.wallOffset = .milliseconds(40)
        member.run(to: 4.25 - 0.04)
        try member.request(.adoptGroup(g.state))
        #expect(member.state == .running)
        #expect(member.display == "00:57")
        // Each ends when its own clock says the minute from `at` is up.
        member.run(to: 61.25 - 0.04 - 0.001)
        #expect(member.state == .running)
        member.run(to: 61.25 - 0.04)
        #expect(member.state == .ringing)
        presser.run(to: 1.25)
        try presser.request(.adoptGroup(g.state))
        presser.run(to: 61.249)
        #expect(presser.state == .running)
        presser.run(to: 61.25)
        #expect(presser.state == .ringing)
    }

    @Test func stopThenResetGoThroughTheGroupAndLeaveEveryMemberTheSame() throws {
        var a = Self.grouped(), b = Self.grouped()
        func deliver(_ g: GroupChange, at s: Double) throws {
            for i in 0..<2 {
                if i == 0 { a.run(to: s); try a.request(.adoptGroup(g.state)) } else {
                    b.run(to: s); try b.request(.adoptGroup(g.state))
                }
            }
        }
        a.press(.start, at: 1)
        try deliver(changes(a)[0], at: 1.25)
        b.press(.stop, at: 11)
        let stop = try #require(changes(b).first)
        #expect(stop.press == .stop && stop.state.phase == .paused(elapsed: 10_000_000_000))
        try deliver(stop, at: 11.25)
        #expect(a.state == .paused && b.state == .paused && a.display == "00:50" && b.display == "00:50")
        a.press(.reset, at: 20)
        try deliver(changes(a)[1], at: 20.25)
        #expect(a.state == .ready && b.state == .ready)
        #expect(a.core.snapshot(at: a.clock).count.phase == b.core.snapshot(at: b.clock).count.phase)
    }

    @Test func aNewPresetGoesToTheGroup() throws {
        var a = Self.grouped()
        a.run(to: 1)
        try a.request(.setPreset(.seconds(90)))
        #expect(a.display == "01:00")  // not yet
        let g = try #require(changes(a).first)
        #expect(g.press == .set && g.state.presets == [90_000_000_000])
        a.run(to: 1.25)
        try a.request(.adoptGroup(g.state))
        #expect(a.display == "01:30")
    }

    @Test func aModeChangeIsAdoptedWholeAndACountdownWithoutItsInstantIsRefused() throws {
        var a = Self.grouped()
        var stopwatch = Snapshot(mode: .stopwatch, phase: .running(since: now(0).wall.nanoseconds, before: 0), presets: [60_000_000_000],
                                 presetIndex: 0, direction: .up).count
        a.run(to: 5)
        try a.request(.adoptGroup(stopwatch))
        #expect(a.core.settings.mode == .stopwatch && a.state == .running)
        #expect(a.display == "05:00")  // seconds and hundredths under a minute
        #expect(a.core.groupLinked)
        stopwatch.program = .calendar(.init(phase: stopwatch.phase))
        #expect(throws: Machine.Refusal.self) { try a.request(.adoptGroup(stopwatch)) }
        #expect(a.core.settings.mode == .stopwatch)
    }

    @Test func editingStepsStayLocalAndOnlyTheCommittedPresetGoesOut() throws {
        var a = Self.grouped()
        a.press(.reset, at: 1, hold: 1.2)  // long press: edit
        #expect(a.state == .editing)
        #expect(changes(a).isEmpty)
    }
}

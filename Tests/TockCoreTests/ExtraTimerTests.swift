import Testing
@testable import TockCore

/// Extra timers beside the box's own count (docs/timers.md), on virtual
/// time: the order they ring in, the queue of rings, the buttons on the
/// shown one, a power cut, the two gestures (and a bounced Start that must
/// never start a timer), and the refusals.
@Suite struct ExtraTimerTests {
    func add(_ a: inout VirtualMachine, _ name: String, _ seconds: Int64, at s: Double) throws(Machine.Refusal) {
        a.run(to: s)
        try a.request(.timer(.add(name: name, duration: .seconds(seconds))))
    }

    var rangNames: (VirtualMachine) -> [String] = { a in
        a.log.compactMap { if case .report(.timerRang(let n)) = $0.1 { n } else { nil } }
    }

    func state(_ a: VirtualMachine, _ name: String) -> String? { a.core.timers.named(name)?.stateName.rawValue }

    @Test func threeTimersStartedASecondApartRingInOrderEachWithItsName() throws {
        var settings = Settings.timer()
        settings.alarm.ringFor = .seconds(5)
        var a = VirtualMachine(settings)
        try add(&a, "bEAn", 10, at: 1)
        try add(&a, "tEA", 10, at: 2)
        try add(&a, "oven", 10, at: 3)
        a.run(to: 11.5)
        #expect(rangNames(a) == ["bEAn"])
        #expect(a.display == "bEAn.")  // its name, with the point: others are in progress
        #expect(a.core.timers.isRinging)
        a.run(to: 12.5)
        #expect(rangNames(a) == ["bEAn", "tEA"])
        // bEAn rang out (5 s from 11) before tEA's ring came on at 16.
        a.run(to: 16.5)
        #expect(state(a, "bEAn") == "done")
        #expect(a.display == " tEA.")
        a.run(to: 30)
        #expect(["bEAn", "tEA", "oven"].map { state(a, $0) } == ["done", "done", "done"])
        #expect(!a.buzzing)
        // Each name was on the display while it rang, in order.
        // Each name came on the display as its ring began: 11, 16, 21 s.
        func firstShown(_ text: String) -> Instant? {
            a.log.first { $0.0 >= at(11) && { if case .command(.render(let f)) = $0.1 { f.text.hasPrefix(text) } else { false } }($0) }?.0
        }
        #expect([firstShown("bEAn"), firstShown(" tEA"), firstShown("oven")] == [at(11), at(16), at(21)])
        let beeps = a.times { if case .command(.buzzer(let t?)) = $0 { t.hertz > 0 } else { false } }
        #expect(beeps.contains { $0 >= at(21) && $0 < at(26) } && beeps.allSatisfy { $0 < at(26) })
    }

    @Test func silencingOneLeavesTheOtherThatEndedInTheSameSecondRingingWithItsName() throws {
        var a = VirtualMachine(.timer())
        try add(&a, "bEAn", 60, at: 1)
        try add(&a, "tEA", 60, at: 1.4)
        a.run(to: 61.2)
        #expect(rangNames(a) == ["bEAn"])
        a.run(to: 61.5)
        #expect(rangNames(a) == ["bEAn", "tEA"])
        #expect(a.display?.hasPrefix("bEAn") == true)
        a.press(.stop, at: 62)
        #expect(state(a, "bEAn") == "done")
        #expect(state(a, "tEA") == "ringing")
        a.run(to: 62.2)
        #expect(a.display?.hasPrefix(" tEA") == true)
        #expect(a.buzzing)
        // tEA's ring started when it came on the display (62.02), so it
        // rings its full minute from then, not from its end at 61.4.
        a.run(to: 121.9)
        #expect(state(a, "tEA") == "ringing")
        a.run(to: 122.1)
        #expect(state(a, "tEA") == "done")
        #expect(!a.buzzing)
        #expect(!a.core.timers.isRinging)
    }

    @Test func theShownTimerPausesAndResumesWithTheButtonsAndOthersCountOn() throws {
        var a = VirtualMachine(.timer())
        try add(&a, "bEAn", 100, at: 1)
        try add(&a, "Corn", 300, at: 1)
        a.run(to: 12)
        #expect(a.display == "01:29.")  // bEAn ends first: shown
        a.press(.stop, at: 12)
        a.run(to: 12.5)
        #expect(state(a, "bEAn") == "paused")
        // Paused with Stop, it stays on the display, blinking, while Corn
        // counts on (lit in this half second of the blink).
        a.run(to: 21.2)
        #expect(a.display == "01:29.")
        #expect(a.core.focus(at: a.t) == .extra("bEAn"))
        #expect(state(a, "Corn") == "running")
        // A long Stop steps to the box's own count (t1), another to Corn,
        // another back to bEAn; Start resumes it.
        for s in [22.0, 24.0, 26.0] { a.press(.stop, at: s, hold: 1.2) }
        a.run(to: 27.5)
        #expect(a.display == "bEAn.")  // its name first
        #expect(a.displays.contains("  t1.") && a.displays.contains("Corn."))
        a.press(.start, at: 29.5)
        a.run(to: 30)
        #expect(state(a, "bEAn") == "running")
        #expect(state(a, "Corn") == "running")
        // Paused as Stop came up (12.08: it waits for its release, being
        // a long press when held) with 101 - 12.08 s left; resumed at 29.5.
        #expect(a.core.timers.named("bEAn")?.ends == at(29.5) + (at(101) - at(12.08)))
    }

    /// docs/timers.md, rule 4: the box's own count paused with Stop stays
    /// shown while an extra timer runs, and Start and Reset act on it,
    /// from the panel and from outside (the page has no held Stop).
    @Test func theBoxsOwnCountPausedWithStopStaysShownWhileATimerRuns() throws {
        for remote in [false, true] {
            var a = VirtualMachine(.timer([.seconds(120)]))
            a.press(.start, at: 1)
            try add(&a, "EGG", 600, at: 2)
            a.run(to: 5)
            #expect(a.core.focus(at: a.t) == .main)  // it ends first
            if remote { a.run(to: 10); try a.request(.remotePress(.pressed(.stop))) } else { a.press(.stop, at: 10) }
            a.run(to: 12)
            #expect(a.core.stateName == .paused)
            #expect(a.core.focus(at: a.t) == .main, "remote: \(remote)")
            #expect(state(a, "EGG") == "running")
            if remote { try a.request(.remotePress(.pressed(.start))) } else { a.press(.start, at: 12) }
            a.run(to: 13)
            #expect(a.core.stateName == .running, "remote: \(remote)")
            #expect(state(a, "EGG") == "running")
            if remote { try a.request(.remotePress(.pressed(.stop))) } else { a.press(.stop, at: 13) }
            a.run(to: 14)
            if remote { try a.request(.remotePress(.pressed(.reset))) } else { a.press(.reset, at: 14) }
            a.run(to: 15)
            #expect(a.core.stateName == .ready, "remote: \(remote)")
            #expect(state(a, "EGG") == "running")
        }
    }

    @Test func aPowerCutWithFourRunningContinuesEachExactlyAndOneThatEndedMeanwhileRings() throws {
        var a = VirtualMachine(.timer())
        try add(&a, "bEAn", 360, at: 1)
        try add(&a, "tEA", 1200, at: 2)
        try add(&a, "oven", 3600, at: 3)
        try add(&a, "Corn", 120, at: 4)
        a.run(to: 60)
        let saved = try #require(a.persisted.last)
        #expect(saved.timers?.count == 4)
        // Off for 100 s: the box comes back at 160 s of wall time, 5 s into its new boot.
        var b = VirtualMachine(.timer(), epoch: epoch + .seconds(155), restoring: saved)
        b.run(to: 5)
        #expect(b.core.timers.list.map(\.name) == ["bEAn", "tEA", "oven", "Corn"])
        #expect(b.core.timers.named("bEAn")?.left(at: b.t) == .seconds(360 + 1 - 160))
        #expect(b.core.timers.named("tEA")?.left(at: b.t) == .seconds(1200 + 2 - 160))
        #expect(b.core.timers.named("oven")?.left(at: b.t) == .seconds(3600 + 3 - 160))
        #expect(state(b, "Corn") == "ringing")
        #expect(b.buzzing)
    }

    @Test func aLongStartWhileTheCountRunsAddsTheNextPresetAndALongStopSteps() {
        var a = VirtualMachine(.timer([.seconds(600), .seconds(300), .seconds(180)]))
        a.press(.start, at: 1)
        a.run(to: 2)
        #expect(a.core.timers.isEmpty)
        a.press(.start, at: 10, hold: 1.3)
        a.run(to: 11.5)
        let t2 = a.core.timers.named("t2")
        #expect(t2?.duration == .seconds(300))
        #expect(t2?.ends == at(11) + .seconds(300))  // from the long press's instant (held 1 s from 10)
        // t2 ends first: shown, its name first, the point lit.
        #expect(a.displays.contains("  t2."))
        a.run(to: 13)
        #expect(a.display == "04:58.")
        a.press(.start, at: 20, hold: 1.3)
        a.run(to: 22)
        #expect(a.core.timers.named("t3")?.duration == .seconds(180))
        // t3 ends soonest (at 201 s): shown. A long Stop steps through
        // the box's own count (t1) and the others by their ends: t2, t1, t3.
        a.run(to: 25)
        #expect(a.display == "02:56.")
        a.press(.stop, at: 30, hold: 1.2)
        a.run(to: 31.5)
        #expect(a.display == "  t2.")
        a.run(to: 32.5)
        #expect(a.display == "04:39.")
        a.press(.stop, at: 40, hold: 1.2)
        a.run(to: 41.5)
        #expect(a.display == "  t1.")
        a.run(to: 42.5)
        #expect(a.display == "09:19.")
        #expect(a.core.stateName == .running)
        #expect(a.core.timers.list.allSatisfy { $0.isRunning })
    }

    /// The seed's bug: a bounced Start started a second, invisible timer.
    /// Contact chatter on Start while the count runs (edges 1-5 ms apart
    /// for 60 ms, as a worn button gives) never adds a timer, however long
    /// the chatter lasts short of a held press.
    @Test func aBouncedStartNeverAddsATimer() {
        var a = VirtualMachine(.timer([.seconds(600), .seconds(300)]))
        a.press(.start, at: 1)
        var s = 5.0
        for burst in 0..<50 {
            for i in 0..<12 { a.edge(.button(.start), i % 2 == 0, at: s + Double(i) * 0.005) }
            a.edge(.button(.start), false, at: s + 0.07)
            s += 0.3 + Double(burst % 7) * 0.1
        }
        a.run(to: s + 5)
        #expect(a.core.timers.isEmpty)
        #expect(a.core.stateName == .running)
        #expect(!a.log.contains { if case .report(.timers) = $0.1 { true } else { false } })
    }

    @Test func refusalsNameTheLimitAndChangeNothing() throws {
        var a = VirtualMachine(.timer())
        for i in 0..<8 { try add(&a, "A\(i)", 60 + Int64(i), at: 1) }
        let before = a.core.timers
        func refusal(_ r: ExtraTimers.Request) -> String {
            do { try a.request(.timer(r)); return "accepted" } catch { return error.description }
        }
        #expect(refusal(.add(name: "b", duration: .seconds(60))).contains("8 timers are the most"))
        #expect(a.core.timers == before)
        try a.request(.timer(.cancel("A0")))
        #expect(refusal(.add(name: "kale", duration: .seconds(60))).contains("cannot be drawn on 7 segments"))
        #expect(refusal(.add(name: "PASTA", duration: .seconds(60))).contains("longer than the display's 4 digits"))
        #expect(refusal(.add(name: "A1", duration: .seconds(60))).contains("a timer named A1 is running"))
        #expect(refusal(.add(name: "b", duration: .seconds(360_000))).contains("99h59m is the longest"))
        #expect(refusal(.add(name: "b", duration: .zero)).contains("at least 1s"))
        #expect(refusal(.add(name: "t1", duration: .seconds(5))).contains("the box's own count"))
        for name in ["A1 ", " A1", "    ", " "] {
            #expect(refusal(.add(name: name, duration: .seconds(5))).contains("neither starts nor ends with a space"), "\(name)")
        }
        #expect(refusal(.pause("nope")).contains("no timer named nope (timers: A1,"))
        try a.request(.timer(.pause("A1")))
        #expect(refusal(.pause("A1")).contains("A1 is paused; only a running timer pauses"))
        #expect(a.core.timers.list.count == 7)
        // A done timer gives its place when all are taken, and its name.
        try add(&a, "b", 60, at: 2)
        a.run(to: 70)
        a.press(.stop, at: 70)  // silences the first to ring
        a.run(to: 71)
        #expect(a.core.timers.list.count(where: { !$0.isActive }) >= 1)
        let done = try #require(a.core.timers.list.first { !$0.isActive })
        try a.request(.timer(.add(name: done.name, duration: .seconds(30))))
        #expect(a.core.timers.named(done.name)?.isRunning == true)
    }

    /// A timer named on an 8-digit display, read back by a box whose file
    /// now says 4 digits: kept, its name shown by its first 4 characters;
    /// and the longest timer there is, 99h59m, counts and shows.
    @Test func aNameWiderThanTheDisplayNowAndTheLongestTimer() throws {
        var eight = Settings.timer()
        eight.display.digits = 8
        var a = VirtualMachine(eight)
        try add(&a, "bEAnPOt", 5, at: 1)
        try add(&a, "LONG", 359_940, at: 1)
        a.run(to: 2)
        var b = VirtualMachine(.timer(), restoring: a.persisted.last)
        b.run(to: 6)
        #expect(b.core.timers.list.map(\.name) == ["bEAnPOt", "LONG"])
        #expect(b.display?.hasPrefix("bEAn") == true)
        b.press(.stop, at: 7)
        b.run(to: 9)
        #expect(b.display == "99:59")  // 99 h 58 m 53 s left, as H:MM rounded up; alone now (bEAnPOt is done): no point
    }

    @Test func withoutExtraTimersNothingShowsDifferently() {
        var a = VirtualMachine(.timer([.seconds(10)]))
        a.press(.start, at: 1)
        a.run(to: 20)
        #expect(!a.displays.contains { $0.hasSuffix(".") || $0 == "t1" })
        #expect(!a.log.contains { if case .report(.timers) = $0.1 { true } else { false } })
        #expect(a.persisted.allSatisfy { $0.timers == nil })
    }
}

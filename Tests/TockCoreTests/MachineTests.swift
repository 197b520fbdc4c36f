import Testing
@testable import TockCore

/// The composed core on virtual time: input edges in, commands out.
@Suite struct MachineTests {
    @Test func aBouncyPressStartsExactlyOneCountFromItsFirstEdge() {
        var a = VirtualMachine(.timer([.seconds(10)]))
        for (i, t) in [1.0, 1.001, 1.002, 1.003, 1.004, 1.0045, 1.005].enumerated() {
            a.edge(.button(.start), i % 2 == 0, at: t)
        }
        a.edge(.button(.start), false, at: 1.08)
        a.run(to: 10.5)
        #expect(a.state == .running)
        #expect(a.chirps.isEmpty)  // a second press would be refused with a chirp
        a.run(to: 11)
        #expect(a.state == .ringing)
        #expect(a.times { $0 == .report(.stateChanged(.ringing)) } == [at(11)])
    }

    @Test func aCountDownWakesOncePerShownSecond() {
        var a = VirtualMachine(.timer([.seconds(120)]))
        a.press(.start, at: 0)
        let before = a.wakeUps
        a.run(to: 100)
        // 100 s of MM:SS: one wake per digit change (1 s to 100 s), plus the
        // one the release needs to settle (0.1 s: its edge at 0.08 s and the
        // 20 ms debounce; the press settled before `before` was taken).
        let wakes = a.wakeUps - before
        #expect(wakes == 101, "woke \(wakes) times in 100 s")
        #expect(a.display == "00:20")
    }

    @Test func nothingRunningMeansNoWakeUpsAtAll() {
        var a = VirtualMachine(.timer())
        #expect(a.wake.0 == nil && a.wake.1 == nil)
        a.run(to: 86_400)
        #expect(a.wakeUps == 0)
    }

    /// The process is stopped for 2 s (SIGSTOP, a busy machine): the first
    /// wake-up after it shows the right value once, no burst of stale
    /// frames, and the alarm still comes at the exact end.
    @Test func aCountSurvivesTheProcessBeingStoppedForTwoSeconds() {
        var a = VirtualMachine(.timer([.seconds(10)]))
        a.press(.start, at: 0)
        a.run(to: 4.5)
        #expect(a.display == "00:06")
        let framesBefore = a.times { if case .command(.render) = $0 { true } else { false } }.count
        // Stopped from 4.5 to 6.5: no wake-ups taken, then one late tick.
        a.t = at(6.5)
        a.take(a.core.handle(.wake, at: a.clock))
        let frames = a.times { if case .command(.render) = $0 { true } else { false } }
        #expect(frames.count == framesBefore + 1)
        #expect(a.display == "00:04")
        a.run(to: 10)
        #expect(a.times { $0 == .report(.stateChanged(.ringing)) } == [at(10)])
    }

    @Test func anEndThatPassedWhileStoppedRingsFromTheEndInstant() {
        var a = VirtualMachine(.timer([.seconds(10)]))
        a.press(.start, at: 0)
        a.run(to: 9)
        a.t = at(12)
        a.take(a.core.handle(.wake, at: a.clock))
        #expect(a.state == .ringing)
        // Ringing since 10, so auto-silence at 70, not 72.
        a.run(to: 69.99)
        #expect(a.state == .ringing)
        a.run(to: 70)
        #expect(a.state == .done && !a.buzzing)
    }

    @Test func ringingAutoSilencesAfterRingFor() {
        var s = Settings.timer([.seconds(10)])
        s.alarm.ringFor = .seconds(30)
        var a = VirtualMachine(s)
        a.press(.start, at: 0)
        a.run(to: 10)
        #expect(a.buzzing)
        a.run(to: 40)
        #expect(a.state == .done && !a.buzzing)
        #expect(a.display == "00:00")
    }

    @Test func aLongResetEntersEditAndHoldingStartRepeats() {
        var a = VirtualMachine(.timer([.seconds(300)]))
        a.edge(.button(.reset), true, at: 0)
        a.run(to: 1.0)
        #expect(a.state == .editing)
        a.edge(.button(.reset), false, at: 1.5)
        a.run(to: 2)
        #expect(a.state == .editing)  // the release after a long press does nothing
        // Hold Start for 1.2 s: one step on press, repeats from 0.5 s.
        a.edge(.button(.start), true, at: 3)
        a.edge(.button(.start), false, at: 4.2)
        a.run(to: 5)
        // press + repeats at 3.5, 3.7, 3.9, 4.1 = 5 steps of 10 s.
        #expect(a.core.program.countTimer?.state == .editing(value: .seconds(350), changedAt: at(4.1)))
        a.press(.reset, at: 6)
        a.run(to: 7)
        #expect(a.state == .ready && a.display == "05:50")
    }

    @Test func aShortResetInReadyCyclesPresetsOnRelease() {
        var a = VirtualMachine(.timer([.seconds(300), .seconds(60)]))
        a.edge(.button(.reset), true, at: 0)
        a.run(to: 0.5)
        #expect(a.display == "05:00")  // not yet: the short action fires on release
        a.edge(.button(.reset), false, at: 0.6)
        a.run(to: 1)
        #expect(a.display == "01:00")
    }

    @Test func refusedButtonsChirp() {
        var a = VirtualMachine(.timer())
        a.press(.stop, at: 0)
        a.run(to: 1)
        #expect(a.chirps.count == 1)
        var quiet = Settings.timer()
        quiet.alarm.chirp = false
        var b = VirtualMachine(quiet)
        b.press(.stop, at: 0)
        b.run(to: 1)
        #expect(b.chirps.isEmpty)
    }

    /// A press is dated at its first edge but known only once debounced
    /// (20 ms later): its chirp sounds the whole documented 60 ms from then.
    @Test func aChirpSoundsItsWholeLengthFromTheMomentThePressIsKnown() {
        var a = VirtualMachine(.timer())
        a.press(.start, at: 0.5)
        a.press(.stop, at: 0.8)
        a.press(.stop, at: 1)  // paused: "no" on press (Stop in ready says it on release)
        a.run(to: 2)
        let on = a.times { if case .command(.buzzer(let t)) = $0 { return t != nil } else { return false } }
        let off = a.times { if case .command(.buzzer(let t)) = $0 { return t == nil } else { return false } }.filter { $0 > at(1) }
        #expect(on == [at(1.020)])
        #expect(off.first == at(1.080))
    }

    @Test func theSwitchInReadyJumpsTheCount() {
        var a = VirtualMachine(.timer([.seconds(300)]), switch: .up)
        #expect(a.display == "00:00")
        a.flip(.down, at: 1)
        a.run(to: 2)
        #expect(a.display == "05:00")
    }

    @Test func stopwatchShowsHundredthsAndWakesOnEachOne() {
        var a = VirtualMachine(.timer(mode: .stopwatch), switch: .up)
        a.press(.start, at: 0)
        a.run(to: 1)
        let w = a.wakeUps
        a.run(to: 2)
        #expect(a.wakeUps - w == 100)
        #expect(a.display == "02:00")
        a.press(.stop, at: 61.234)
        a.run(to: 62)
        #expect(a.state == .paused)
        #expect(a.core.program.presentation(at: a.clock).content == .stopwatch(.milliseconds(61_234)))
    }

    @Test func stopFreezesTheStopwatchAtThePressNotAtItsRecognition() {
        var a = VirtualMachine(.timer(mode: .stopwatch), switch: .up)
        a.press(.start, at: 0)
        a.press(.stop, at: 5.5)
        a.run(to: 6)
        #expect(a.core.program.presentation(at: a.clock).content == .stopwatch(.milliseconds(5_500)))
    }
}

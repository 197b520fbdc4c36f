import Testing
@testable import TockCore

/// Every cell of SPEC.md's button table for the count-down/count-up timer,
/// driven through the program's own events (no input processing).
@Suite struct CountTimerTests {
    let settings = Settings.timer([.seconds(300), .seconds(600)])

    func timer(_ position: SwitchPosition = .down) -> CountTimer {
        CountTimer(settings: settings, switchPosition: position)
    }

    func running() -> CountTimer {
        var t = timer()
        _ = t.handle(.pressed(.start), at: now(0))
        return t
    }

    func paused() -> CountTimer {
        var t = running()
        _ = t.handle(.pressed(.stop), at: now(10))
        return t
    }

    func ringing() -> CountTimer {
        var t = running()
        _ = t.advance(to: now(300))
        return t
    }

    func done() -> CountTimer {
        var t = ringing()
        _ = t.handle(.pressed(.stop), at: now(301))
        return t
    }

    // MARK: ready

    @Test func readyStartRuns() {
        var t = timer()
        #expect(t.handle(.pressed(.start), at: now(0)) == [])
        #expect(t.state == .running(Run(since: at(0))))
    }

    @Test func readyStopDoesNothingButChirp() {
        var t = timer()
        #expect(t.handle(.pressed(.stop), at: now(0)) == [.no])
        #expect(t.state == .ready)
    }

    @Test func readyResetSelectsTheNextPresetAndWrapsAround() {
        var t = timer()
        _ = t.handle(.pressed(.reset), at: now(0))
        #expect(t.preset == .seconds(600))
        _ = t.handle(.pressed(.reset), at: now(1))
        #expect(t.preset == .seconds(300))
        #expect(t.pressStyle(.reset) == .shortOrLong)
    }

    @Test func readyLongResetEntersEdit() {
        var t = timer()
        _ = t.handle(.longPressed(.reset), at: now(0))
        #expect(t.state == .editing(value: .seconds(300), changedAt: at(0)))
    }

    @Test func readySwitchChangesDirectionAndTheStartValueAtOnce() {
        var t = timer(.up)
        #expect(t.presentation(at: now(0)).content == .up(.zero))
        _ = t.switched(to: .down, at: now(1))
        #expect(t.direction == .down)
        #expect(t.presentation(at: now(1)).content == .down(.seconds(300)))
    }

    /// The pizza timer's bug: reset while Up (count 0), flip to Down, start:
    /// the seed's timer thought it was already done. Here it counts the
    /// full preset.
    @Test func pizzaTimerFlipAfterResetCountsTheWholePreset() {
        var t = timer(.up)
        _ = t.handle(.pressed(.start), at: now(0))
        _ = t.handle(.pressed(.stop), at: now(3))
        _ = t.handle(.pressed(.reset), at: now(4))
        _ = t.switched(to: .down, at: now(5))
        _ = t.handle(.pressed(.start), at: now(6))
        _ = t.advance(to: now(6.5))
        #expect(t.state == .running(Run(since: at(6))))
        #expect(t.presentation(at: now(7)).content == .down(.seconds(299)))
        #expect(t.nextDeadline(at: now(7)) == .monotonic(at(306)))
    }

    // MARK: running

    @Test func runningStartIsRefusedNeverASecondTimer() {
        var t = running()
        #expect(t.handle(.pressed(.start), at: now(5)) == [.no])
        #expect(t.state == .running(Run(since: at(0))))
    }

    @Test func runningStopPauses() {
        var t = running()
        _ = t.handle(.pressed(.stop), at: now(12.5))
        #expect(t.state == .paused(elapsed: .milliseconds(12_500), at: at(12.5)))
    }

    @Test func runningResetIsRefused() {
        var t = running()
        #expect(t.handle(.pressed(.reset), at: now(5)) == [.no])
        #expect(t.stateName == .running)
    }

    @Test func runningSwitchWaitsForTheNextReset() {
        var t = running()
        _ = t.switched(to: .up, at: now(5))
        #expect(t.direction == .down)
        #expect(t.presentation(at: now(6)).content == .down(.seconds(294)))
        _ = t.handle(.pressed(.stop), at: now(7))
        _ = t.handle(.pressed(.reset), at: now(8))
        #expect(t.direction == .up)
        #expect(t.presentation(at: now(8)).content == .up(.zero))
    }

    // MARK: paused

    @Test func pausedStartResumesFromTheShownValue() {
        var t = paused()
        _ = t.handle(.pressed(.start), at: now(100))
        #expect(t.presentation(at: now(100)).content == .down(.seconds(290)))
        #expect(t.nextDeadline(at: now(100)) == .monotonic(at(390)))
    }

    @Test func pausedStopIsRefused() {
        var t = paused()
        #expect(t.handle(.pressed(.stop), at: now(11)) == [.no])
        #expect(t.stateName == .paused)
    }

    @Test func pausedResetReturnsToReady() {
        var t = paused()
        _ = t.handle(.pressed(.reset), at: now(11))
        #expect(t.state == .ready)
        #expect(t.presentation(at: now(11)).content == .down(.seconds(300)))
    }

    @Test func pausedSwitchWaitsForTheNextReset() {
        var t = paused()
        _ = t.switched(to: .up, at: now(11))
        #expect(t.stateName == .paused && t.direction == .down)
        _ = t.handle(.pressed(.reset), at: now(12))
        #expect(t.direction == .up)
    }

    // MARK: ringing

    @Test func ringingStartsExactlyAtTheEndInstant() {
        let t = ringing()
        #expect(t.state == .ringing(since: at(300)))
    }

    @Test(arguments: [Button.start, .stop])
    func ringingStartOrStopSilences(_ b: Button) {
        var t = ringing()
        #expect(t.handle(.pressed(b), at: now(301)) == [])
        #expect(t.state == .done)
    }

    @Test func ringingResetSilencesAndReturnsToReady() {
        var t = ringing()
        _ = t.handle(.pressed(.reset), at: now(301))
        #expect(t.state == .ready)
    }

    @Test func ringingSwitchSilences() {
        var t = ringing()
        _ = t.switched(to: .up, at: now(301))
        #expect(t.state == .done)
        _ = t.handle(.pressed(.reset), at: now(302))
        #expect(t.direction == .up)
    }

    @Test func ringingStopsByItselfAfterRingFor() {
        var t = ringing()
        #expect(t.nextDeadline(at: now(300)) == .monotonic(at(360)))
        _ = t.advance(to: now(359.999))
        #expect(t.stateName == .ringing)
        _ = t.advance(to: now(360))
        #expect(t.state == .done)
    }

    // MARK: done

    @Test(arguments: [Button.start, .stop])
    func doneStartAndStopAreRefused(_ b: Button) {
        var t = done()
        #expect(t.handle(.pressed(b), at: now(302)) == [.no])
        #expect(t.state == .done)
    }

    @Test func doneResetReturnsToReady() {
        var t = done()
        _ = t.handle(.pressed(.reset), at: now(302))
        #expect(t.state == .ready)
    }

    @Test func doneSwitchReturnsToReadyInTheNewDirection() {
        var t = done()
        _ = t.switched(to: .up, at: now(302))
        #expect(t.state == .ready && t.direction == .up)
        #expect(t.presentation(at: now(302)).content == .up(.zero))
    }

    // MARK: count-up and stopwatch

    @Test func countUpRingsAtTheTarget() {
        var t = timer(.up)
        _ = t.handle(.pressed(.start), at: now(0))
        #expect(t.nextDeadline(at: now(1)) == .monotonic(at(300)))
        _ = t.advance(to: now(300))
        #expect(t.state == .ringing(since: at(300)))
        #expect(t.presentation(at: now(300)).content == .up(.seconds(300)))
    }

    @Test func stopwatchNeverEndsAndStopFreezesIt() {
        var t = CountTimer(settings: .timer(mode: .stopwatch), switchPosition: .up)
        #expect(t.target == nil)
        _ = t.handle(.pressed(.start), at: now(0))
        #expect(t.nextDeadline(at: now(0)) == nil)
        _ = t.advance(to: now(100_000))
        #expect(t.stateName == .running)
        _ = t.handle(.pressed(.stop), at: now(100_000.25))
        #expect(t.presentation(at: now(200_000)).content == .stopwatch(.milliseconds(100_000_250)))
        // Up without a target has no preset to cycle or edit.
        #expect(t.pressStyle(.reset) == .onPress)
    }

    // MARK: edit

    @Test func editStepsAreTenSecondsBelowTenMinutesAndAMinuteAbove() {
        #expect(CountTimer.step(above: .seconds(590)) == .seconds(10))
        #expect(CountTimer.step(above: .seconds(600)) == .seconds(60))
        #expect(CountTimer.step(below: .seconds(600)) == .seconds(10))
        #expect(CountTimer.step(below: .seconds(660)) == .seconds(60))
        var t = timer()
        _ = t.handle(.longPressed(.reset), at: now(0))
        #expect(t.pressStyle(.start) == .repeating && t.pressStyle(.stop) == .repeating)
        for i in 0..<35 { _ = t.handle(i == 0 ? .pressed(.start) : .repeated(.start), at: now(1)) }
        // 300 s + 30 × 10 s = 600 s, then 5 × 1 min.
        #expect(t.state == .editing(value: .seconds(900), changedAt: at(1)))
        _ = t.handle(.pressed(.reset), at: now(2))
        #expect(t.state == .ready && t.preset == .seconds(900))
    }

    @Test func editStopsAtTheShortestPresetWithAChirp() {
        var t = timer()
        _ = t.handle(.longPressed(.reset), at: now(0))
        for _ in 0..<29 { #expect(t.handle(.repeated(.stop), at: now(1)) == []) }
        #expect(t.handle(.repeated(.stop), at: now(1)) == [.no])
        #expect(t.state == .editing(value: .seconds(10), changedAt: at(1)))
    }

    @Test func warningBeepsInTheLastSeconds() {
        var s = settings
        s.alarm.warnLast = 3
        var t = CountTimer(settings: s, switchPosition: .down)
        _ = t.handle(.pressed(.start), at: now(0))
        #expect(t.nextDeadline(at: now(200)) == .monotonic(at(297)))
        #expect(t.advance(to: now(297)).map(\.1) == [at(297)])
        #expect(t.nextDeadline(at: now(297)) == .monotonic(at(298)))
        #expect(t.advance(to: now(297.5)).isEmpty)  // the tick is over; nothing new
    }
}

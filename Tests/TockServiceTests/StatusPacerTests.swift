import Testing
import TockCore
@testable import TockService

/// STATUS= lines for systemd: at most one a second, and no wake-up of
/// their own while the core wakes anyway.
@Suite struct StatusPacerTests {
    private func at(_ ms: Int64) -> Instant { Instant(nanoseconds: 5_000_000_000_000 + ms * 1_000_000) }

    /// A stopwatch's 100 frames a second, the core waking every 10 ms: one
    /// message a second, never a timer.
    @Test func aHundredFramesASecondSendOneMessageASecondWithoutATimer() {
        var pacer = StatusPacer()
        var sent: [Int64] = []
        for ms in stride(from: Int64(0), to: 3_000, by: 10) {
            let decision = pacer.offer(at: at(ms), nextWake: at(ms + 10))
            if case .armTimer = decision { Issue.record("a timer armed at \(ms) ms") }
            if decision == .send { pacer.sent(at: at(ms)); sent.append(ms) }
        }
        #expect(sent == [0, 1_000, 2_000])
    }

    /// Ticks one second apart whose wake-up latency varies: a tick a few
    /// microseconds short of a second after the last message waits for the
    /// next tick (due anyway) rather than arming a timer.
    @Test func aTickJustShortOfASecondWaitsForTheNextTick() {
        var pacer = StatusPacer()
        let tick0 = at(0) + .microseconds(200)
        #expect(pacer.offer(at: tick0, nextWake: at(1_000)) == .send)
        pacer.sent(at: tick0)
        let tick1 = at(1_000) + .microseconds(50)  // 0.99985 s after the message
        #expect(pacer.offer(at: tick1, nextWake: at(2_000)) == .wait)
        let tick2 = at(2_000) + .microseconds(90)
        #expect(pacer.offer(at: tick2, nextWake: at(3_000)) == .send)
    }

    /// A change with the core idle (a count that ended): a timer at the end
    /// of the second, armed once.
    @Test func aChangeWithTheCoreIdleArmsTheTimerOnce() {
        var pacer = StatusPacer()
        #expect(pacer.offer(at: at(100), nextWake: nil) == .send)
        pacer.sent(at: at(100))
        #expect(pacer.offer(at: at(400), nextWake: nil) == .armTimer(at(1_100)))
        #expect(pacer.offer(at: at(600), nextWake: nil) == .wait)
        pacer.timerFired()
        // A wake-up far off (an idle clock's next minute) is no help: timer.
        pacer.sent(at: at(1_100))
        #expect(pacer.offer(at: at(1_200), nextWake: at(60_000)) == .armTimer(at(2_100)))
    }
}

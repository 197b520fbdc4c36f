import Testing
import TockCore
@testable import TockService

/// STATUS= lines for systemd: only on change, at most one a second, and a
/// count's once-a-second ticks never arm the catch-up timer.
@Suite struct StatusPacerTests {
    private func at(_ ms: Int64) -> Instant { Instant(nanoseconds: 5_000_000_000_000 + ms * 1_000_000) }

    /// A stopwatch's 100 frames a second: one message a second, sent at the
    /// first frame of each second; the frames after it arm the timer once.
    @Test func aHundredFramesASecondSendOneMessageASecond() {
        var pacer = StatusPacer()
        var sent: [Int64] = [], armed: [Instant] = []
        for ms in stride(from: Int64(0), to: 3_000, by: 10) {
            switch pacer.offer(at: at(ms)) {
            case .now: pacer.deferredSent(); pacer.sent(at: at(ms)); sent.append(ms)
            case .at(let t): armed.append(t)
            case .alreadyDeferred: break
            }
        }
        #expect(sent == [0, 1_000, 2_000])
        #expect(armed == [at(1_000), at(2_000), at(3_000)])
    }

    /// Ticks one second apart whose wake-up latency varies (0.2 ms, then
    /// 0.05 ms, ...): each falls in a new second and sends at once.
    @Test func aCountsTicksWithVaryingLatencyEachSendAtOnce() {
        var pacer = StatusPacer()
        let latencies: [Int64] = [200, 50, 900, 10, 300, 0]  // µs
        for (i, lat) in latencies.enumerated() {
            let t = Instant(nanoseconds: at(Int64(i) * 1_000).nanoseconds + 400_000_000 + lat * 1_000)
            #expect(pacer.offer(at: t) == .now, "tick \(i)")
            pacer.sent(at: t)
        }
    }

    /// A change right after a message waits for the next second, and an
    /// unchanged text sends nothing, so it does not use up the second.
    @Test func aChangeInASecondThatHadItsMessageWaitsForTheNext() {
        var pacer = StatusPacer()
        #expect(pacer.offer(at: at(100)) == .now)
        pacer.sent(at: at(100))
        #expect(pacer.offer(at: at(400)) == .at(at(1_000)))
        #expect(pacer.offer(at: at(600)) == .alreadyDeferred)
        pacer.deferredSent()   // the timer fired; the text had not changed
        #expect(pacer.offer(at: at(1_500)) == .now)
        #expect(pacer.offer(at: at(1_700)) == .now)
    }
}

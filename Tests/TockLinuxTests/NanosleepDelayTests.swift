import Glibc
import Testing
@testable import TockLinux

/// Real time, measured: a wait never ends early. Only the lower bound is
/// asserted; how much longer a busy machine takes is not.
@Suite struct NanosleepDelayTests {
    private func measure(_ body: () -> Void) -> Duration {
        let start = Syscall.clockNanoseconds(CLOCK_MONOTONIC)
        body()
        return .nanoseconds(Syscall.clockNanoseconds(CLOCK_MONOTONIC) - start)
    }

    @Test(arguments: [Duration.microseconds(5), .microseconds(49), .microseconds(50), .milliseconds(2)])
    func aWaitLastsAtLeastItsDuration(d: Duration) {
        let delay = NanosleepDelay()
        let took = measure { delay.wait(d) }
        #expect(took >= d, "waited \(took.nanoseconds) ns for \(d.nanoseconds) ns")
    }

    /// The phase is measured from where the previous wait ended, so the
    /// time of the line change between two waits counts toward it; a
    /// deadline already past (the bus idle for longer) costs nothing.
    @Test func aWaitIsMeasuredFromTheEndOfThePreviousOne() {
        #expect(NanosleepDelay.deadline(previousEnd: nil, now: 1_000, wait: 5_000) == 6_000)
        #expect(NanosleepDelay.deadline(previousEnd: 6_000, now: 7_500, wait: 5_000) == 11_000)
        #expect(NanosleepDelay.deadline(previousEnd: 6_000, now: 90_000, wait: 5_000) <= 90_000)
    }

    /// Two waits back to back still last both durations together.
    @Test func consecutiveWaitsLastAtLeastTheirSum() {
        let delay = NanosleepDelay()
        let took = measure { delay.wait(.microseconds(20)); delay.wait(.microseconds(20)) }
        #expect(took >= .microseconds(40), "waited \(took.nanoseconds) ns")
    }

    /// Whichever way `spinBelow` sends a wait, the busy-wait (every wait
    /// shorter than a second) or clock_nanosleep (every wait at all), it
    /// lasts at least its duration; a zero or negative wait returns.
    @Test(arguments: [Duration.microseconds(5), .microseconds(200), .milliseconds(2)])
    func spinningAndSleepingBothLastAtLeastTheDuration(d: Duration) {
        for delay in [NanosleepDelay(spinBelow: .seconds(1)), NanosleepDelay(spinBelow: .zero)] {
            let took = measure { delay.wait(d) }
            #expect(took >= d, "spinBelow \(delay.spinBelow): waited \(took.nanoseconds) ns for \(d.nanoseconds) ns")
            delay.wait(.zero)
            delay.wait(.nanoseconds(-5))
        }
    }
}

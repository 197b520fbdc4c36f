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

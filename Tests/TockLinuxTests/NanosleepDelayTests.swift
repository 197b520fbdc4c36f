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

    @Test func aZeroOrNegativeWaitReturns() {
        let delay = NanosleepDelay()
        delay.wait(.zero)
        delay.wait(.nanoseconds(-5))
    }
}

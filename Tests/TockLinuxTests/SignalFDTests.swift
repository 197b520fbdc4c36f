import Glibc
import SystemPackage
import Testing
@testable import TockLinux

@Suite(.serialized)
struct SignalFDTests {
    private func currentMask() -> sigset_t {
        var mask = sigset_t()
        pthread_sigmask(SIG_BLOCK, nil, &mask)
        return mask
    }

    @Test func raisedSignalsAreReadAndTheMaskIsRestored() throws {
        var before = currentMask()
        let wasBlocked = sigismember(&before, SIGUSR1) == 1

        let signals = try SignalFD(signals: [SIGUSR1, SIGUSR2])
        var during = currentMask()
        #expect(sigismember(&during, SIGUSR1) == 1)
        #expect(sigismember(&during, SIGUSR2) == 1)

        // raise(3) targets this thread, which now blocks both signals.
        #expect(raise(SIGUSR2) == 0)
        #expect(raise(SIGUSR1) == 0)
        #expect(raise(SIGUSR1) == 0)
        let received = try signals.read()
        // signal(7): standard signals do not queue, so SIGUSR1 is read once.
        #expect(received.sorted() == [SIGUSR1, SIGUSR2])
        #expect(try signals.read() == [])

        signals.close()
        signals.close()
        var after = currentMask()
        #expect((sigismember(&after, SIGUSR1) == 1) == wasBlocked)
    }

    @Test func nothingPendingReadsEmpty() throws {
        let signals = try SignalFD()
        #expect(try signals.read() == [])
    }
}

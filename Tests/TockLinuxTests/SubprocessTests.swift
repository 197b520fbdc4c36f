import Glibc
import Testing
import TockLinux

/// Another program run to its end: its status and output, and a start
/// that inherits neither this process's ignored nor its blocked signals.
@Suite struct SubprocessTests {
    @Test func statusAndOutputTogether() {
        let r = Subprocess.run("/bin/sh", ["-c", "echo out; echo err >&2; exit 3"])
        #expect(r.status == 3)
        #expect(r.output == "out\nerr\n")
    }

    @Test func aProgramThatCannotStartIs127() {
        let r = Subprocess.run("/nonexistent/program", [])
        #expect(r.status == 127)
        #expect(r.output.contains("/nonexistent/program"))
    }

    @Test func aSignalEndingItIs128PlusTheSignal() {
        #expect(Subprocess.run("/bin/sh", ["-c", "kill -TERM $$"]).status == 128 + SIGTERM)
    }

    /// SIGPIPE ignored and SIGTERM blocked here (as tock and its reactor
    /// have them): the child has both at their defaults.
    @Test func theChildStartsWithDefaultSignals() {
        let old = signal(SIGPIPE, SIG_IGN)
        var block = sigset_t(), previous = sigset_t()
        sigemptyset(&block)
        sigaddset(&block, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &block, &previous)
        defer {
            pthread_sigmask(SIG_SETMASK, &previous, nil)
            signal(SIGPIPE, old)
        }
        // /proc/self/status of the child: SigBlk and SigIgn as hex masks.
        let r = Subprocess.run("/bin/cat", ["/proc/self/status"])
        let lines = r.output.split(separator: "\n")
        let blocked = lines.first { $0.hasPrefix("SigBlk:") }.map { UInt64($0.split(separator: "\t").last ?? "", radix: 16) ?? 1 }
        let ignored = lines.first { $0.hasPrefix("SigIgn:") }.map { UInt64($0.split(separator: "\t").last ?? "", radix: 16) ?? 1 }
        #expect(blocked == 0)
        #expect(ignored.map { $0 & (1 << (UInt64(SIGPIPE) - 1)) } == 0)
    }
}

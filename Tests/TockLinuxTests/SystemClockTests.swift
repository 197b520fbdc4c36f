import Glibc
import Testing
@testable import TockLinux

struct SystemClockTests {
    let clock = SystemClock()

    private func read(_ id: clockid_t) -> Int64 {
        var ts = timespec()
        clock_gettime(id, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }

    @Test func nowReadsBoottimeAndRealtime() {
        let boottimeBefore = read(CLOCK_BOOTTIME)
        let now = clock.now()
        let realtimeAfter = read(CLOCK_REALTIME)
        let boottimeAfter = read(CLOCK_BOOTTIME)
        #expect(now.monotonic.nanoseconds >= boottimeBefore)
        #expect(now.monotonic.nanoseconds <= boottimeAfter)
        #expect(now.wall.nanoseconds <= realtimeAfter)
        #expect(clock.now().monotonic >= now.monotonic)
    }

    @Test func monotonicTimestampsMapOntoBoottime() {
        let boottimeBefore = read(CLOCK_BOOTTIME)
        let monotonic = read(CLOCK_MONOTONIC)
        let boottimeAfter = read(CLOCK_BOOTTIME)
        let converted = clock.boottimeFromMonotonic(UInt64(monotonic)).nanoseconds
        // Holds unless the machine suspends during the test; the tolerance
        // covers only the reads not being simultaneous.
        #expect(converted >= boottimeBefore - 1_000_000)
        #expect(converted <= boottimeAfter + 1_000_000)
        let midpoint = boottimeBefore + (boottimeAfter - boottimeBefore) / 2
        print("CLOCK_MONOTONIC → CLOCK_BOOTTIME: off by \(converted - midpoint) ns from the bracketing reads",
              "(window \(boottimeAfter - boottimeBefore) ns); offset applied (time suspended since boot):",
              millisecondsText(.nanoseconds(converted - monotonic)))
    }

    @Test func theSyncFlagIsAskedOncePerMinuteWhileYesAndEveryTenSecondsWhileNo() {
        final class Kernel: @unchecked Sendable { var answer: Bool? = false; var asked = 0 }
        let kernel = Kernel()
        let flag = SyncFlag(read: { kernel.asked += 1; return kernel.answer })
        let s: Int64 = 1_000_000_000, µs: Int64 = 1_000
        // One wake-up's clock reads, microseconds apart: asked once.
        for t in [0, 3 * µs, 40 * µs, 900 * µs] { #expect(flag.value(at: t) == false) }
        #expect(kernel.asked == 1)
        // A count-down's wake-ups, a second apart: not asked again for 10 s.
        for t in 1...9 { #expect(flag.value(at: Int64(t) * s) == false) }
        #expect(kernel.asked == 1)
        #expect(flag.value(at: 10 * s) == false)
        #expect(kernel.asked == 2)
        kernel.answer = true  // NTP slewed the clock: no step to say so
        #expect(flag.value(at: 19 * s) == false)
        #expect(flag.value(at: 20 * s) == true)  // seen within 10 s
        #expect(flag.value(at: 79 * s) == true)
        #expect(kernel.asked == 3)  // then trusted for a minute
        #expect(flag.value(at: 80 * s) == true)
        #expect(kernel.asked == 4)
    }

    /// A step (what NTP's first setting usually is) has the flag asked
    /// again at once: the time shows on the wake-up of the step.
    @Test func aClockChangeHasTheFlagAskedAtOnce() {
        final class Kernel: @unchecked Sendable { var answer: Bool? = false; var asked = 0 }
        let kernel = Kernel()
        let flag = SyncFlag(read: { kernel.asked += 1; return kernel.answer })
        let s: Int64 = 1_000_000_000
        #expect(flag.value(at: 0) == false)
        kernel.answer = true
        #expect(flag.value(at: 1 * s) == false)
        flag.clockChanged()
        #expect(flag.value(at: 1 * s) == true)
        #expect(kernel.asked == 2)
        // And a synchronised clock that is stepped (date -s) is asked again too.
        kernel.answer = false
        flag.clockChanged()
        #expect(flag.value(at: 2 * s) == false)
        #expect(kernel.asked == 3)
    }

    /// "Cannot say" is held as long as a yes, and an instant before the
    /// clock's zero (a test's) reads back as it was written.
    @Test func cannotSayIsHeldAMinuteAndInstantsBeforeZeroReadBack() {
        final class Kernel: @unchecked Sendable { var answer: Bool? = nil; var asked = 0 }
        let kernel = Kernel()
        let flag = SyncFlag(read: { kernel.asked += 1; return kernel.answer })
        let s: Int64 = 1_000_000_000
        #expect(flag.value(at: -5 * s) == nil)
        kernel.answer = false
        #expect(flag.value(at: 54 * s) == nil)  // -5 s + 59 s: still held
        #expect(kernel.asked == 1)
        #expect(flag.value(at: 55 * s) == false)
        #expect(flag.value(at: 64 * s) == false)
        #expect(kernel.asked == 2)
    }

    @Test func nowCarriesTheKernelsSyncFlag() {
        #expect(clock.now().wallSynchronised == (SystemClock.synchronised ?? true))
    }
}

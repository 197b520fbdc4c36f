import Glibc
import SystemPackage
import Testing
@testable import TockLinux
import TockCore

@Suite(.serialized)
struct TimerFDTests {
    let clock = SystemClock()

    /// Waits (in epoll, bounded) until `timer` is readable.
    private func waitReadable(_ timer: TimerFD, timeout: Duration = .seconds(1)) throws -> Bool {
        let epoll = try Epoll()
        try epoll.add(timer.descriptor)
        return try !epoll.wait(timeout: timeout).isEmpty
    }

    @Test func unarmedTimerReadsNothing() throws {
        let timer = try TimerFD(clock: .boottime)
        #expect(try timer.read() == .nothing)
    }

    @Test func pastBoottimeDeadlineExpiresOnceThenNothing() throws {
        let timer = try TimerFD(clock: .boottime)
        try timer.arm(at: clock.now().monotonic - .seconds(2))
        #expect(try waitReadable(timer))
        #expect(try timer.read() == .expired(count: 1))
        #expect(try timer.read() == .nothing)
    }

    @Test func pastRealtimeDeadlineExpiresOnceThenNothing() throws {
        let timer = try TimerFD(clock: .realtime)
        #expect(try timer.arm(at: clock.now().wall - .seconds(2)) == .armed)
        #expect(try waitReadable(timer))
        #expect(try timer.read() == .expired(count: 1))
        #expect(try timer.read() == .nothing)
    }

    /// An it_value of zero would disarm the timer; a deadline at the epoch
    /// has passed and must fire.
    @Test func deadlineAtTheEpochStillFires() throws {
        let timer = try TimerFD(clock: .boottime)
        try timer.arm(at: Instant.zero)
        #expect(try waitReadable(timer))
        #expect(try timer.read() == .expired(count: 1))

        let wallTimer = try TimerFD(clock: .realtime)
        try wallTimer.arm(at: WallTime(nanoseconds: 0))
        #expect(try waitReadable(wallTimer))
        #expect(try wallTimer.read() == .expired(count: 1))
    }

    @Test func disarmedTimerStaysQuiet() throws {
        let timer = try TimerFD(clock: .boottime)
        try timer.arm(at: clock.now().monotonic + .milliseconds(5))
        try timer.disarm()
        #expect(try !waitReadable(timer, timeout: .milliseconds(25)))
        #expect(try timer.read() == .nothing)
    }

    /// A second close must not close the descriptor again: by then its
    /// number is free, and the next descriptor opened (the lowest free
    /// number) most likely has it.
    @Test func closeIsIdempotent() throws {
        let timer = try TimerFD(clock: .boottime)
        timer.close()
        let next = try TimerFD(clock: .boottime)
        timer.close()
        try next.arm(at: Instant.zero)
        #expect(try waitReadable(next))
        #expect(try next.read() == .expired(count: 1))
    }
}

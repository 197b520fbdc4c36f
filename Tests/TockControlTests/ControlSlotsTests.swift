import Testing
@testable import TockControl
import TockCore

/// The control socket's connection rules on virtual time.
@Suite struct ControlSlotsTests {
    static let limit = Duration.seconds(5)
    static func at(_ ms: Int64) -> Instant { Instant(nanoseconds: ms * 1_000_000) }

    @Test func aConnectionThatSendsNothingRunsOutAtTheLimit() {
        var slots = ControlSlots(capacity: 4, idleLimit: Self.limit)
        #expect(slots.admit(7, at: Self.at(0)) == nil)
        #expect(slots.deadline == Self.at(5000))
        #expect(slots.expire(at: Self.at(4999)).isEmpty)
        #expect(slots.expire(at: Self.at(5000)).map(\.id) == [7])
        #expect(slots.slots.isEmpty && slots.deadline == nil)
    }

    @Test func eachPhaseHasTheWholeLimit() {
        var slots = ControlSlots(capacity: 4, idleLimit: Self.limit)
        _ = slots.admit(1, at: Self.at(0))
        // The first byte at 4 s: the request has 5 s from there...
        slots.requestBegan(1, at: Self.at(4000))
        // ...and more bytes do not extend it (a client dribbling bytes).
        slots.requestBegan(1, at: Self.at(8000))
        #expect(slots.deadline == Self.at(9000))
        // Answered at 8.5 s: idle again, 5 s from the answer.
        slots.answered(1, watch: false, at: Self.at(8500))
        #expect(slots.deadline == Self.at(13_500))
        slots.requestBegan(1, at: Self.at(9000))
        let closed = slots.expire(at: Self.at(14_000))
        #expect(closed.map(\.id) == [1] && closed.map(\.why) == [.unfinished])
    }

    @Test func aWatcherHasNoDeadline() {
        var slots = ControlSlots(capacity: 4, idleLimit: Self.limit)
        _ = slots.admit(1, at: Self.at(0))
        slots.answered(1, watch: true, at: Self.at(10))
        // A later request on the watching connection leaves it watching.
        slots.answered(1, watch: false, at: Self.at(20))
        #expect(slots.deadline == nil)
        #expect(slots.expire(at: Self.at(3_600_000)).isEmpty)
    }

    /// Full: the newcomer is admitted and the connection idle longest goes,
    /// a silent or idle one before any watcher.
    @Test func aNewcomerAlwaysGetsInAndTheLongestIdleMakesRoom() {
        var slots = ControlSlots(capacity: 3, idleLimit: Self.limit)
        _ = slots.admit(10, at: Self.at(0))
        slots.answered(10, watch: true, at: Self.at(0))  // the oldest, but watching
        _ = slots.admit(11, at: Self.at(100))
        _ = slots.admit(12, at: Self.at(200))
        slots.answered(11, watch: false, at: Self.at(300))  // 11 was active at 300 ms
        #expect(slots.admit(13, at: Self.at(400)) == 12)
        #expect(slots.admit(14, at: Self.at(500)) == 11)
        #expect(slots.admit(15, at: Self.at(600)) == 13)
        #expect(Set(slots.slots.keys) == [10, 14, 15])
        // Only watchers left besides the newcomer: the oldest watcher goes.
        slots.answered(14, watch: true, at: Self.at(700))
        slots.answered(15, watch: true, at: Self.at(800))
        #expect(slots.admit(16, at: Self.at(900)) == 10)
        #expect(slots.slots.count == 3)
    }
}

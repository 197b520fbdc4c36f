import Testing
import TockCore
import TockLoop

/// Who keeps a timer alive: its owner, or the queue while it is scheduled
/// (an entry holds one reference, counted by hand); none is kept after.
@Suite struct TimerQueueTests {
    let epoch = WallTime(secondsSince1970: 1_800_000_000)
    func at(_ s: Int64) -> Instant { Instant(nanoseconds: 1_000_000_000 + s * 1_000_000_000) }

    final class Probe {
        var fired = 0
        weak var timer: LoopTimer?
    }

    @Test func aOneShotThatSchedulesAnotherAsItFiresRunsWholeAndIsLetGo() {
        let queue = TimerQueue()
        let probe = Probe()
        var order: [String] = []
        do {
            let first = queue.makeTimer {
                order.append("first")
                // The new entry takes the first's stale place on the heap
                // while the first still runs.
                let second = queue.makeTimer { order.append("second"); probe.fired += 1 }
                probe.timer = second
                second.schedule(at: at(2))
                order.append("first, after")
            }
            first.schedule(at: at(1))
        }
        #expect(queue.fireDue(Now(monotonic: at(1), wall: epoch)) == 1)
        #expect(order == ["first", "first, after"])
        #expect(probe.timer != nil, "the queue holds the second until it fires")
        #expect(queue.fireDue(Now(monotonic: at(2), wall: epoch)) == 1)
        #expect(probe.fired == 1)
        _ = queue.earliest  // the fired entry surfaces and is dropped
        #expect(probe.timer == nil, "fired and unreferenced: freed")
    }

    @Test func aTimerRescheduledManyTimesIsFreedOnceItsOwnerAndItsEntriesAreGone() {
        let queue = TimerQueue()
        weak var watched: LoopTimer?
        do {
            let t = queue.makeTimer {}
            watched = t
            for s in 1...200 { t.schedule(at: at(Int64(s % 7 + 1))) }  // stale entries, swept as they pile up
            t.cancel()
        }
        _ = queue.earliest
        #expect(watched == nil)
        #expect(queue.fireDue(Now(monotonic: at(100), wall: epoch)) == 0)
    }

    @Test func aQueueGoneLetsGoOfTheTimersItHeld() {
        weak var watched: LoopTimer?
        do {
            let queue = TimerQueue()
            let t = queue.makeTimer {}
            watched = t
            t.schedule(at: at(5))
            t.schedule(atWall: epoch + .seconds(5))
            #expect(watched != nil)
        }
        #expect(watched == nil)
    }

    @Test func aTimerThatReschedulesItselfKeepsOneEntryAndFiresInOrder() {
        let queue = TimerQueue()
        var times: [Int64] = []
        var tick: LoopTimer!
        let other = queue.makeTimer { times.append(-1) }
        other.schedule(at: at(3))
        tick = queue.makeTimer {
            times.append(Int64(times.count))
            if times.count < 6 { tick.schedule(at: at(Int64(times.count + 1))) }
        }
        tick.schedule(at: at(1))
        for s in 1...8 { queue.fireDue(Now(monotonic: at(Int64(s)), wall: epoch)) }
        #expect(times == [0, 1, -1, 3, 4, 5])
    }

    /// A part held only by its timer's closure, whose deinit schedules
    /// another timer: it goes when its stale entry is replaced, in the
    /// middle of a push, and the heap it finds is whole.
    final class Part {
        let queue: TimerQueue
        let other: LoopTimer
        init(queue: TimerQueue, other: LoopTimer) { (self.queue, self.other) = (queue, other) }
        deinit { other.schedule(at: Instant(nanoseconds: 4_000_000_000)) }
    }

    @Test func aDeinitThatSchedulesWhileTheHeapReplacesItsEntryFindsItWhole() {
        let queue = TimerQueue()
        var fired: [String] = []
        let other = queue.makeTimer { fired.append("other") }
        do {
            let part = Part(queue: queue, other: other)
            queue.makeTimer { [part] in _ = part; fired.append("part") }.schedule(at: at(1))
        }
        let late = queue.makeTimer { fired.append("late") }
        #expect(queue.fireNext(Now(monotonic: at(1), wall: epoch)))  // one, no look at the top after
        #expect(fired == ["part"])
        // The part's timer's stale entry is on top: this push replaces it,
        // and the part's deinit schedules `other` for 3 s in.
        late.schedule(at: at(5))
        #expect(queue.earliest.monotonic == at(3))
        for s in 2...6 { queue.fireDue(Now(monotonic: at(Int64(s)), wall: epoch)) }
        #expect(fired == ["part", "other", "late"])
    }
}

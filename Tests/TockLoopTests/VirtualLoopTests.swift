import Glibc
import Testing
import TockCore
import TockLoop

@Suite struct VirtualLoopTests {
    let epoch = WallTime(secondsSince1970: 1_800_000_000)
    func at(_ s: Int64) -> Instant { Instant(nanoseconds: 1_000_000_000 + s * 1_000_000_000) }

    @Test func timersFireInTimeThenSchedulingOrder() {
        let loop = VirtualLoop(epoch: epoch)
        var fired: [String] = []
        loop.schedule(at: .monotonic(at(2))) { fired.append("b@2") }
        loop.schedule(at: .monotonic(at(1))) { fired.append("a@1") }
        loop.schedule(at: .monotonic(at(2))) { fired.append("c@2") }
        loop.schedule(at: .wall(epoch + .seconds(2))) { fired.append("wall@2") }
        loop.run(until: at(10))
        #expect(fired == ["a@1", "b@2", "c@2", "wall@2"])
        #expect(loop.instant == at(10))
        #expect(loop.timers.fired == 4)
    }

    @Test func aTimerScheduledAgainFiresOnceAtItsNewDeadline() {
        let loop = VirtualLoop(epoch: epoch)
        var times: [Instant] = []
        let t = loop.makeTimer { times.append(loop.instant) }
        t.schedule(at: at(5))
        t.schedule(at: at(3))
        loop.run(until: at(4))
        t.schedule(at: at(7))
        t.cancel()
        t.schedule(at: at(8))
        loop.run(until: at(20))
        #expect(times == [at(3), at(8)])
        #expect(t.deadline == nil)
    }

    @Test func aStepOfTheWallClockMovesWallDeadlinesNotMonotonicOnes() {
        let loop = VirtualLoop(epoch: epoch)
        var fired: [(String, Instant)] = []
        var steps = 0
        loop.onClockStep { steps += 1 }
        loop.schedule(at: .wall(epoch + .seconds(100))) { fired.append(("wall", loop.instant)) }
        loop.schedule(at: .monotonic(at(100))) { fired.append(("mono", loop.instant)) }
        loop.schedule(at: .monotonic(at(10))) { loop.stepWall(by: .seconds(60)) }
        loop.run(until: at(200))
        #expect(steps == 1)
        #expect(fired.map(\.0) == ["wall", "mono"])
        #expect(fired.map(\.1) == [at(40), at(100)])
    }

    @Test func aTimerThatSchedulesItselfForNowFiresOncePerTurn() {
        let queue = TimerQueue()
        let now = Now(monotonic: at(1), wall: epoch)
        var backlog = 3
        var served = 0
        var serve: LoopTimer!
        serve = queue.makeTimer {
            served += 1
            backlog -= 1
            if backlog > 0 { serve.schedule(at: now.monotonic) }
        }
        serve.schedule(at: now.monotonic)
        #expect(queue.fireDue(now) == 1)
        #expect(queue.fireDue(now) == 1)
        #expect(queue.fireDue(now) == 1)
        #expect(queue.fireDue(now) == 0)
        #expect(served == 3)
        // On virtual time the same backlog drains at one instant, a step each.
        let loop = VirtualLoop(epoch: epoch)
        var left = 4
        var steps: [Instant] = []
        var again: LoopTimer!
        again = loop.makeTimer {
            steps.append(loop.instant)
            left -= 1
            if left > 0 { again.schedule(at: loop.instant) }
        }
        again.schedule(at: at(2))
        loop.run(until: at(9))
        #expect(steps == Array(repeating: at(2), count: 4))
    }

    @Test func watchedDescriptorsAreServedBeforeEachStep() throws {
        let loop = VirtualLoop(epoch: epoch)
        var fds: [CInt] = [0, 0]
        #expect(socketpair(AF_UNIX, CInt(SOCK_STREAM.rawValue), 0, &fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        var got: [(UInt8, Instant)] = []
        try loop.watch(fds[0]) {
            var b: UInt8 = 0
            if read(fds[0], &b, 1) == 1 { got.append((b, loop.instant)) }
        }
        loop.schedule(at: .monotonic(at(3))) { var b: UInt8 = 7; _ = write(fds[1], &b, 1) }
        var b: UInt8 = 1
        _ = write(fds[1], &b, 1)
        loop.run(until: at(5))
        #expect(got.map(\.0) == [1, 7])
        #expect(got.map(\.1) == [at(0), at(3)])
        try loop.unwatch(fds[0])
    }

    @Test func manyOneShotsCostLogarithmicWork() {
        let loop = VirtualLoop(epoch: epoch)
        var order: [Int] = []
        for i in (0..<5_000).reversed() { loop.schedule(at: .monotonic(at(Int64(i % 100)))) { order.append(i) } }
        loop.run(until: at(200))
        #expect(order.count == 5_000)
        // Same instant: the one scheduled first (the larger i here) first.
        #expect(order.prefix(3) == [4900, 4800, 4700])
    }
}

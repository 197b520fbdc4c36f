import Testing
import TockCore
import TockLoop
@testable import TockHost
@testable import TockMQTT

/// A fleet whose members' wall clocks disagree, on virtual time: each box
/// runs on its own loop (its own wall clock, the same monotonic time), the
/// broker on another, all moved forward together.
final class SkewedFleet {
    static let epoch = WallTime(secondsSince1970: 1_800_000_000)
    let brokerLoop = VirtualLoop(epoch: epoch)
    let broker: VirtualBroker
    private(set) var loops: [String: VirtualLoop] = [:]
    private(set) var boxes: [String: TestBox] = [:]

    init(_ skews: [(String, Duration)]) throws {
        broker = VirtualBroker(loop: brokerLoop)
        for (id, skew) in skews {
            let loop = VirtualLoop(epoch: Self.epoch + skew)
            loops[id] = loop
            boxes[id] = try TestBox("mqtt: {host: h, client_id: \(id), group: gym}\ntimer: {presets: [10m]}", loop: loop, link: broker.link(id))
        }
        advance(by: .seconds(1))
    }

    /// Every loop to the same monotonic instant, from one deadline (of any
    /// of them) to the next.
    func advance(by d: Duration) {
        let end = brokerLoop.instant + d
        let all = [brokerLoop] + loops.keys.sorted().map { loops[$0]! }
        repeat {
            let next = all.compactMap { $0.timers.next($0.now()) }.min() ?? end
            let t = min(max(next, brokerLoop.instant), end)
            for loop in all { loop.run(until: t) }
        } while brokerLoop.instant < end
    }

    func press(_ id: String, _ button: Button) {
        boxes[id]!.shell.action(.pressed(button))
        advance(by: .seconds(1))
    }

    var states: [String: String] { boxes.mapValues(\.state) }
    var remaining: Set<Duration?> { Set(boxes.values.map { $0.shell.progress().remaining }) }
    func sent(by id: String) -> Int { broker.published(on: "tock/groups/gym", by: id).count }
}

@Suite struct GroupClockTests {
    static let cases: [(skew: Duration, pressFirst: Bool)] = [.seconds(30), .seconds(3_600), .seconds(86_400), .seconds(-30), .seconds(-3_600), .seconds(-86_400)]
        .flatMap { [($0, true), ($0, false)] }

    /// One member's clock is wrong; it is corrected after it pressed (or
    /// before anyone pressed). From then on every press, its own and the
    /// others', acts on every member, the last real press wins, and its
    /// stale press is never sent again.
    @Test(arguments: cases) func oneWrongClockCorrectedAfterOrBeforeAPress(skew: Duration, pressFirst: Bool) throws {
        let fleet = try SkewedFleet([("a", skew), ("b", .zero), ("c", .zero)])
        if pressFirst {
            fleet.press("a", .start)  // dated by its wrong clock
            #expect(fleet.states == ["a": "running", "b": "running", "c": "running"])
        } else {
            fleet.press("b", .start)  // reaches a while its clock is wrong
            #expect(fleet.states == ["a": "running", "b": "running", "c": "running"])
        }
        fleet.loops["a"]!.stepWall(by: .zero - skew)  // NTP answers
        fleet.advance(by: .seconds(2))
        fleet.press("b", .stop)
        #expect(fleet.states == ["a": "paused", "b": "paused", "c": "paused"])
        fleet.press("b", .reset)
        #expect(fleet.states == ["a": "ready", "b": "ready", "c": "ready"])
        fleet.press("a", .start)
        fleet.advance(by: .seconds(5))
        fleet.press("a", .stop)
        #expect(fleet.states == ["a": "paused", "b": "paused", "c": "paused"])
        #expect(fleet.remaining.count == 1)
        fleet.press("c", .reset)
        // Long after, nothing stale has landed and nothing was re-sent.
        fleet.advance(by: .seconds(120))
        #expect(fleet.states == ["a": "ready", "b": "ready", "c": "ready"])
        #expect(fleet.sent(by: "a") == (pressFirst ? 3 : 2))
        #expect(fleet.sent(by: "b") == (pressFirst ? 2 : 3))
    }

    /// Two members wrong in opposite directions, each corrected at a
    /// different moment, presses from all three between.
    @Test(arguments: [Duration.seconds(30), .seconds(3_600), .seconds(86_400)]) func twoWrongClocksCorrectedAtDifferentMoments(skew: Duration) throws {
        let fleet = try SkewedFleet([("a", skew), ("b", .zero - skew), ("c", .zero)])
        fleet.press("a", .start)
        #expect(fleet.states == ["a": "running", "b": "running", "c": "running"])
        fleet.press("b", .stop)
        #expect(fleet.states == ["a": "paused", "b": "paused", "c": "paused"])
        fleet.loops["a"]!.stepWall(by: .zero - skew)
        fleet.press("c", .start)
        #expect(fleet.states == ["a": "running", "b": "running", "c": "running"])
        fleet.press("b", .stop)  // b still wrong
        fleet.press("b", .reset)
        #expect(fleet.states == ["a": "ready", "b": "ready", "c": "ready"])
        fleet.loops["b"]!.stepWall(by: skew)
        fleet.press("a", .start)
        fleet.press("b", .stop)
        #expect(fleet.states == ["a": "paused", "b": "paused", "c": "paused"])
        #expect(fleet.remaining.count == 1)
        fleet.advance(by: .seconds(120))
        #expect(fleet.states == ["a": "paused", "b": "paused", "c": "paused"])
    }
}

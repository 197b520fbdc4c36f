import Testing
import TockCore
import TockJSON
import TockLoop
@testable import TockHost
@testable import TockMQTT

/// Time added in a fleet group, through a broker on virtual time: added on
/// every member once, in order with the other presses, whatever each
/// member's wall clock says; and carried in format 2, which members still
/// on format 1 refuse by name rather than follow without the added time.
@Suite struct GroupAddTimeTests {
    let topic = "tock/groups/gym"

    @Test func addedOnOneMemberItIsAddedOnAllOnceWhateverTheirClocksSay() throws {
        // a's clock is 0.8 s ahead, c's 0.6 s behind: a change waits for
        // its instant on each member's own clock.
        let fleet = try SkewedFleet([("a", .milliseconds(800)), ("b", .zero), ("c", .milliseconds(-600))])
        fleet.press("a", .start)
        fleet.advance(by: .seconds(4))
        fleet.press("a", .stop)
        fleet.advance(by: .seconds(4))
        #expect(fleet.states == ["a": "paused", "b": "paused", "c": "paused"])
        #expect(fleet.remaining.count == 1)
        let paused = try #require(fleet.remaining.first ?? nil)
        _ = fleet.boxes["b"]!.host.service.reply(to: .add(.seconds(60), name: nil))
        fleet.advance(by: .seconds(5))
        #expect(fleet.remaining == [paused + .seconds(60)])
        // The broker delivers b's message again: nothing more is added.
        let added = try #require(fleet.broker.published(on: topic, by: "b").last)
        #expect(added.contains(#""press":"add""#) && added.contains(#""length":660000000000"#))
        fleet.broker.link("replay").publish(topic, Array(added.utf8), retain: true)
        fleet.advance(by: .seconds(5))
        #expect(fleet.remaining == [paused + .seconds(60)])
        // Running, an add on a and a stop on c once the add has reached
        // its instant there: every member applies both, in order, and ends
        // on the same paused value. (A press made before an earlier change
        // reached its instant on that member, within the lead plus the
        // clocks' disagreement, follows the group's rule for two presses
        // made together: the later one wins; docs/mqtt.md.)
        fleet.press("c", .start)
        fleet.advance(by: .seconds(8))
        _ = fleet.boxes["a"]!.host.service.reply(to: .add(.seconds(120), name: nil))
        fleet.advance(by: .seconds(2))
        fleet.boxes["c"]!.shell.action(.pressed(.stop))
        fleet.advance(by: .seconds(6))
        #expect(fleet.states == ["a": "paused", "b": "paused", "c": "paused"])
        #expect(fleet.remaining.count == 1)
        let left = try #require(fleet.remaining.first ?? nil)
        // The first minute, about 11 s counted, and the 2 minutes.
        #expect(left > paused + .seconds(60 + 120 - 13) && left < paused + .seconds(60 + 120 - 9), "\(left) from \(paused)")
    }

    @Test func anAddGoesOutInFormat2EvenInAGroupStillSpeakingFormat1() throws {
        let fleet = try SkewedFleet([("a", .zero), ("b", .zero)])
        fleet.press("a", .start)
        let old = fleet.broker.link("old")
        old.connect()
        fleet.advance(by: .seconds(1))
        // A member on an older version presses Start again after a stop, in format 1.
        let at = fleet.loops["a"]!.now().wall + .milliseconds(250)
        let running = Snapshot.Count(program: .count(.init(mode: .timer, phase: .running(since: at.nanoseconds, before: 0), direction: .down)),
                                     presets: [600_000_000_000])
        let start = GroupSchedule.Message(from: "old", seq: 9, at: at.nanoseconds, press: "start", state: running, format: 1)
        old.publish(topic, start.bytes, retain: true)
        fleet.advance(by: .seconds(1))
        let before = try #require(fleet.remaining.first ?? nil)
        _ = fleet.boxes["b"]!.host.service.reply(to: .add(.seconds(60), name: nil))
        fleet.advance(by: .seconds(1))
        let added = try #require(fleet.broker.published(on: topic, by: "b").last)
        #expect(try JSON.parse(added)["v"]?.int == 2)
        #expect(fleet.remaining == [before + .seconds(60) - .seconds(1)])
        // A press without added time in that group keeps to format 1.
        #expect(GroupSchedule.Message.format(for: running, speaking: 1) == 1)
    }
}

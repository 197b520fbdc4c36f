import Testing
import TockCore
import TockJSON
@testable import TockHost
@testable import TockMQTT
@testable import TockShell

/// The group message's formats across a fleet updated one box at a time
/// (docs/mqtt.md, "Updating a fleet"): a group that has not spoken hears
/// format 2; once a member still on format 1 speaks, the updated members
/// answer in format 1, which that member reads, and follow its presses.
@Suite struct GroupFormatTests {
    let topic = "tock/groups/gym"

    func format(_ payload: String) throws -> Int? {
        try JSON.parse(payload)["v"]?.int
    }

    @Test func aNewGroupSpeaksFormat2AndAnsweringAnOlderMemberFormat1() throws {
        let fleet = try SkewedFleet([("a", .zero), ("b", .zero)])
        fleet.press("a", .start)
        #expect(fleet.states == ["a": "running", "b": "running"])
        let first = try #require(fleet.broker.published(on: topic, by: "a").last)
        #expect(try format(first) == 2)
        #expect(first.contains(#""program":{"timer":"#))

        // A member still on an older version stops the count, in format 1
        // (the flat `state`, as it has always sent it; no `v`).
        let old = fleet.broker.link("old")
        old.connect()
        fleet.advance(by: .seconds(1))
        let at = fleet.loops["a"]!.now().wall + .milliseconds(250)
        let paused = Snapshot.Count(program: .count(.init(mode: .timer, phase: .paused(elapsed: 2_000_000_000), direction: .down)),
                                    presets: [600_000_000_000])
        let stop = GroupSchedule.Message(from: "old", seq: 5, at: at.nanoseconds, press: "stop", state: paused, format: 1)
        var text = String(decoding: stop.bytes, as: UTF8.self)
        text = text.replacingOccurrences(of: #","v":1"#, with: "")
        old.publish(topic, Array(text.utf8), retain: true)
        fleet.advance(by: .seconds(1))
        #expect(fleet.states == ["a": "paused", "b": "paused"])

        // b answers in the group's format: format 1, which the older member reads.
        fleet.press("b", .start)
        #expect(fleet.states == ["a": "running", "b": "running"])
        let answer = try #require(fleet.broker.published(on: topic, by: "b").last)
        #expect(try format(answer) == 1)
        #expect(!answer.contains(#""program":{"#))
        let state = try #require(try JSON.parse(answer)["state"])
        // The flat shape the older member's reader takes.
        let flat = try JSON.decode(SnapshotJSON.Read.self, from: state.bytes(.encoder)).snapshot
        #expect(flat.mode == .timer && flat.count.phase != .ready)

        // A member that restarts takes the retained message (format 1) and keeps answering in it.
        let c = try TestBox("mqtt: {host: h, client_id: c, group: gym}\ntimer: {presets: [10m]}", loop: fleet.loops["a"]!, link: fleet.broker.link("c"))
        fleet.advance(by: .seconds(1))
        c.shell.action(.pressed(.stop))
        fleet.advance(by: .seconds(1))
        #expect(try format(try #require(fleet.broker.published(on: topic, by: "c").last)) == 1)
    }
}

import Foundation
import Testing
@testable import TockMQTT
import TockCore
import TockJSON

/// The fleet group's ordering and bounds, as every member applies them.
@Suite struct GroupScheduleTests {
    typealias Message = GroupSchedule.Message
    /// Both clocks at the start: every box's wall clock reads `now` then
    /// unless a test says otherwise.
    let start = Now(monotonic: Instant(nanoseconds: 5_000_000_000), wall: WallTime(secondsSince1970: 1_800_000_000))
    var now: WallTime { start.wall }

    /// The clocks `d` later (the wall clock moved by as much, not stepped).
    func later(_ d: Duration) -> Now { start.at(start.monotonic + d) }

    func message(_ from: String, in seconds: Double, _ phase: Snapshot.Phase = .ready, preset: Int64 = 300_000_000_000, seq: Int64 = 1) -> Message {
        let at = now.nanoseconds + Int64(seconds * 1e9)
        return Message(from: from, seq: seq, at: at, press: "start",
                       state: Snapshot(mode: .timer, phase: phase, presets: [preset], presetIndex: 0, direction: .down).count)
    }

    /// Format 1 is what every earlier member sent (without `v`): this box
    /// reads theirs, and writes format 1 with `v` added (which they ignore)
    /// and the count's fields only (the box's own were never the group's);
    /// format 2 carries the count in the state file's version-4 spelling;
    /// a later format is refused by name.
    @Test func theGroupFormatIsReadAcrossVersions() throws {
        let state = #"{"alarms":{"file":[],"items":[]},"direction":"down","fileMode":"timer","filePresets":[300000000000],"mode":"timer","phase":{"running":{"before":0,"since":1800000000000000000}},"presetIndex":0,"presets":[750000000000]}"#
        let older = #"{"at":1800000000000000000,"from":"kitchen","press":"start","seq":3,"state":\#(state)}"#
        let m = try JSON.decode(Message.self, from: Array(older.utf8))
        #expect(m.state.presets == [750_000_000_000] && m.format == 1)
        let count = #"{"direction":"down","mode":"timer","phase":{"running":{"before":0,"since":1800000000000000000}},"presetIndex":0,"presets":[750000000000]}"#
        #expect(String(decoding: m.bytes, as: UTF8.self) == #"{"at":1800000000000000000,"from":"kitchen","press":"start","seq":3,"state":\#(count),"v":1}"#)
        #expect(try JSON.decode(Message.self, from: m.bytes) == m)
        var two = m
        two.format = 2
        let text = #"{"at":1800000000000000000,"from":"kitchen","press":"start","seq":3,"state":{"presets":{"index":0,"list":[750000000000]},"program":{"timer":{"direction":"down","phase":{"running":{"before":0,"since":1800000000000000000}}}}},"v":2}"#
        #expect(String(decoding: two.bytes, as: UTF8.self) == text)
        #expect(try JSON.decode(Message.self, from: two.bytes) == two)
        #expect(two.key == m.key, "the order's tie-break is the same whatever the format")
        let newer = older.replacingOccurrences(of: #"{"at""#, with: #"{"v":3,"at""#)
        #expect(throws: Message.NewerFormat.self) { try JSON.decode(Message.self, from: Array(newer.utf8)) }
        // Format 2's state is checked as the state file's count is.
        for bad in [text.replacingOccurrences(of: #"{"timer":"#, with: #"{"warp":"#),
                    text.replacingOccurrences(of: #""program":{"#, with: #""program":{"interval":{"phase":{"ready":{}}},"#),
                    text.replacingOccurrences(of: #""index":0"#, with: #""index":1"#),
                    text.replacingOccurrences(of: #""before":0"#, with: #""before":9223372036854775807"#),
                    text.replacingOccurrences(of: #","v":2"#, with: #","v":1"#)] {
            #expect(throws: DecodingError.self, "\(bad)") { try JSON.decode(Message.self, from: Array(bad.utf8)) }
        }
    }

    @Test func aMessageAtTheEdgeOfInt64IsNeverDecoded() {
        let state = #"{"mode":"timer","phase":{"ready":{}},"presets":[300000000000],"presetIndex":0,"direction":"down"}"#
        for json in [#"{"from":"a","at":9223372036854775807,"press":"start","state":\#(state)}"#,
                     #"{"from":"a","at":-1,"press":"start","state":\#(state)}"#,
                     #"{"from":"a","at":1,"press":"explode","state":\#(state)}"#,
                     #"{"from":"a/b","at":1,"press":"start","state":\#(state)}"#,
                     #"{"from":"a","at":1,"press":"start","state":\#(state.replacingOccurrences(of: "{\"ready\":{}}", with: "{\"running\":{\"since\":1,\"before\":9223372036854775807}}"))}"#] {
            #expect(throws: DecodingError.self, "\(json)") { try JSON.decode(Message.self, from: Array(json.utf8)) }
        }
        #expect((try? JSON.decode(Message.self, from: Array(#"{"from":"a","at":1,"press":"start","state":\#(state)}"#.utf8))) != nil)
    }

    @Test func changesDatedFarAheadCountFromTheirArrivalAndCannotFreezeTheGroup() throws {
        var s = GroupSchedule()
        // A sender an hour ahead (its clock wrong, or a hostile one): its
        // changes are dated from their arrival, and at most `maxPending` wait.
        for i in 0..<100 {
            #expect(s.offer(message("intruder\(i)", in: 3_600 + Double(i)), now: start, own: "box") == nil)
        }
        #expect(s.pending.count == GroupSchedule.maxPending)
        #expect(s.pending.allSatisfy { $0.localAt == now })
        // A real press made after them (so numbered after them) is applied
        // at its instant, and the group is left on it.
        let press = message("box", in: 0.25, .running(since: now.nanoseconds + 250_000_000, before: 0), seq: s.nextSeq)
        #expect(press.seq == 2)
        #expect(s.offer(press, now: start, own: "box") == nil)
        let due = s.due(at: later(.milliseconds(250)))
        #expect(due.last?.message.from == "box")
        #expect(try due.last?.state.get() == press.state)
        #expect(s.applied == press.key && s.pending.isEmpty)
    }

    @Test func aCounterFarPastTheGroupsIsRefused() {
        var s = GroupSchedule()
        #expect(s.offer(message("a", in: 0.1, seq: 7), now: start, own: "box") == nil)
        #expect(s.offer(message("b", in: 0.2, seq: 7 + GroupSchedule.maxSeqJump + 1), now: start, own: "box") == .tooFarAhead)
        #expect(s.offer(message("c", in: 0.3, seq: 7 + GroupSchedule.maxSeqJump), now: start, own: "box") == nil)
        #expect(s.nextSeq == 8 + GroupSchedule.maxSeqJump)
        #expect(throws: DecodingError.self) {
            try JSON.decode(Message.self, from: Array(#"{"from":"a","seq":4611686018427387905,"at":1,"press":"start","state":{"mode":"timer","phase":{"ready":{}},"presets":[300000000000],"presetIndex":0,"direction":"down"}}"#.utf8))
        }
    }

    static let skews: [Duration] = [.seconds(30), .seconds(3_600), .seconds(86_400), .seconds(-30), .seconds(-3_600), .seconds(-86_400)]

    /// A press from a member whose clock is `skew` out: counted from its
    /// arrival here, every instant of its state moved by as much.
    @Test(arguments: skews) func aPressFromAWrongClockCountsFromItsArrival(skew: Duration) throws {
        var s = GroupSchedule()
        let lead = Duration.milliseconds(250)
        let theirs = now + skew + lead
        let m = Message(from: "wrong", seq: 1, at: theirs.nanoseconds, press: "start",
                        state: Snapshot(mode: .timer, phase: .running(since: theirs.nanoseconds, before: 0), presets: [60_000_000_000], presetIndex: 0, direction: .down).count)
        #expect(s.offer(m, now: start, lead: lead, own: "box") == nil)
        #expect(s.due(at: later(.milliseconds(249))).isEmpty)
        let due = try #require(s.due(at: later(lead)).first)
        #expect(due.moved == .zero - skew)
        #expect(try due.state.get().phase == .running(since: (now + lead).nanoseconds, before: 0))
    }

    /// The bug this order exists for: a box whose clock ran ahead pressed,
    /// then NTP corrected it. The next press anyone makes is numbered
    /// after, so it is adopted there and everywhere, as is that box's own.
    @Test(arguments: skews) func aBoxWhoseClockWasCorrectedFollowsTheNextPress(skew: Duration) throws {
        var wrong = GroupSchedule(), right = GroupSchedule()
        let lead = Duration.milliseconds(250)
        // Its own press, dated by its wrong clock: adopted on it at once
        // (its clock agrees with itself), and on the other on arrival.
        let wrongNow = Now(monotonic: start.monotonic, wall: now + skew)
        let first = Message(from: "wrong", seq: wrong.nextSeq, at: (wrongNow.wall + lead).nanoseconds, press: "start",
                            state: Snapshot(mode: .timer, phase: .running(since: (wrongNow.wall + lead).nanoseconds, before: 0), presets: [60_000_000_000], presetIndex: 0, direction: .down).count)
        #expect(wrong.offer(first, now: wrongNow, lead: lead, own: "wrong") == nil)
        #expect(right.offer(first, now: later(.milliseconds(20)), lead: lead, own: "right") == nil)
        #expect(try wrong.due(at: wrongNow.at(start.monotonic + lead)).first?.state.get() == first.state)
        #expect(right.due(at: later(.milliseconds(270))).count == 1)
        // NTP steps the wrong clock right; the other box presses Reset.
        let reset = message("right", in: 2.25, seq: right.nextSeq)
        #expect(reset.seq == 2)
        #expect(right.offer(reset, now: later(.seconds(2)), lead: lead, own: "right") == nil)
        #expect(wrong.offer(reset, now: later(.milliseconds(2_020)), lead: lead, own: "wrong") == nil)
        #expect(try wrong.due(at: later(.milliseconds(2_250))).first?.state.get() == reset.state)
        #expect(wrong.applied == reset.key && right.due(at: later(.milliseconds(2_250))).count == 1)
        // Its own next press acts on it, and on the other.
        let stop = message("wrong", in: 3.25, seq: wrong.nextSeq)
        #expect(stop.seq == 3)
        #expect(wrong.offer(stop, now: later(.seconds(3)), lead: lead, own: "wrong") == nil)
        #expect(right.offer(stop, now: later(.milliseconds(3_020)), lead: lead, own: "right") == nil)
        #expect(wrong.due(at: later(.milliseconds(3_250))).map(\.message) == [stop])
        #expect(right.due(at: later(.milliseconds(3_250))).map(\.message) == [stop])
        // Its stale press, delivered again, is older than both.
        #expect(wrong.offer(first, now: later(.seconds(4)), lead: lead, own: "wrong") == .notNewer)
        #expect(right.offer(first, now: later(.seconds(4)), lead: lead, own: "right") == .notNewer)
    }

    /// A change waiting for its instant when this box's clock is stepped:
    /// it is still due after its lead (monotonic), and its state is moved
    /// onto the stepped clock.
    @Test(arguments: skews) func aStepWhileAChangeWaitsMovesItsState(step: Duration) throws {
        var s = GroupSchedule()
        let lead = Duration.seconds(5)
        let m = message("a", in: 5, .running(since: (now + lead).nanoseconds, before: 0), seq: 1)
        #expect(s.offer(m, now: start, lead: lead, own: "box") == nil)
        var stepped = later(.seconds(1))
        stepped.wall = stepped.wall + step
        #expect(s.due(at: stepped.at(start.monotonic + .milliseconds(4_999))).isEmpty)
        let due = try #require(s.due(at: stepped.at(start.monotonic + lead)).first)
        #expect(due.moved == step)
        #expect(try due.state.get().phase == .running(since: (now + lead + step).nanoseconds, before: 0))
    }

    /// Two members with wrong clocks (one ahead, one behind) and one right:
    /// whatever order the broker delivers in, all apply the last press.
    @Test func twoWrongClocksAndOneRightConvergeOnTheLastPress() {
        let skews: [String: Duration] = ["ahead": .seconds(86_400), "behind": .seconds(-3_600), "right": .zero]
        var members = ["ahead": GroupSchedule(), "behind": GroupSchedule(), "right": GroupSchedule()]
        let lead = Duration.milliseconds(250)
        var presses: [Message] = []
        for (i, from) in ["ahead", "behind", "right", "behind"].enumerated() {
            let t = later(.seconds(Int64(i)))
            let clock = Now(monotonic: t.monotonic, wall: t.wall + skews[from]!)
            let m = Message(from: from, seq: members[from]!.nextSeq, at: (clock.wall + lead).nanoseconds, press: "start",
                            state: Snapshot(mode: .timer, phase: .ready, presets: [Int64(i + 1) * 60_000_000_000], presetIndex: 0, direction: .down).count)
            presses.append(m)
            // Each member receives it (the presser at once, the others a
            // little later), its own clock reading as wrong as it is.
            for name in ["ahead", "behind", "right"] {
                let arrival = t.at(t.monotonic + (name == from ? .zero : .milliseconds(30)))
                let own = Now(monotonic: arrival.monotonic, wall: arrival.wall + skews[name]!)
                _ = members[name]!.offer(m, now: own, lead: lead, own: name)
                _ = members[name]!.due(at: own.at(own.monotonic + lead))
            }
        }
        #expect(presses.map(\.seq) == [1, 2, 3, 4])
        for (_, s) in members { #expect(s.applied == presses.last?.key) }
        // The same presses delivered again, in reverse, change nothing.
        for name in members.keys {
            for m in presses.reversed() {
                #expect(members[name]!.offer(m, now: later(.seconds(9)), lead: lead, own: name) == .notNewer)
            }
        }
    }

    @Test func aFloodOfNearFutureChangesNeverDropsAnEarlierOrOwnPress() {
        var s = GroupSchedule()
        // Many senders, each within the bound but later than the real press.
        for i in 0..<200 { _ = s.offer(message("flood\(i % 50)", in: 1 + Double(i) / 100), now: start, own: "box") }
        #expect(s.pending.count == GroupSchedule.maxPending)
        #expect(s.offer(message("box", in: 0.25), now: start, own: "box") == nil)
        #expect(s.offer(message("other", in: 0.3), now: start, own: "box") == nil)
        #expect(s.pending.count == GroupSchedule.maxPending)
        #expect(s.due(at: later(.milliseconds(300))).map(\.message.from) == ["box", "other"])
        // One sender holds at most maxPerSender waiting changes.
        var t = GroupSchedule()
        for i in 0..<10 { _ = t.offer(message("one", in: 1 + Double(i) / 10), now: start, own: "box") }
        #expect(t.pending.count == GroupSchedule.maxPerSender)
        #expect(t.pending.map(\.message.at) == (0..<4).map { now.nanoseconds + 1_000_000_000 + Int64($0) * 100_000_000 })
    }

    /// Two changes with the same instant and sender but different states:
    /// whichever order they arrive in, every member applies the same last.
    @Test func sameInstantAndSenderConvergeInEitherOrder() {
        let a = message("x", in: 0.25, preset: 60_000_000_000)
        let b = message("x", in: 0.25, preset: 120_000_000_000)
        var first = GroupSchedule(), second = GroupSchedule(), late = GroupSchedule()
        _ = first.offer(a, now: start, own: "m1"); _ = first.offer(b, now: start, own: "m1")
        _ = second.offer(b, now: start, own: "m2"); _ = second.offer(a, now: start, own: "m2")
        let one = first.due(at: later(.seconds(1))).last?.message
        let two = second.due(at: later(.seconds(1))).last?.message
        // A member that applied one of them before the other arrived.
        _ = late.offer(a, now: start, own: "m3")
        var three = late.due(at: later(.seconds(1))).last?.message
        if late.offer(b, now: later(.seconds(1)), own: "m3") == nil { three = late.due(at: later(.seconds(1))).last?.message }
        var reverse = GroupSchedule()
        _ = reverse.offer(b, now: start, own: "m4")
        var four = reverse.due(at: later(.seconds(1))).last?.message
        if reverse.offer(a, now: later(.seconds(1)), own: "m4") == nil { four = reverse.due(at: later(.seconds(1))).last?.message }
        #expect(one != nil && one == two && two == three && three == four)
        #expect(first.applied == second.applied && second.applied == late.applied && late.applied == reverse.applied)
    }

    @Test func anOlderChangeIsIgnoredHoweverLateItComes() {
        var s = GroupSchedule()
        _ = s.offer(message("a", in: 0.5), now: start, own: "a")
        _ = s.due(at: later(.seconds(1)))
        #expect(s.offer(message("b", in: 0.4), now: later(.seconds(1)), own: "a") == .notNewer)
        #expect(s.offer(message("a", in: 0.5), now: later(.seconds(1)), own: "a") == .notNewer)
    }
}

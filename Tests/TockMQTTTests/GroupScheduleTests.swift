import Foundation
import Testing
@testable import TockMQTT
import TockCore

/// The fleet group's ordering and bounds, as every member applies them.
@Suite struct GroupScheduleTests {
    typealias Message = GroupSchedule.Message
    let now = WallTime(secondsSince1970: 1_800_000_000)

    func message(_ from: String, in seconds: Double, _ phase: Snapshot.Phase = .ready, preset: Int64 = 300_000_000_000) -> Message {
        let at = now.nanoseconds + Int64(seconds * 1e9)
        return Message(from: from, at: at, press: "start",
                       state: Snapshot(mode: .timer, phase: phase, presets: [preset], presetIndex: 0, direction: .down))
    }

    @Test func aMessageAtTheEdgeOfInt64IsNeverDecoded() {
        let state = #"{"mode":"timer","phase":{"ready":{}},"presets":[300000000000],"presetIndex":0,"direction":"down"}"#
        for json in [#"{"from":"a","at":9223372036854775807,"press":"start","state":\#(state)}"#,
                     #"{"from":"a","at":-1,"press":"start","state":\#(state)}"#,
                     #"{"from":"a","at":1,"press":"explode","state":\#(state)}"#,
                     #"{"from":"a/b","at":1,"press":"start","state":\#(state)}"#,
                     #"{"from":"a","at":1,"press":"start","state":\#(state.replacingOccurrences(of: "{\"ready\":{}}", with: "{\"running\":{\"since\":1,\"before\":9223372036854775807}}"))}"#] {
            #expect(throws: DecodingError.self, "\(json)") { try JSONDecoder().decode(Message.self, from: Data(json.utf8)) }
        }
        #expect((try? JSONDecoder().decode(Message.self, from: Data(#"{"from":"a","at":1,"press":"start","state":\#(state)}"#.utf8))) != nil)
    }

    @Test func changesDatedFarAheadAreRefusedAndCannotFreezeTheGroup() {
        var s = GroupSchedule()
        for i in 0..<100 {
            #expect(s.offer(message("intruder\(i)", in: 3_600 + Double(i)), now: now, own: "box") == .tooFarAhead)
        }
        #expect(s.pending.isEmpty)
        // A real press, its lead ahead, is applied at its instant.
        #expect(s.offer(message("box", in: 0.25, .running(since: now.nanoseconds, before: 0)), now: now, own: "box") == nil)
        #expect(s.due(at: now + .milliseconds(250)).map(\.from) == ["box"])
    }

    @Test func aFloodOfNearFutureChangesNeverDropsAnEarlierOrOwnPress() {
        var s = GroupSchedule()
        // Many senders, each within the bound but later than the real press.
        for i in 0..<200 { _ = s.offer(message("flood\(i % 50)", in: 1 + Double(i) / 100), now: now, own: "box") }
        #expect(s.pending.count == GroupSchedule.maxPending)
        #expect(s.offer(message("box", in: 0.25), now: now, own: "box") == nil)
        #expect(s.offer(message("other", in: 0.3), now: now, own: "box") == nil)
        #expect(s.pending.count == GroupSchedule.maxPending)
        #expect(s.due(at: now + .milliseconds(300)).map(\.from) == ["box", "other"])
        // One sender holds at most maxPerSender waiting changes.
        var t = GroupSchedule()
        for i in 0..<10 { _ = t.offer(message("one", in: 1 + Double(i) / 10), now: now, own: "box") }
        #expect(t.pending.count == GroupSchedule.maxPerSender)
        #expect(t.pending.map(\.message.at) == (0..<4).map { now.nanoseconds + 1_000_000_000 + Int64($0) * 100_000_000 })
    }

    /// Two changes with the same instant and sender but different states:
    /// whichever order they arrive in, every member applies the same last.
    @Test func sameInstantAndSenderConvergeInEitherOrder() {
        let a = message("x", in: 0.25, preset: 60_000_000_000)
        let b = message("x", in: 0.25, preset: 120_000_000_000)
        var first = GroupSchedule(), second = GroupSchedule(), late = GroupSchedule()
        _ = first.offer(a, now: now, own: "m1"); _ = first.offer(b, now: now, own: "m1")
        _ = second.offer(b, now: now, own: "m2"); _ = second.offer(a, now: now, own: "m2")
        let one = first.due(at: now + .seconds(1)).last
        let two = second.due(at: now + .seconds(1)).last
        // A member that applied one of them before the other arrived.
        _ = late.offer(a, now: now, own: "m3")
        var three = late.due(at: now + .seconds(1)).last
        if late.offer(b, now: now + .seconds(1), own: "m3") == nil { three = late.due(at: now + .seconds(1)).last }
        var reverse = GroupSchedule()
        _ = reverse.offer(b, now: now, own: "m4")
        var four = reverse.due(at: now + .seconds(1)).last
        if reverse.offer(a, now: now + .seconds(1), own: "m4") == nil { four = reverse.due(at: now + .seconds(1)).last }
        #expect(one != nil && one == two && two == three && three == four)
        #expect(first.applied == second.applied && second.applied == late.applied && late.applied == reverse.applied)
    }

    @Test func anOlderChangeIsIgnoredHoweverLateItComes() {
        var s = GroupSchedule()
        _ = s.offer(message("a", in: 0.5), now: now, own: "a")
        _ = s.due(at: now + .seconds(1))
        #expect(s.offer(message("b", in: 0.4), now: now + .seconds(1), own: "a") == .notNewer)
        #expect(s.offer(message("a", in: 0.5), now: now + .seconds(1), own: "a") == .notNewer)
    }
}

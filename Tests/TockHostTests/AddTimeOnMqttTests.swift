import Foundation
import Logging
import Testing
import TockControl
import TockJSON
import TockLoop
import TockTestSupport
@testable import TockCore
@testable import TockHost
@testable import TockMQTT

/// Adding time over MQTT on virtual time: *+1 min* on `<prefix>/cmd`,
/// *+1 min timer* on `<prefix>/timer_cmd` for the timer selected, *Add
/// time*'s requests; refusals answered with why and changing nothing;
/// hostile amounts; a flood of adds at the limit of 99h59m left.
@Suite struct AddTimeOnMqttTests {
    let loop = VirtualLoop(epoch: WallTime(secondsSince1970: 1_800_000_000))  // 2027-01-15 08:00 UTC
    let lines = LogLines()

    func box(_ yaml: String = "timer: {presets: [9m]}") throws -> (TestBox, VirtualBroker, VirtualLink) {
        let broker = VirtualBroker(loop: loop)
        let log = Logger(label: "test") { [lines] _ in LogCapture(lines: lines) }
        let link = broker.link("kitchen")
        let box = try TestBox("mqtt: {host: h, client_id: kitchen}\n" + yaml, loop: loop, link: link, log: log)
        loop.advance(by: .seconds(1))
        return (box, broker, link)
    }

    func cmd(_ link: VirtualLink, _ text: String) { link.inject("tock/kitchen/cmd", text) }
    func timerCmd(_ link: VirtualLink, _ text: String) { link.inject("tock/kitchen/timer_cmd", text) }
    static let plusOne = HomeAssistant.addMinute
    static let plusOneTimer = #"{"op":"add","duration":"1m"}"#

    /// What the box's own count has left, exactly.
    func left(_ box: TestBox) -> Duration? {
        guard case .count(let c) = box.shell.core.program else { return nil }
        return c.left(at: loop.instant)
    }

    func timerLeft(_ box: TestBox, _ name: String) -> Duration? {
        switch box.shell.core.timers.named(name)?.state {
        case .running(let ends)?: ends - loop.instant
        case .paused(let left, _)?: left
        default: nil
        }
    }

    func lastReply(_ broker: VirtualBroker) -> [String: Any] { reply(broker.published(on: "tock/kitchen/reply").last ?? "") }

    @Test func plusOneMinuteAddsAMinuteToTheCountRunningOrPaused() throws {
        let (box, broker, link) = try box()
        cmd(link, #"{"cmd":"start"}"#)
        loop.advance(by: .seconds(10))
        let before = try #require(left(box))
        cmd(link, Self.plusOne)
        loop.advance(by: .milliseconds(100))
        #expect(lastReply(broker)["ok"] as? Bool == true)
        #expect(left(box) == before + .seconds(60) - .milliseconds(100))
        cmd(link, #"{"cmd":"stop"}"#)
        loop.advance(by: .milliseconds(100))
        let paused = try #require(left(box))
        cmd(link, Self.plusOne)
        loop.advance(by: .seconds(5))
        #expect(box.state == "paused" && left(box) == paused + .seconds(60))
        // Taken away again by Add time's request.
        cmd(link, #"{"cmd": "add", "duration": "-2m"}"#)
        loop.advance(by: .seconds(1))
        #expect(left(box) == paused - .seconds(60))
        withExtendedLifetime(box) {}
    }

    @Test func whereTimeCannotBeAddedTheReplySaysWhyAndNothingChanges() throws {
        let (box, broker, link) = try box("timer: {presets: [9m]}\ninterval: {programs: [{name: tAbA, kind: tabata}]}")
        for (setup, why) in [
            ([String](), "nothing is counting"),
            ([#"{"cmd":"mode","mode":"stopwatch"}"#, #"{"cmd":"switch","position":"up"}"#, #"{"cmd":"start"}"#], "a stopwatch counting up has no end"),
            ([#"{"cmd":"stop"}"#, #"{"cmd":"reset"}"#, #"{"cmd":"mode","mode":"interval"}"#, #"{"cmd":"start"}"#], "an interval program's rounds keep their lengths"),
        ] {
            for s in setup { cmd(link, s) }
            loop.advance(by: .seconds(2))
            let program = box.shell.core.program
            cmd(link, Self.plusOne)
            loop.advance(by: .milliseconds(100))
            #expect((lastReply(broker)["error"] as? String)?.contains(why) == true, "\(why): \(lastReply(broker)["error"] ?? "")")
            if case .count(let c) = program, case .count(let d) = box.shell.core.program { #expect(c.length == d.length, "\(why)") }
        }
        #expect(lines.messages.contains { $0.hasPrefix(#"mqtt: refused {"cmd":"add","duration":"1m"} on tock/kitchen/cmd: nothing is counting"#) },
                "\(lines.messages)")
        // No timer in progress: +1 min timer is refused on reply.
        timerCmd(link, Self.plusOneTimer)
        loop.advance(by: .milliseconds(100))
        #expect(lastReply(broker)["error"] as? String == "no timer is in progress to add time to; add one first (Add timer, or tock timer add NAME DURATION)")
    }

    @Test func plusOneMinuteTimerAddsToTheSelectedTimerOnly() throws {
        let (box, broker, link) = try box()
        cmd(link, #"{"cmd":"timer","op":"add","name":"EGG","duration":"6m"}"#)
        cmd(link, #"{"cmd":"timer","op":"add","name":"tEA","duration":"4m"}"#)
        loop.advance(by: .seconds(2))
        timerCmd(link, #"{"op":"select","name":"tEA"}"#)
        loop.advance(by: .seconds(1))
        let (egg, tea) = (try #require(timerLeft(box, "EGG")), try #require(timerLeft(box, "tEA")))
        timerCmd(link, Self.plusOneTimer)
        loop.advance(by: .seconds(1))
        #expect(lastReply(broker)["ok"] as? Bool == true)
        #expect(timerLeft(box, "tEA") == tea + .seconds(59) && timerLeft(box, "EGG") == egg - .seconds(1))
        #expect(box.shell.core.timers.named("tEA")?.duration == .seconds(300))
        // Taken away by name (Add time's "EGG -1m"); the box's own count untouched.
        cmd(link, #"{"cmd": "add", "name": "EGG", "duration": "-1m"}"#)
        loop.advance(by: .seconds(1))
        #expect(timerLeft(box, "EGG") == egg - .seconds(62) && box.state == "ready")
        // The timers' topic tells the new end.
        let timers = try #require(broker.retained["tock/kitchen/timers"].flatMap { try? JSONSerialization.jsonObject(with: Data($0)) as? [[String: Any]] })
        let ends = timers.first { $0["name"] as? String == "tEA" }?["ends"] as? String
        #expect(ends == "2027-01-15T08:05:01+00:00", "\(timers)")
    }

    @Test func hostileAmountsAreRefusedWithWhyAndLoseNothing() throws {
        let (box, broker, link) = try box()
        cmd(link, #"{"cmd":"start"}"#)
        cmd(link, #"{"cmd":"timer","op":"add","name":"EGG","duration":"6m"}"#)
        loop.advance(by: .seconds(2))
        let mqtt = { box.host.service.status()["mqtt"] as? [String: Any] ?? [:] }
        let ignored = mqtt()["ignored"] as? Int ?? 0
        let (main, egg) = (try #require(left(box)), try #require(timerLeft(box, "EGG")))
        // Well formed, refused by the box with why.
        for (payload, why) in [
            (#"{"cmd":"add","duration":"-0s"}"#, "add needs an amount other than 0"),
            (#"{"cmd":"add","duration":"2000h"}"#, "would make it more than 99h59m"),
            (#"{"cmd":"add","duration":"-10m"}"#, "would leave less than 1s"),
            (#"{"cmd":"add","duration":"1m","name":"GONE"}"#, "no timer named GONE (timers: EGG)"),
        ] {
            cmd(link, payload)
            loop.advance(by: .milliseconds(100))
            #expect((lastReply(broker)["error"] as? String)?.contains(why) == true, "\(payload): \(lastReply(broker))")
        }
        timerCmd(link, #"{"op":"add","duration":"-0s"}"#)
        loop.advance(by: .milliseconds(100))
        #expect((lastReply(broker)["error"] as? String)?.contains("other than 0") == true)
        // Not a request: ignored, no reply.
        let replies = broker.published(on: "tock/kitchen/reply").count
        let megabyte = #"{"cmd":"add","duration":""# + String(repeating: "1", count: 1 << 20) + #"s"}"#
        for junk in [#"{"cmd":"add","duration":"99999h"}"#, #"{"cmd":"add","duration":60}"#, #"{"cmd":"add"}"#, megabyte,
                     #"{"cmd":"add","duration":"1m","name":""}"#, #"{"cmd":"add","duration":"1m","name":7}"#] { cmd(link, junk) }
        for junk in [#"{"op":"add","duration":"99999h"}"#, #"{"op":"add","duration":1e400}"#, #"{"op":"add"}"#, megabyte] { timerCmd(link, junk) }
        loop.advance(by: .seconds(1))
        #expect(mqtt()["ignored"] as? Int == ignored + 10)
        #expect(broker.published(on: "tock/kitchen/reply").count == replies)
        let spent = Duration.milliseconds(500) + .seconds(1)
        #expect(left(box) == main - spent && timerLeft(box, "EGG") == egg - spent)
    }

    /// At 99h59m left every add is refused: a flood of them changes
    /// nothing, keeps to the queue's 64, and writes one refused line a
    /// minute.
    @Test func aFloodOfAddsAtTheLimitIsRefusedEachTimeAndChangesNothing() throws {
        let (box, broker, link) = try box("timer: {presets: [99h59m]}")
        cmd(link, #"{"cmd":"start"}"#)
        cmd(link, #"{"cmd":"timer","op":"add","name":"EGG","duration":"99h59m"}"#)
        loop.advance(by: .seconds(2))
        cmd(link, #"{"cmd":"stop"}"#)
        cmd(link, #"{"cmd":"timer","op":"pause","name":"EGG"}"#)
        // Topped up to the limit: paused, so nothing moves during the flood.
        cmd(link, #"{"cmd":"add","duration":"2s"}"#)
        cmd(link, #"{"cmd":"add","duration":"2s","name":"EGG"}"#)
        loop.advance(by: .seconds(2))
        #expect(left(box) == AddTime.mostLeft && timerLeft(box, "EGG") == AddTime.mostLeft)
        let (program, timers) = (box.shell.core.program, box.shell.core.timers)
        let mark = broker.log.count
        for round in 0..<5 {
            for i in 0..<200 {
                if i % 2 == 0 { cmd(link, i % 4 == 0 ? Self.plusOne : #"{"cmd":"add","duration":"1ms"}"#) } else { timerCmd(link, Self.plusOneTimer) }
            }
            loop.advance(by: .seconds(round == 4 ? 61 : 2))
        }
        let replies = broker.log[mark...].filter { $0.topic == "tock/kitchen/reply" }.map { reply($0.payload) }
        #expect(replies.count == 5 * MqttBridge.inboxLimit)
        #expect(replies.allSatisfy { ($0["error"] as? String)?.contains("would make it more than 99h59m") == true })
        #expect(box.shell.core.program == program && box.shell.core.timers == timers)
        #expect((box.host.service.status()["mqtt"] as? [String: Any])?["dropped"] as? Int == 5 * (200 - MqttBridge.inboxLimit))
        #expect(broker.log[mark...].filter { $0.topic == "tock/kitchen/timers" || $0.topic == "tock/kitchen/remaining_ms" }.isEmpty)
        let refused = lines.messages.filter { $0.contains("mqtt: refused") }
        #expect(refused.count <= 3, "\(refused)")
    }
}

import Foundation
import Testing
import TockJSON
@testable import TockConfig
import TockCore
import TockJSON
import TockLinux
import TockLoop
import TockTestSupport
@testable import TockHost
@testable import TockMQTT
@testable import TockShell

/// Lead-in, overrun and named programs through the whole host: the status
/// a request answers, the MQTT state topics and commands, Home Assistant's
/// entities and a fleet group, on virtual time.
@Suite struct GymOnVirtualTimeTests {
    let loop = VirtualLoop(epoch: WallTime(secondsSince1970: 1_800_000_000))
    let programs = """
    mode: interval
    interval:
      lead_in: 10s
      programs:
        - {name: tAbA, kind: tabata}
        - {name: E1, kind: emom, every: 1m, rounds: 5}
    """

    @Test func theStatusAndTheStateTopicsCarryTheProgramTheRoundAndTheLeadIn() throws {
        let broker = VirtualBroker(loop: loop)
        let link = broker.link("gym")
        let box = try TestBox("mqtt: {host: h, client_id: gym}\n" + programs, loop: loop, link: link)
        loop.advance(by: .seconds(1))
        #expect(broker.published(on: "tock/gym/program") == ["tAbA"])
        link.inject("tock/gym/cmd", #"{"cmd":"program","name":"E1"}"#)
        loop.advance(by: .seconds(3))
        #expect(broker.published(on: "tock/gym/program") == ["tAbA", "E1"])
        link.inject("tock/gym/cmd", #"{"cmd":"start"}"#)
        loop.advance(by: .seconds(4))
        link.inject("tock/gym/cmd", #"{"cmd":"status"}"#)
        loop.advance(by: .milliseconds(100))
        let status = reply(broker.published(on: "tock/gym/reply").last ?? "")
        #expect(status["program"] as? String == "E1")
        #expect(status["programs"] as? [String] == ["tAbA", "E1"])
        #expect(status["round"] as? Int == 1)
        #expect((status["lead_in_ms"] as? Int).map { (5_900...6_000).contains($0) } == true)
        loop.advance(by: .seconds(70))
        #expect(box.shell.progress().round == RoundReport(round: 2))
        #expect(broker.published(on: "tock/gym/round") == ["1", "2"])
        let refused = { () -> [String: Any] in
            link.inject("tock/gym/cmd", #"{"cmd":"program","name":"tAbA"}"#)
            loop.advance(by: .milliseconds(100))
            return reply(broker.published(on: "tock/gym/reply").last ?? "")
        }()
        #expect(refused["error"] as? String == "the timer is running; stop and reset it first")
    }

    @Test func homeAssistantGetsAProgramSelectAndARoundSensor() throws {
        let configs = HomeAssistant.configs(MqttConfig(), version: "1", programs: ["tAbA", "E1"])
        #expect(configs.count == HomeAssistant.configs(MqttConfig(), version: "1").count + 2)
        let select = try #require(configs.first { $0.topic.hasSuffix("/program/config") })
        #expect(select.topic.hasPrefix("homeassistant/select/"))
        #expect(select.payload["options"] == ["tAbA", "E1"])
        #expect(select.payload["command_template"]?.string == #"{"cmd":"program","name":"{{ value }}"}"#)
        #expect(configs.contains { $0.topic.hasPrefix("homeassistant/sensor/") && $0.topic.hasSuffix("/round/config") })
        #expect(!HomeAssistant.configs(MqttConfig(), version: "1").contains { $0.topic.hasSuffix("/program/config") })
    }

    /// A Tabata's work and rest phases on `phase`, and each change as the
    /// `phase_changed` device trigger: 20 s work, 10 s rest.
    @Test func aPhaseChangeIsADeviceTrigger() throws {
        let broker = VirtualBroker(loop: loop)
        let link = broker.link("gym")
        let box = try TestBox("mqtt: {host: h, client_id: gym}\nmode: interval\ninterval:\n  programs: [{name: tAbA, kind: tabata}]\n",
                              loop: loop, link: link)
        loop.advance(by: .seconds(3))
        link.inject("tock/gym/cmd", #"{"cmd":"start"}"#)
        loop.advance(by: .seconds(61))
        // Work, rest, work, rest, work (60 s: two rounds of 30 s and the third begun).
        #expect(broker.published(on: "tock/gym/phase") == ["work", "rest", "work", "rest", "work"])
        #expect(broker.published(on: "tock/gym/event").filter { $0 == "phase_changed" }.count == 4)
        withExtendedLifetime(box) {}
    }

    @Test func theOverrunIsPublished() throws {
        let broker = VirtualBroker(loop: loop)
        let link = broker.link("kitchen")
        let box = try TestBox("mqtt: {host: h, client_id: kitchen}\ntimer: {presets: [10s], overrun: true}", loop: loop, link: link)
        loop.advance(by: .seconds(1))
        link.inject("tock/kitchen/cmd", #"{"cmd":"start"}"#)
        loop.advance(by: .seconds(15))
        #expect(box.shell.frame?.text.hasPrefix("-0:0") == true)
        link.inject("tock/kitchen/cmd", #"{"cmd":"status"}"#)
        loop.advance(by: .milliseconds(100))
        let status = reply(broker.published(on: "tock/kitchen/reply").last ?? "")
        #expect((status["overrun_ms"] as? Int).map { (4_900...5_200).contains($0) } == true)
        #expect(broker.published(on: "tock/kitchen/overrun_ms").contains { $0 != "" })
    }

    @Test func aGroupsBoxesStartAProgramsLeadInTogether() throws {
        let broker = VirtualBroker(loop: loop)
        let yaml = { (id: String) in "mqtt: {host: h, client_id: \(id), group: gym}\n" + programs }
        let a = try TestBox(yaml("a"), loop: loop, link: broker.link("a"))
        let b = try TestBox(yaml("b"), loop: loop, link: broker.link("b"))
        loop.advance(by: .seconds(1))
        a.shell.action(.pressed(.reset))  // the next program, on both
        loop.advance(by: .seconds(1))
        #expect(a.shell.frame?.text == "  E1" && b.shell.frame?.text == "  E1")
        loop.advance(by: .seconds(2))
        a.shell.action(.pressed(.start))
        loop.advance(by: .seconds(2))
        #expect(a.shell.frame?.text.hasPrefix("Pr") == true)
        #expect(a.shell.frame == b.shell.frame)
        #expect(a.shell.progress().leadIn == b.shell.progress().leadIn)
        loop.advance(by: .seconds(9))
        #expect(a.shell.progress().program == "E1" && b.shell.progress().program == "E1")
        // (The press went out for 4.25 s, the group's lead ahead: the lead-in ends at 14.25.)
        #expect(a.shell.frame?.text == "01:00" && b.shell.frame?.text == "01:00")
        loop.advance(by: .seconds(1))
        #expect(a.shell.frame?.text == "00:59" && b.shell.frame?.text == "00:59")
        #expect(a.shell.progress().remaining == b.shell.progress().remaining)
    }

    /// The box is dropped without stopping (as SIGKILL or a power cut leave
    /// it) and a new one starts on the same state file `later` after.
    func restarted(_ yaml: String, _ path: String, after box: TestBox, later: Duration) throws -> (TestBox, VirtualLoop) {
        let wall = loop.now().wall + later
        let next = VirtualLoop(epoch: wall)
        return (try TestBox(yaml, loop: next, statePath: path), next)
    }

    func stateFile() throws -> String { try temporaryStateFile("gym") }

    @Test func anOverrunSurvivesAClockStepAndAKill() throws {
        let path = try stateFile()
        let yaml = "timer: {presets: [10s], overrun: true}"
        let box = try TestBox(yaml, loop: loop, statePath: path)
        loop.advance(by: .seconds(60))  // (the state file's write budget is full again)
        box.shell.action(.pressed(.start))
        loop.advance(by: .seconds(15))
        box.shell.action(.pressed(.stop))  // silenced: the overrun goes on
        loop.advance(by: .seconds(5))
        #expect(box.shell.frame?.text == "-0:10")
        loop.stepWall(by: .seconds(-7200))  // NTP corrects a clock two hours fast
        loop.advance(by: .seconds(2))
        #expect(box.shell.frame?.text == "-0:12")
        let (after, next) = try restarted(yaml, path, after: box, later: .seconds(30))
        next.advance(by: .milliseconds(500))
        #expect(after.state == "done")
        #expect(after.shell.frame?.text == "-0:42")
        #expect(after.shell.progress().overrun == .milliseconds(42_500))
    }

    @Test func aProgramKilledMidLeadInAndMidRoundResumesExactly() throws {
        let path = try stateFile()
        let yaml = programs
        let box = try TestBox(yaml, loop: loop, statePath: path)
        loop.advance(by: .seconds(60))
        box.shell.action(.pressed(.reset))  // E1: every minute, 5 rounds
        loop.advance(by: .seconds(3))
        box.shell.action(.pressed(.start))
        loop.advance(by: .seconds(4))
        #expect(box.shell.frame?.text == "Pr 6")
        // Off for 3 s in the lead-in: 3 s of it left when back.
        let (mid, loop2) = try restarted(yaml, path, after: box, later: .seconds(3))
        loop2.advance(by: .milliseconds(100))
        #expect(mid.shell.frame?.text == "Pr 3")
        loop2.advance(by: .milliseconds(2_900))
        #expect(mid.shell.frame?.text == "01:00")
        loop2.advance(by: .seconds(75))  // round 2, 15 s in
        #expect(mid.shell.progress().round == RoundReport(round: 2))
        // Off for 100 s mid-round 2: back 55 s into round 3.
        let wall = loop2.now().wall + .seconds(100)
        let loop3 = VirtualLoop(epoch: wall)
        let last = try TestBox(yaml, loop: loop3, statePath: path)
        loop3.advance(by: .milliseconds(100))
        #expect(last.shell.progress().round == RoundReport(round: 3) && last.shell.frame?.text == "00:05")
        #expect(last.shell.progress().program == "E1")
    }
}

@Suite struct GymGroupTests {
    let loop = VirtualLoop(epoch: WallTime(secondsSince1970: 1_800_000_000))

    @Test func anAMRAPsRoundPressedOnOneBoxShowsOnEvery() throws {
        let broker = VirtualBroker(loop: loop)
        let yaml = { (id: String) in "mqtt: {host: h, client_id: \(id), group: gym}\nmode: interval\ninterval:\n  programs: [{name: A, kind: amrap, cap: 10m}]" }
        let a = try TestBox(yaml("a"), loop: loop, link: broker.link("a"))
        let b = try TestBox(yaml("b"), loop: loop, link: broker.link("b"))
        loop.advance(by: .seconds(1))
        a.shell.action(.pressed(.start))
        loop.advance(by: .seconds(30))
        b.shell.action(.pressed(.start))  // a round done, counted on both
        loop.advance(by: .milliseconds(500))
        #expect(a.shell.frame?.text == "r  2" && b.shell.frame?.text == "r  2")
        #expect(a.shell.progress().round == RoundReport(round: 2) && b.shell.progress().round == RoundReport(round: 2))
    }
}

@Suite struct GymControlSocketTests {
    let loop = VirtualLoop(epoch: WallTime(secondsSince1970: 1_800_000_000))

    @Test func aWatcherIsToldEachRoundAndTheProgramRequestIsAnswered() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tock-gym-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent("s").path
        let yaml = "mode: interval\ninterval:\n  programs: [{name: tAbA, kind: tabata}, {name: E1, kind: emom, every: 1m, rounds: 3}]"
        let box = try TestBox(yaml, loop: loop, control: try UnixListener(path: path))
        func lines(_ c: UnixConnection) -> [String] {
            var text = ""
            while (try? c.waitForInput(milliseconds: 0)) == true, let chunk = try? c.read(), !chunk.isEmpty { text += String(decoding: chunk, as: UTF8.self) }
            return text.split(separator: "\n").map(String.init)
        }
        let client = try UnixConnection.connect(to: path)
        try client.writeAll(Array(#"{"cmd":"program","name":"E1"}"#.utf8 + [10]))
        loop.advance(by: .milliseconds(1))
        let answer = reply(lines(client).first ?? "")
        #expect(answer["program"] as? String == "E1" && answer["display"] as? String == "  E1")
        let refused = try UnixConnection.connect(to: path)
        try refused.writeAll(Array(#"{"cmd":"program","name":"yoga"}"#.utf8 + [10]))
        loop.advance(by: .milliseconds(1))
        #expect(reply(lines(refused).first ?? "")["error"] as? String == "no program \"yoga\"; the programs are tAbA, E1")
        let watcher = try UnixConnection.connect(to: path)
        try watcher.writeAll(Array(#"{"cmd":"watch"}"#.utf8 + [10]))
        loop.advance(by: .milliseconds(1))
        _ = lines(watcher)
        box.shell.action(.pressed(.start))
        loop.advance(by: .seconds(61))
        let events = lines(watcher).map(reply)
        #expect(events.contains { $0["round"] as? Int == 2 })
        client.close()
        refused.close()
        watcher.close()
        box.host.stop()
    }
}

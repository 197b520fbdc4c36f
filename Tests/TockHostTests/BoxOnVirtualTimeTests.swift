import Foundation
import Logging
import Testing
import TockConfig
import TockCore
import TockHardware
import TockLinux
import TockLoop
@testable import TockHost
@testable import TockMQTT
@testable import TockDevices
@testable import TockShell

/// The whole host (core, shell, state file, control socket, MQTT bridge
/// and group) on virtual time: faults are scripted, counts are exact, and
/// nothing waits on a wall clock.
struct TestBox {
    let host: Box
    var shell: Shell { host.shell }
    var state: String { shell.state?.rawValue ?? "starting" }

    init(_ yaml: String, loop: VirtualLoop, link: VirtualLink? = nil, statePath: String? = nil, control: UnixListener? = nil,
         log: Logger? = nil) throws {
        let config = try Configuration.parse(yaml: yaml, file: "test.yaml")
        var setup = Box.Setup(config: config, devices: Devices.mockParts(config, clock: { [loop] in loop.instant }, keeping: .service).devices)
        setup.statePath = statePath
        setup.control = control
        if let link { setup.transport = { _, _, _ in link } }
        var quiet = Logger(label: "test")
        quiet.logLevel = .critical
        host = try Box(setup, loop: loop, log: log ?? quiet)
        host.start()
    }
}

func reply(_ payload: String) -> [String: Any] {
    (try? JSONSerialization.jsonObject(with: Data(payload.utf8))) as? [String: Any] ?? [:]
}

@Suite struct MqttOnVirtualTimeTests {
    let loop = VirtualLoop(epoch: WallTime(secondsSince1970: 1_800_000_000))

    @Test func aCommandIsAnsweredOnReplyAndTheStateTopicsFollow() throws {
        let broker = VirtualBroker(loop: loop)
        let link = broker.link("kitchen")
        let box = try TestBox("mqtt: {host: h, client_id: kitchen}\ntimer: {presets: [10s]}", loop: loop, link: link)
        loop.advance(by: .seconds(1))
        #expect(broker.published(on: "tock/kitchen/availability") == ["online"])
        #expect(broker.published(on: "tock/kitchen/state") == ["ready"])
        link.inject("tock/kitchen/cmd", #"{"cmd":"start"}"#)
        loop.advance(by: .seconds(1))
        let replies = broker.published(on: "tock/kitchen/reply")
        #expect(replies.count == 1)
        #expect(reply(replies[0])["state"] as? String == "running")
        loop.advance(by: .seconds(10))
        #expect(box.state == "ringing")
        #expect(broker.published(on: "tock/kitchen/state") == ["ready", "running", "ringing"])
    }

    @Test func aDroppedLinkSendsNothingAndEverythingAgainOnReconnecting() throws {
        let broker = VirtualBroker(loop: loop)
        let link = broker.link("kitchen")
        let box = try TestBox("mqtt: {host: h, client_id: kitchen}\ntimer: {presets: [10s]}", loop: loop, link: link)
        loop.advance(by: .seconds(1))
        link.drop()
        box.shell.action(.pressed(.start))
        loop.advance(by: .seconds(1))
        #expect(broker.published(on: "tock/kitchen/state") == ["ready"])  // nothing while down
        link.connect()
        loop.advance(by: .seconds(1))
        #expect(link.connects == 2)
        #expect(broker.published(on: "tock/kitchen/state") == ["ready", "running"])
        #expect(broker.published(on: "tock/kitchen/availability") == ["online", "online"])
    }

    @Test func aFloodIsBoundedAndServedOneCommandPerTurn() throws {
        let broker = VirtualBroker(loop: loop)
        let link = broker.link("kitchen")
        let box = try TestBox("mqtt: {host: h, client_id: kitchen}", loop: loop, link: link)
        loop.advance(by: .seconds(1))
        let turns = loop.timers.fired
        for _ in 0..<100 { link.inject("tock/kitchen/cmd", #"{"cmd":"status"}"#) }
        loop.advance(by: .seconds(1))
        // 64 wait (the rest are dropped), each answered on its own turn.
        #expect(broker.published(on: "tock/kitchen/reply").count == MqttBridge.inboxLimit)
        #expect(loop.timers.fired - turns >= MqttBridge.inboxLimit)
        link.inject("tock/kitchen/cmd", #"{"cmd":"status"}"#)
        loop.advance(by: .seconds(1))
        let last = reply(broker.published(on: "tock/kitchen/reply").last ?? "")
        let mqtt = last["mqtt"] as? [String: Any]
        #expect(mqtt?["dropped"] as? Int == 100 - MqttBridge.inboxLimit)
        #expect(mqtt?["received"] as? Int == 101)
        withExtendedLifetime(box) {}
    }

    /// A box on MQTT with a ten-minute preset, its link and its broker.
    func kitchen() throws -> (TestBox, VirtualLink, VirtualBroker) {
        let broker = VirtualBroker(loop: loop)
        let link = broker.link("kitchen")
        return (try TestBox("mqtt: {host: h, client_id: kitchen}\ntimer: {presets: [10m]}", loop: loop, link: link), link, broker)
    }

    /// The count's next ten wake-ups, each `late(deadline)` past its
    /// deadline (the loop run `after` past it): the instants they came, and
    /// the remaining-time values sent meanwhile.
    func tenWakeUps(_ box: TestBox, _ link: VirtualLink, late: @escaping (Instant) -> Duration, after: Duration) throws -> (wakeUps: [Instant], digits: [(at: Instant, payload: String)]) {
        loop.lateness = late
        let from = link.sent.count
        var wakeUps: [Instant] = []
        for _ in 0..<10 {
            let due = try #require(box.shell.nextWake)
            loop.run(until: due + after)
            wakeUps.append(due + late(due))
        }
        return (wakeUps, link.sent[from...].filter { $0.topic == "tock/kitchen/remaining_ms" }.map { ($0.at, $0.payload) })
    }

    func seconds(_ range: ClosedRange<Int>) -> [String] { range.reversed().map { "\($0 * 1000)" } }

    /// A kernel's wake-ups come a little late, by varying amounts: each
    /// second's digits go out with that second's own wake-up, not held
    /// back for a second pass over every topic moments later, and two
    /// values of a topic are never closer than the gap less its slack.
    @Test func lateWakeUpsSendTheirDigitsWithTheirOwnPass() throws {
        let (box, link, broker) = try kitchen()
        loop.advance(by: .seconds(1))
        box.shell.action(.pressed(.start))
        loop.advance(by: .milliseconds(300))
        // Each second's wake-up late by 8 ms, then by 1 ms, in turn.
        let run = try tenWakeUps(box, link, late: { d in (d.nanoseconds / 1_000_000_000) % 2 == 0 ? .milliseconds(8) : .milliseconds(1) },
                                 after: .milliseconds(9))
        #expect(run.digits.map(\.at) == run.wakeUps)
        #expect(run.digits.map(\.payload) == seconds(590...599))
        for (a, b) in zip(run.digits, run.digits.dropFirst()) {
            #expect(b.at - a.at >= MqttBridge.minimumGap - MqttBridge.gapSlack)
        }
        withExtendedLifetime((box, broker)) {}
    }

    /// One wake-up 300 ms late (a stalled card, a busy box), the rest on
    /// time: each second's digits still go out with that second's own
    /// wake-up, not held back for a pass of their own moments later. A
    /// pass is dated by the instant the digits stepped, not by when it ran.
    @Test func oneLateWakeUpDoesNotHoldBackTheSecondsAfterIt() throws {
        let (box, link, broker) = try kitchen()
        loop.advance(by: .seconds(1))
        box.shell.action(.pressed(.start))
        loop.advance(by: .milliseconds(300))
        let third = try #require(box.shell.nextWake) + .seconds(2)
        let run = try tenWakeUps(box, link, late: { d in d == third ? .milliseconds(300) : .zero }, after: .milliseconds(400))
        #expect(run.digits.map(\.at) == run.wakeUps)
        #expect(run.wakeUps.contains(third + .milliseconds(300)))
        #expect(run.digits.map(\.payload) == seconds(590...599))
        withExtendedLifetime((box, broker)) {}
    }

    /// A press that reaches the loop 1.4 s after the kernel stamped it (the
    /// loop busy): the count starts from the press, its digits step from
    /// there, and each second's go out with that second's own wake-up.
    @Test func aPressReadLateDoesNotHoldBackTheSecondsAfterIt() throws {
        let (box, link, broker) = try kitchen()
        loop.advance(by: .seconds(1))
        let pressed = loop.instant
        loop.advance(by: .milliseconds(1400))
        box.shell.edge(Edge(line: .button(.start), active: true, timestamp: pressed))
        box.shell.edge(Edge(line: .button(.start), active: false, timestamp: pressed + .milliseconds(100)))
        let run = try tenWakeUps(box, link, late: { _ in .zero }, after: .milliseconds(1))
        #expect(run.digits.map(\.at) == run.wakeUps)
        #expect(run.digits.map(\.payload) == seconds(589...598))
        withExtendedLifetime((box, broker)) {}
    }

    /// Someone who flips the switch over MQTT just under the slack apart,
    /// and just over it: the topic's values are never closer than the gap
    /// less its slack, and its last value always arrives.
    @Test func aTopicFloodedAtTheEdgeOfItsGapKeepsItsSpacing() throws {
        for every in [Duration.milliseconds(940), .milliseconds(960), .milliseconds(10)] {
            let loop = VirtualLoop(epoch: WallTime(secondsSince1970: 1_800_000_000))
            let broker = VirtualBroker(loop: loop)
            let link = broker.link("kitchen")
            let box = try TestBox("mqtt: {host: h, client_id: kitchen}", loop: loop, link: link)
            loop.advance(by: .seconds(2))
            let from = link.sent.count
            for i in 0..<40 {
                link.inject("tock/kitchen/cmd", #"{"cmd":"switch","position":"\#(i % 2 == 0 ? "up" : "down")"}"#)
                loop.advance(by: every)
            }
            loop.advance(by: .seconds(2))
            let sends = link.sent[from...].filter { $0.topic == "tock/kitchen/switch" }
            #expect(sends.count >= 2, "\(every)")
            for (a, b) in zip(sends, sends.dropFirst()) {
                #expect(b.at - a.at >= MqttBridge.minimumGap - MqttBridge.gapSlack, "\(every): \(a.at) then \(b.at)")
            }
            #expect(sends.last?.payload == box.shell.core.input.switchPosition.rawValue, "\(every)")
        }
    }

    @Test func aRetainedCommandNeverRuns() throws {
        let broker = VirtualBroker(loop: loop)
        let link = broker.link("kitchen")
        let box = try TestBox("mqtt: {host: h, client_id: kitchen}", loop: loop, link: link)
        loop.advance(by: .seconds(1))
        link.inject("tock/kitchen/cmd", #"{"cmd":"start"}"#, retained: true)
        loop.advance(by: .seconds(1))
        #expect(box.state == "ready")
        #expect(broker.published(on: "tock/kitchen/reply").isEmpty)
    }
}

@Suite struct GroupOnVirtualTimeTests {
    let loop = VirtualLoop(epoch: WallTime(secondsSince1970: 1_800_000_000))
    let yaml = { (id: String) in "mqtt: {host: h, client_id: \(id), group: gym}\ntimer: {presets: [30s]}" }

    @Test func aPressOnOneMemberRunsEveryMemberFromTheSameInstant() throws {
        let broker = VirtualBroker(loop: loop)
        let a = try TestBox(yaml("a"), loop: loop, link: broker.link("a"))
        let b = try TestBox(yaml("b"), loop: loop, link: broker.link("b"))
        loop.advance(by: .seconds(1))
        a.shell.action(.pressed(.start))
        loop.advance(by: .seconds(1))
        #expect(a.state == "running" && b.state == "running")
        #expect(a.shell.progress().remaining == b.shell.progress().remaining)
        #expect(broker.published(on: "tock/groups/gym").count == 1)
    }

    @Test func aMemberCutOffActsAloneThenTakesTheGroupsStateOnReconnecting() throws {
        let broker = VirtualBroker(loop: loop)
        let linkB = broker.link("b")
        let a = try TestBox(yaml("a"), loop: loop, link: broker.link("a"))
        let b = try TestBox(yaml("b"), loop: loop, link: linkB)
        loop.advance(by: .seconds(1))
        a.shell.action(.pressed(.start))
        loop.advance(by: .seconds(1))
        linkB.drop()
        a.shell.action(.pressed(.stop))
        loop.advance(by: .seconds(1))
        #expect(a.state == "paused")
        #expect(b.state == "running")  // it never heard
        linkB.connect()
        loop.advance(by: .seconds(1))
        #expect(b.state == "paused")  // the retained change, newer than its own
        #expect(a.shell.progress().remaining == b.shell.progress().remaining)
    }
}

@Suite struct ControlAndStoreOnVirtualTimeTests {
    let loop = VirtualLoop(epoch: WallTime(secondsSince1970: 1_800_000_000))
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tock-host-\(UUID().uuidString)")

    init() throws { try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true) }

    func lines(_ c: UnixConnection) -> [String] {
        var text = ""
        while (try? c.waitForInput(milliseconds: 0)) == true, let chunk = try? c.read(), !chunk.isEmpty { text += String(decoding: chunk, as: UTF8.self) }
        return text.split(separator: "\n").map(String.init)
    }

    @Test func aRequestIsAnsweredAndASilentConnectionClosedAtTheIdleLimit() throws {
        let path = dir.appendingPathComponent("s").path
        let box = try TestBox("timer: {presets: [10s]}", loop: loop, control: try UnixListener(path: path))
        let talker = try UnixConnection.connect(to: path)
        let silent = try UnixConnection.connect(to: path)
        try talker.writeAll(Array("{\"cmd\":\"start\"}\n".utf8))
        loop.advance(by: .milliseconds(1))
        #expect(reply(lines(talker).first ?? "")["state"] as? String == "running")
        #expect(box.state == "running")
        loop.advance(by: .milliseconds(4_998))
        #expect(lines(silent).isEmpty)  // 4.999 s: still open
        loop.advance(by: .milliseconds(1))
        let closed = lines(silent)
        #expect(reply(closed.first ?? "")["error"] as? String == "no request within 5s; closed")
        #expect(try silent.waitForInput(milliseconds: 0))
        #expect(try silent.read() == [])  // and the server hung up
        talker.close()
        silent.close()
        box.host.stop()
    }

    @Test func aWatcherThatStopsReadingIsDroppedAndOneThatReadsIsNot() throws {
        let path = dir.appendingPathComponent("w").path
        let box = try TestBox("mode: stopwatch\nswitch: up", loop: loop, control: try UnixListener(path: path))
        let stalled = try UnixConnection.connect(to: path)
        let reader = try UnixConnection.connect(to: path)
        try stalled.writeAll(Array("{\"cmd\":\"watch\"}\n".utf8))
        try reader.writeAll(Array("{\"cmd\":\"watch\"}\n".utf8))
        loop.advance(by: .milliseconds(1))
        box.shell.action(.pressed(.start))
        var read: [String] = []
        // Under a minute the stopwatch shows hundredths: a change every 10 ms,
        // far more than a socket buffer holds for one who never reads.
        for _ in 0..<70 {
            loop.advance(by: .seconds(1))
            read += lines(reader)
        }
        let last = reply(read.last ?? "")
        #expect(last["display"] as? String == box.shell.frame?.text)
        #expect(read.count > 6_000)
        let buffered = lines(stalled)
        #expect(buffered.count > 10 && buffered.count < read.count)
        #expect(try stalled.waitForInput(milliseconds: 0))
        #expect(try stalled.read() == [])  // dropped: end of stream after what was buffered
        #expect(box.state == "running")  // and the count never waited on it
        stalled.close()
        reader.close()
        box.host.stop()
    }

    @Test func aFloodOfChangesIsWrittenTenAtOnceThenOnceASecond() throws {
        let path = dir.appendingPathComponent("state.json").path
        let box = try TestBox("timer: {presets: [10s]}", loop: loop, statePath: path)
        loop.advance(by: .seconds(60))  // the bucket is full again
        let store = try #require(box.host.store)
        let before = store.writes
        for s in 1...30 { try box.shell.setPreset(.seconds(Int64(s))) }
        #expect(store.writes == before + StateStore.burst)
        loop.advance(by: .milliseconds(999))
        #expect(store.writes == before + StateStore.burst)
        loop.advance(by: .milliseconds(1))
        #expect(store.writes == before + StateStore.burst + 1)  // the latest state, once
        loop.advance(by: .seconds(10))
        #expect(store.writes == before + StateStore.burst + 1)
        #expect(StateStore(path: path, log: Logger(label: "test")).load()?.count.presets.first == Duration.seconds(30).nanoseconds)
    }
}

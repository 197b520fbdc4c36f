import Foundation
import Logging
import TockConfig
import TockControl
import TockCore
import TockLoop
import TockShell

/// The appliance on MQTT: its state on retained topics under the prefix,
/// commands on `<prefix>/cmd` answered on `<prefix>/reply` by the same
/// rules as the control socket, Home Assistant discovery, and the fleet
/// group (`MqttGroup`). Everything runs on the loop's thread, timed by
/// `MqttTransport.measure`.
public final class MqttBridge {
    private let config: MqttConfig
    let client: any MqttTransport
    private let shell: Shell
    private let service: ControlService
    private let log: Logger
    private let loop: any EventLoop
    /// The next waiting request's turn.
    private var serveTimer: LoopTimer!
    let group: MqttGroup?
    /// The last value sent on each state topic (cleared on connecting, so
    /// everything is sent again).
    private var published: [String: String] = [:]
    /// Commands received, those ignored as malformed, and requests dropped
    /// because too many were waiting.
    private(set) var received = 0
    private(set) var ignored = 0
    private(set) var dropped = 0
    /// Commands the broker had kept (retained), ignored: commands are events.
    private(set) var retainedIgnored = 0
    private var ignoredReport = RateLimitedReport()
    private var droppedReport = RateLimitedReport()
    private var retainedReport = RateLimitedReport()
    /// Requests waiting to be carried out, one per turn of the loop, so a
    /// flood never holds the loop for more than one command at a time.
    private var inbox: [ControlRequest] = []
    public static let inboxLimit = 64

    /// The version the discovery configs report (deploy/VERSION; a test
    /// keeps the two equal).
    public static let version = "0.1.0"

    public init(config: MqttConfig, client: any MqttTransport, loop: any EventLoop, shell: Shell, service: ControlService, log: Logger) {
        self.config = config
        self.client = client
        self.shell = shell
        self.service = service
        self.log = log
        self.loop = loop
        group = config.groupTopic.map { MqttGroup(topic: $0, config: config, client: client, loop: loop, shell: shell, log: log) }
        serveTimer = loop.makeTimer { [weak self] in self?.serve() }
        client.onConnected = { [unowned self] in connected() }
        client.onDisconnected = { [unowned self] in group?.linked(false) }
        client.onMessage = { [unowned self] topic, payload, retained in
            if topic == commandTopic {
                if retained { refuseRetained(payload) } else { receive(payload) }
            } else if topic == config.groupTopic {
                group?.received(payload)
            }
        }
        shell.onGroupChange = { [unowned self] change in group?.send(change) }
        service.statusExtras.append { [unowned self] s in
            s["mqtt"] = client.status.merging(["received": received, "ignored": ignored, "retained_ignored": retainedIgnored, "dropped": dropped]) { a, _ in a }
            if let g = group?.status { s["group"] = g }
        }
    }

    private func now() -> Instant { loop.now().monotonic }

    /// Start connecting.
    public func start() { client.start() }

    private var commandTopic: String { "\(config.topicPrefix)/cmd" }

    private func connected() {
        client.subscribe(commandTopic)
        published = [:]
        client.publish("\(config.topicPrefix)/availability", Array("online".utf8))
        for (topic, payload) in HomeAssistant.configs(config, version: Self.version, programs: shell.core.settings.interval.programs.map(\.name)) {
            client.publish(topic, config.discovery ? JSONText.bytes(payload) : [])
        }
        publishState(force: true)
        group?.linked(true)
    }

    /// After each batch of outputs: send the topics whose value changed;
    /// the times go along with a display or state change, no more often.
    public func outputs(_ output: Machine.Output) {
        guard client.link == .connected else { return }
        // A change of mode or preset in ready may leave the display as it
        // was, but it is always persisted.
        let shown = output.items.contains {
            switch $0 {
            case .command(.render), .report(.stateChanged), .command(.buzzer), .command(.persist), .report(.round): true
            default: false
            }
        }
        guard shown else { return }
        client.measure { publishState(force: false) }
    }

    private func publishState(force: Bool) {
        let core = shell.core
        let progress = shell.progress()
        var values: [(String, String)] = [
            ("state", shell.state?.rawValue ?? "starting"),
            ("display", shell.frame?.text ?? ""),
            ("mode", core.settings.mode.rawValue),
            ("preset", core.presets.map { DurationText.format($0.current) } ?? ""),
            ("buzzer", shell.tone != nil ? "on" : "off"),
        ]
        if let name = progress.program { values.append(("program", name)) }
        if let r = progress.round { values.append(("round", "\(r.round)")) }
        let displayChanged = published["display"] != values[1].1 || published["state"] != values[0].1
        if force || displayChanged {
            values.append(("elapsed_ms", progress.elapsed.map { "\($0.nanoseconds / 1_000_000)" } ?? ""))
            values.append(("remaining_ms", progress.remaining.map { "\($0.nanoseconds / 1_000_000)" } ?? ""))
            // Only a box whose count-down is over (and once more to clear it).
            if progress.overrun != nil || published["overrun_ms"].map({ !$0.isEmpty }) == true {
                values.append(("overrun_ms", progress.overrun.map { "\($0.nanoseconds / 1_000_000)" } ?? ""))
            }
        }
        for (key, value) in values where force || published[key] != value {
            published[key] = value
            client.publish("\(config.topicPrefix)/\(key)", Array(value.utf8))
        }
    }

    /// A message on `<prefix>/cmd`: checked at once (size first: a 1 MB
    /// payload is dropped here, not copied) and kept for `serve()`.
    private func receive(_ payload: UnsafeRawBufferPointer) {
        received += 1
        guard payload.count <= ControlRequest.maxLine else {
            return malformed("\(payload.count) bytes, longer than \(ControlRequest.maxLine)")
        }
        let request: ControlRequest
        do { request = try ControlRequest.parse(Array(payload)) } catch { return malformed(error.description) }
        guard inbox.count < Self.inboxLimit else {
            dropped += 1
            if let more = droppedReport.due(at: now()) {
                log.warning("mqtt: dropped a command on \(commandTopic): \(Self.inboxLimit) were waiting\(more); at most one such line a minute")
            }
            return
        }
        inbox.append(request)
        serveTimer.schedule(at: now())
    }

    /// Carry out the oldest waiting request, one per turn of the loop (its
    /// timer comes back at once while more wait). A payload that was not a
    /// request got no reply: a flood must not become a flood of replies.
    private func serve() {
        guard !inbox.isEmpty else { return }
        let request = inbox.removeFirst()
        if !inbox.isEmpty { serveTimer.schedule(at: now()) }
        client.measure {
            let reply: [String: Any] = request == .watch
                ? ["ok": false, "error": "watch is for the control socket; subscribe to \(config.topicPrefix)/# instead"]
                : service.reply(to: request)
            client.publish("\(config.topicPrefix)/reply", JSONText.bytes(reply), retain: false)
        }
    }

    /// A command is an event: one the broker kept (published with the
    /// retain flag) would run again at every reconnect, so it never runs.
    private func refuseRetained(_ payload: UnsafeRawBufferPointer) {
        guard payload.count > 0 else { return }  // a retained command being cleared
        received += 1
        retainedIgnored += 1
        if let more = retainedReport.due(at: now()) {
            log.warning("mqtt: ignored a retained command on \(commandTopic): commands are not retained; clear it with mosquitto_pub -r -n -t \(commandTopic)\(more); at most one such line a minute")
        }
    }

    private func malformed(_ why: String) {
        ignored += 1
        if let more = ignoredReport.due(at: now()) {
            log.warning("mqtt: ignored a message on \(commandTopic): \(why)\(more); at most one such line a minute")
        }
    }

    public func close() {
        serveTimer.cancel()
        group?.close()
        client.measure { client.close() }
    }
}

/// A line logged at most once a minute, saying how many were held back.
struct RateLimitedReport {
    private var at: Instant?
    private var since = 0

    /// nil: stay quiet; else the line is due, with the count of the quiet ones.
    mutating func due(at t: Instant) -> String? {
        if let last = at, t < last + .seconds(60) {
            since += 1
            return nil
        }
        defer {
            at = t
            since = 0
        }
        return since > 0 ? " (and \(since) more in the last minute)" : ""
    }
}

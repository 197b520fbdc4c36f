import Logging
import TockConfig
import TockControl
import TockCore
import TockJSON
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
    private let service: any ControlResponder
    private let log: Logger
    private let loop: any EventLoop
    /// The next waiting request's turn.
    private var serveTimer: LoopTimer!
    let group: MqttGroup?
    /// The last value sent on each state topic and when; `flushTimer`
    /// sends what changed too soon after.
    private var published: MqttPublished
    private var flushTimer: LoopTimer!
    /// Everything held back for `flushTimer` follows the count's time: the
    /// flush rebuilds only those topics.
    private var flushClockOnly = true
    /// When the values held for `flushTimer` fall due: what its pass is
    /// dated by, however late it runs.
    private var flushDue: Instant?
    /// The alarm switches' names as announced to Home Assistant.
    private var announcedAlarms: [String] = []
    /// Commands received, those ignored as malformed, and requests dropped
    /// because too many were waiting.
    private(set) var received = 0
    private(set) var ignored = 0
    private(set) var dropped = 0
    /// Commands the broker had kept (retained), ignored: commands are events.
    private(set) var retainedIgnored = 0
    /// The lines a command can cause, each kind at most once a minute.
    private let ignoredLog: LimitedLog
    private let droppedLog: LimitedLog
    private let retainedLog: LimitedLog
    private let refusedLog: LimitedLog
    private let kinds: LimitedLogs
    /// Requests waiting to be carried out, one per turn of the loop, so a
    /// flood never holds the loop for more than one command at a time.
    private var inbox: [Inbound] = []
    /// A message waiting in `inbox`: a request from `<prefix>/cmd`, or one
    /// of the timer select's from `<prefix>/timer_cmd`.
    private enum Inbound {
        case request(ControlRequest)
        case timer(TimerPicker.Command)
    }
    /// The timer the select and its buttons act on, and the select's options.
    private var picker = TimerPicker()
    /// The turn that tells the selection once Home Assistant knows its name.
    private var pickerTimer: LoopTimer!
    public static let inboxLimit = 64
    /// What the daily update check found, for the update entity.
    private var update: UpdateCheck?

    /// The version the discovery configs report (deploy/VERSION; a test
    /// keeps the two equal).
    public static let version = "0.1.0"

    public init(config: MqttConfig, client: any MqttTransport, loop: any EventLoop, shell: Shell, service: any ControlResponder, log: Logger) {
        self.config = config
        published = MqttPublished(prefix: config.topicPrefix)
        self.client = client
        self.shell = shell
        self.service = service
        self.log = log
        self.loop = loop
        kinds = LimitedLogs(log: log, loop: loop)
        (ignoredLog, droppedLog, retainedLog, refusedLog) = (kinds.kind(), kinds.kind(), kinds.kind(), kinds.kind())
        group = config.groupTopic.map { MqttGroup(topic: $0, config: config, client: client, loop: loop, shell: shell, log: log) }
        serveTimer = loop.makeTimer { [weak self] in self?.serve() }
        pickerTimer = loop.makeTimer { [weak self] in
            guard let self, client.link == .connected else { return }
            client.measure { publishState(force: false) }
        }
        flushTimer = loop.makeTimer { [weak self] in
            guard let self, client.link == .connected else { return }
            client.measure { publishState(force: false, clockOnly: flushClockOnly, dated: flushDue) }
        }
        client.onConnected = { [unowned self] in connected() }
        client.onDisconnected = { [unowned self] in group?.linked(false) }
        client.onMessage = { [unowned self] topic, payload, retained in
            if topic == commandTopic || topic == timerCommandTopic {
                if retained { refuseRetained(payload, on: topic) } else { receive(payload, on: topic) }
            } else if topic == config.groupTopic {
                group?.received(payload, retained: retained)
            }
        }
        shell.observe { [weak self] change in
            guard let self else { return }
            if let g = change.group { group?.send(g) }
            outputs(change)
        }
        service.addStatusFields { [unowned self] s in
            let counts: JSONObject = ["received": received.json, "ignored": ignored.json, "retained_ignored": retainedIgnored.json,
                                      "dropped": dropped.json]
            s.mqtt = client.status.adding(counts)
            if let g = self.group?.status { s.group = g }
        }
    }

    private func now() -> Instant { loop.now().monotonic }

    /// Start connecting.
    public func start() { client.start() }

    private var commandTopic: String { "\(config.topicPrefix)/cmd" }
    private var timerCommandTopic: String { "\(config.topicPrefix)/\(HomeAssistant.timerCommandTopic)" }

    /// The extra timers in progress (running, paused, ringing), by name.
    private var timersInProgress: [String] { shell.core.timers.list.filter(\.isActive).map(\.name) }

    private func connected() {
        client.subscribe(commandTopic)
        client.subscribe(timerCommandTopic)
        published.forget()
        picker.follow(timersInProgress)
        picker.reannounce(timersInProgress, at: now())
        client.publish("\(config.topicPrefix)/availability", Array("online".utf8))
        // The state first: on a slow link it is what a dashboard and an
        // automation wait for; the discovery configs (about 16 KiB) follow,
        // and Home Assistant reads the retained state when they arrive.
        publishState(force: true)
        publishUpdate()
        announcedAlarms = MqttStateTopics.alarmNames(of: shell)
        for (topic, payload) in HomeAssistant.configs(config, version: Self.version, alarms: announcedAlarms, programs: programNames,
                                                      night: fileNight, timers: picker.options) {
            client.publish(topic, config.discovery ? JSON.object(payload).bytes() : [])
        }
        // Alarm switches of alarms removed while the link was down.
        for n in announcedAlarms.count + 1 ... DailyAlarm.maxCount {
            client.publish(HomeAssistant.alarmConfigTopic(config, n), [])
        }
        group?.linked(true)
    }

    /// The update check read again (`update-checked`): the update entity's
    /// state, when it changed.
    public func updateChecked(_ check: UpdateCheck?) {
        update = check
        guard client.link == .connected else { return }
        client.measure { publishUpdate() }
    }

    private func publishUpdate() {
        let value = HomeAssistant.updateState(update, running: Self.version)
        let i = published.slot(HomeAssistant.updateTopic)
        guard published[slot: i].value != value else { return }
        published[slot: i].value = value
        client.publish(published[slot: i].topic, Array(value.utf8))
    }

    /// After each batch of outputs: fire its events, and send the state
    /// topics whose value changed (each at most once a second).
    func outputs(_ change: BoxChange) {
        guard client.link == .connected, change.isVisible || !change.timersRang.isEmpty else { return }
        client.measure {
            // Each extra timer that reached zero, with its name (before the
            // early return: a ring is told even in a batch of digits).
            for name in change.timersRang {
                let payload = MqttStateTopics.timerFinished(name, duration: shell.core.timers.named(name)?.duration)
                client.publish("\(config.topicPrefix)/\(HomeAssistant.timerEventTopic)", Array(payload.utf8), retain: false)
            }
            // The digits going by change nothing but the topics that follow
            // the count's time; anything else rebuilds them all.
            if change.displayOnly { return publishState(force: false, clockOnly: true, dated: shell.dated) }
            var events = MqttStateTopics.events(in: change.output)
            let phase = MqttStateTopics.phase(of: shell)
            if let phase, let last = lastPhase, phase != last { events.append("phase_changed") }
            lastPhase = phase
            for event in events {
                client.publish("\(config.topicPrefix)/event", Array(event.utf8), retain: false)
            }
            announceAlarms()
            announceTimers()
            publishState(force: false, dated: shell.dated)
        }
    }

    /// The timer select follows the timers: the selection, and its options
    /// announced again when the names in progress change.
    private func announceTimers() {
        let names = timersInProgress
        picker.follow(names)
        guard picker.announce(names, at: now()), config.discovery else { return }
        let topic = HomeAssistant.timerSelectConfigTopic(config)
        if let c = HomeAssistant.configs(config, version: Self.version, timers: names).first(where: { $0.topic == topic }) {
            client.publish(topic, JSON.object(c.payload).bytes())
        }
    }

    /// The alarm switches follow the alarms: a new config when one is added
    /// or renamed, an empty one for each removed.
    private func announceAlarms() {
        let names = MqttStateTopics.alarmNames(of: shell)
        guard names != announcedAlarms, config.discovery else { return }
        let configs = HomeAssistant.configs(config, version: Self.version, alarms: names, programs: programNames, night: fileNight)
        for n in 0..<names.count where n >= announcedAlarms.count || names[n] != announcedAlarms[n] {
            let topic = HomeAssistant.alarmConfigTopic(config, n + 1)
            if let c = configs.first(where: { $0.topic == topic }) { client.publish(topic, JSON.object(c.payload).bytes()) }
        }
        for n in names.count..<max(names.count, announcedAlarms.count) {
            // The entity goes first, then its retained state.
            client.publish(HomeAssistant.alarmConfigTopic(config, n + 1), [])
            client.publish("\(config.topicPrefix)/alarm_\(n + 1)", [])
            published[slot: published.slot("alarm_\(n + 1)")].value = nil
        }
        announcedAlarms = names
    }

    /// A named program's phase at the last batch (work, rest).
    private var lastPhase: String?

    /// The configuration file's night schedule, which Home Assistant's
    /// night switch turns on.
    private var fileNight: NightSchedule? { shell.core.settings.display.night }

    /// The names of `interval.programs`, for Home Assistant's program select.
    private var programNames: [String] { shell.core.settings.interval.programs.map(\.name) }

    /// The least time between two values on one state topic: Home
    /// Assistant's recorder writes each one down.
    public static let minimumGap: Duration = .seconds(1)
    /// A value that falls due within this much of its second goes out now:
    /// a count's wake-ups land a little later or earlier in their second
    /// (microseconds on a quiet box, milliseconds under load), and one that
    /// came earlier than the last was held back for a second pass over
    /// every topic moments later. Two sends of a topic are never closer
    /// than `minimumGap - gapSlack`.
    public static let gapSlack: Duration = .milliseconds(50)

    /// One pass over the state topics. `dated`: the instant its values
    /// came into being (a batch's `Shell.dated`, a flush's due instant),
    /// by which each topic's gap is kept; a pass runs late under load, and
    /// dated by when it ran, the next second's value would be held back
    /// for a second pass, and the next, for as long as the lateness lasts.
    private func publishState(force: Bool, clockOnly: Bool = false, dated: Instant? = nil) {
        let t = now()
        let d = min(dated ?? t, t)
        var held: Instant?
        func offer(_ value: String, slot i: Int) {
            switch Self.offer(value, at: d, to: &published[slot: i], force: force) {
            case .unchanged: break
            case .heldUntil(let due): held = min(held ?? due, due)
            case .send: client.publishValue(published[slot: i].topic, value)
            }
        }
        if clockOnly {
            // The clock's topics are the first slots, in their order.
            for (i, value) in MqttStateTopics.clockValues(of: shell).enumerated() { offer(value, slot: i) }
        } else {
            var values = MqttStateTopics.values(of: shell)
            let selection = picker.shown(at: t, gap: Self.minimumGap)
            values.append((HomeAssistant.timerSelectedTopic, selection.value))
            if let due = selection.due { pickerTimer.schedule(at: due) }
            for (key, value) in values { offer(value, slot: published.slot(key)) }
        }
        if let held {
            // A full rebuild held something back: the flush is a full one.
            flushClockOnly = flushTimer.deadline == nil ? clockOnly : flushClockOnly && clockOnly
            flushDue = held
            flushTimer.schedule(at: held)
        }
    }

    private enum Offer { case unchanged, heldUntil(Instant), send }

    /// Whether a topic's new value goes now (noted as sent), waits for its
    /// gap (`minimumGap`, less `gapSlack`), or is what was sent.
    private static func offer(_ value: String, at t: Instant, to sent: inout MqttPublished.Sent, force: Bool) -> Offer {
        guard force || sent.value != value else { return .unchanged }
        if !force, let last = sent.at, t < last + minimumGap - gapSlack { return .heldUntil(last + minimumGap - gapSlack) }
        sent.value = value
        sent.at = t
        return .send
    }

    /// A message on `<prefix>/cmd` or `<prefix>/timer_cmd`: checked at once
    /// (size first: a 1 MB payload is dropped here, not copied) and kept
    /// for `serve()`.
    private func receive(_ payload: UnsafeRawBufferPointer, on topic: String) {
        received += 1
        guard payload.count <= ControlRequest.maxLine else {
            return malformed("\(payload.count) bytes, longer than \(ControlRequest.maxLine)", on: topic)
        }
        let message: Inbound
        if topic == commandTopic {
            do { message = .request(try ControlRequest.parse(Array(payload))) } catch { return malformed(error.description, on: topic) }
        } else {
            do { message = .timer(try TimerPicker.parse(Array(payload))) } catch { return malformed(error.description, on: topic) }
        }
        guard inbox.count < Self.inboxLimit else {
            dropped += 1
            droppedLog(.warning, "mqtt: dropped a command on \(topic): \(Self.inboxLimit) were waiting")
            return
        }
        inbox.append(message)
        serveTimer.schedule(at: now())
    }

    /// Carry out the oldest waiting request, one per turn of the loop (its
    /// timer comes back at once while more wait). A payload that was not a
    /// request got no reply: a flood must not become a flood of replies.
    private func serve() {
        guard !inbox.isEmpty else { return }
        let message = inbox.removeFirst()
        if !inbox.isEmpty { serveTimer.schedule(at: now()) }
        let request: ControlRequest
        switch message {
        case .request(let r): request = r
        case .timer(let command):
            switch picker.apply(command, inProgress: timersInProgress) {
            case .request(let r): request = r
            case .selected(let name):
                return client.measure {
                    var reply = service.reply(to: .status).json
                    reply[HomeAssistant.timerSelectedTopic] = .string(name)
                    client.publish("\(config.topicPrefix)/reply", JSON.object(reply).bytes(), retain: false)
                    publishState(force: false)
                }
            case .refused(let why):
                return client.measure {
                    client.publish("\(config.topicPrefix)/reply", ControlReply.refused(why).bytes, retain: false)
                    refused(command.description, why, on: timerCommandTopic)
                }
            }
        }
        client.measure {
            let reply: ControlReply = if case .watch = request {
                .refused("watch is for the control socket; subscribe to \(config.topicPrefix)/# instead")
            } else {
                service.reply(to: request)
            }
            client.publish("\(config.topicPrefix)/reply", reply.bytes, retain: false)
            if let error = reply.error { refused(request.line, error, on: commandTopic) }
        }
    }

    /// A request the box refused (a value it cannot take, a change its
    /// state does not allow): answered on `reply` as the socket answers,
    /// and logged, since nobody may be reading the replies.
    private func refused(_ request: String, _ why: String, on topic: String) {
        refusedLog(.notice, "mqtt: refused \(request) on \(topic): \(why)")
    }

    /// A command is an event: one the broker kept (published with the
    /// retain flag) would run again at every reconnect, so it never runs.
    private func refuseRetained(_ payload: UnsafeRawBufferPointer, on topic: String) {
        guard payload.count > 0 else { return }  // a retained command being cleared
        received += 1
        retainedIgnored += 1
        retainedLog(.warning, "mqtt: ignored a retained command on \(topic): commands are not retained; clear it with mosquitto_pub -r -n -t \(topic)")
    }

    private func malformed(_ why: String, on topic: String) {
        ignored += 1
        ignoredLog(.warning, "mqtt: ignored a message on \(topic): \(why)")
    }

    public func close() {
        kinds.close()
        serveTimer.cancel()
        flushTimer.cancel()
        pickerTimer.cancel()
        group?.close()
        client.measure { client.close() }
    }
}

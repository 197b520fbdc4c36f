import Foundation  // reading JSONSerialization's numbers
import TockCore

/// The appliance's status, one type for everyone who makes or reads it:
/// the box makes it (TockHost's `ControlService`), the control socket and
/// MQTT's reply topic send it, `tock` and `tock-web` read it back. Written
/// as JSON in one place (`object`), read from JSON in one place
/// (`init(_:)`); the keys are the protocol's (docs/install.md).
public struct BoxStatus: Sendable, Equatable {
    public var state: String
    /// The display's text, its segment bits (one number per digit: bit 0 is
    /// segment a ... bit 6 g, bit 7 the point) and the colon.
    public var display: String
    public var segments: [Int]?
    public var colon: Bool?
    public var buzzer: Bool
    public var mode: String
    /// A changed configuration file waits for the count in progress.
    public var configWaitsForReset = false
    /// Settings of the configuration file that apply at the next restart
    /// (the wiring, the display's digits): read by a reload, not yet in use.
    public var configWaitsForRestart: [String] = []
    /// A notice (the pairing code) is shown over the count.
    public var notice = false
    /// The notice up was revealed by Start held on the box (a pairing code
    /// someone standing there asked to see).
    public var noticeConfirmed = false
    public var switchPosition: String?
    public var brightness: Int?
    public var night: Night?
    /// The brightness the display has now (the night schedule's, at night).
    public var brightnessNow: Int?
    public var alarms: [Alarm] = []
    /// The extra timers, in the order they were added.
    public var timers: [Timer] = []
    /// A daily alarm ringing or snoozed, said for a person.
    public var alarm: String?
    /// The timer's and the stopwatch's preset, presets and direction.
    public var preset: String?
    public var presets: [String]?
    public var direction: String?
    public var elapsedMs: Int64?
    public var remainingMs: Int64?
    public var leadInMs: Int64?
    public var overrunMs: Int64?
    public var round: Int?
    public var set: Int?
    public var program: String?
    public var programs: [String]?
    /// A For Time program's finishing time, from its start.
    public var finishMs: Int64?
    /// Durable writes of the state file so far.
    public var stateWrites: Int?
    /// The MQTT link and the fleet group, as their clients report them.
    public var mqtt: JSONText.Object?
    public var group: JSONText.Object?
    /// The wall clock's health: synchronised or not, since when, its steps.
    public var clock: Clock?
    /// The daily alarms and the countdown to a date are on a wall clock
    /// that is not synchronised: their times are unverified.
    public var timeUnverified = false

    /// The ambient light sensor: its last reading, the level it asks for,
    /// and why it does not answer (docs/display.md).
    public var light: Light?
    /// What the daily update check found (docs/updates.md), once it ran.
    public var update: UpdateCheck?
    /// The box's host name (`kitchen`: the page's title and header) and
    /// its IPv4 addresses (loopback and link-local left out), when known.
    public var host: String?
    public var addresses: [String]?

    public struct Light: Sendable, Equatable {
        public var lux: Int?
        public var level: Int?
        public var problem: String?

        public init(lux: Int?, level: Int?, problem: String?) {
            self.lux = lux
            self.level = level
            self.problem = problem
        }

        var object: [String: Any] {
            var o: [String: Any] = [:]
            if let lux { o["lux"] = lux }
            if let level { o["level"] = level }
            if let problem { o["problem"] = problem }
            return o
        }

        init(_ o: [String: Any]) {
            self.init(lux: o["lux"] as? Int, level: o["level"] as? Int, problem: o["problem"] as? String)
        }
    }

    /// The wall clock as the box judges it (docs/clock.md).
    public struct Clock: Sendable, Equatable {
        /// The kernel reports it synchronised (adjtimex(2)).
        public var synchronised: Bool
        /// When it became synchronised (ISO 8601, UTC), or when the box
        /// started if it already was (`sinceStart`).
        public var since: String?
        public var sinceStart = false
        /// Steps seen since the start, and the last one (`forward by 2h1m5s`) and when.
        public var steps = 0
        public var lastStep: String?
        public var lastStepAt: String?
        /// The battery-backed RTC (`/dev/rtc0`), when there is one: its
        /// driver, how far it is from the system clock (whole seconds,
        /// positive: ahead), and why it cannot be read.
        public var rtc: RTC?

        public struct RTC: Sendable, Equatable {
            public var name: String
            public var driftS: Int?
            public var problem: String?
            public init(name: String, driftS: Int?, problem: String?) {
                self.name = name
                self.driftS = driftS
                self.problem = problem
            }
        }

        public init(synchronised: Bool) { self.synchronised = synchronised }

        var object: [String: Any] {
            var o: [String: Any] = ["synchronised": synchronised, "steps": steps]
            if let since { o["since"] = since }
            if sinceStart { o["since_start"] = true }
            if let lastStep { o["last_step"] = lastStep }
            if let lastStepAt { o["last_step_at"] = lastStepAt }
            if let rtc {
                var r: [String: Any] = ["name": rtc.name]
                if let d = rtc.driftS { r["drift_s"] = d }
                if let p = rtc.problem { r["problem"] = p }
                o["rtc"] = r
            }
            return o
        }

        init?(_ o: [String: Any]) {
            guard let synchronised = o["synchronised"] as? Bool else { return nil }
            self.synchronised = synchronised
            since = o["since"] as? String
            sinceStart = o["since_start"] as? Bool ?? false
            steps = o["steps"] as? Int ?? 0
            lastStep = o["last_step"] as? String
            lastStepAt = o["last_step_at"] as? String
            if let r = o["rtc"] as? [String: Any], let name = r["name"] as? String {
                rtc = RTC(name: name, driftS: r["drift_s"] as? Int, problem: r["problem"] as? String)
            }
        }
    }

    public struct Night: Sendable, Equatable {
        public var from: String
        public var to: String
        public var brightness: Int

        public init(from: String, to: String, brightness: Int) {
            self.from = from
            self.to = to
            self.brightness = brightness
        }
    }

    /// An extra timer: `{"name": "EGG", "label": " E99", "state": "running",
    /// "duration": "6m", "remaining_ms": 359000, "ends": "2026-…Z", "shown": true}`.
    public struct Timer: Sendable, Equatable {
        public var name: String
        /// As the display draws it.
        public var label: String
        /// running, paused, ringing or done.
        public var state: String
        public var duration: String
        public var remainingMs: Int64
        /// Its end (ISO 8601, UTC) while it runs.
        public var ends: String?
        /// The count on the display: the buttons act on it.
        public var shown: Bool

        public init(name: String, label: String, state: String, duration: String, remainingMs: Int64, ends: String?, shown: Bool) {
            (self.name, self.label, self.state, self.duration, self.remainingMs, self.ends, self.shown) = (name, label, state, duration, remainingMs, ends, shown)
        }

        var object: [String: Any] {
            var o: [String: Any] = ["name": name, "label": label, "state": state, "duration": duration, "remaining_ms": remainingMs, "shown": shown]
            if let ends { o["ends"] = ends }
            return o
        }

        init?(_ o: [String: Any]) {
            guard let name = o["name"] as? String, let state = o["state"] as? String else { return nil }
            self.init(name: name, label: o["label"] as? String ?? name, state: state, duration: o["duration"] as? String ?? "",
                      remainingMs: (o["remaining_ms"] as? Int).map(Int64.init) ?? 0, ends: o["ends"] as? String, shown: o["shown"] as? Bool ?? false)
        }
    }

    public struct Alarm: Sendable, Equatable {
        public var n: Int
        public var at: String
        public var days: String
        public var enabled: Bool
        public var label: String
        /// The alarm as `tock alarm list` prints it.
        public var line: String
        public var next: String?

        public init(n: Int, at: String, days: String, enabled: Bool, label: String, line: String, next: String?) {
            self.n = n
            self.at = at
            self.days = days
            self.enabled = enabled
            self.label = label
            self.line = line
            self.next = next
        }
    }

    public init(state: String, display: String, buzzer: Bool, mode: String) {
        self.state = state
        self.display = display
        self.buzzer = buzzer
        self.mode = mode
    }

    /// The display's frame: its text, segment bits and colon.
    public mutating func show(_ f: Frame) {
        display = f.text
        segments = (0..<f.digits).map { Int(f.segments(at: $0)) }
        colon = f.colon
    }

    /// A field as the protocol names it (`"switch"`, `"elapsed_ms"`).
    public subscript(key: String) -> Any? { object[key] }

    /// The status as the protocol's JSON object (with `"ok": true`).
    public var object: [String: Any] {
        var s: [String: Any] = ["ok": true, "state": state, "display": display, "buzzer": buzzer, "mode": mode]
        if configWaitsForReset { s["config_waits_for_reset"] = true }
        if !configWaitsForRestart.isEmpty { s["config_waits_for_restart"] = configWaitsForRestart }
        if let segments { s["segments"] = segments }
        if let colon { s["colon"] = colon }
        if notice { s["notice"] = true }
        if noticeConfirmed { s["notice_confirmed"] = true }
        if let switchPosition { s["switch"] = switchPosition }
        if let brightness { s["brightness"] = brightness }
        if let night { s["night"] = ["from": night.from, "to": night.to, "brightness": night.brightness] as [String: Any] }
        if let brightnessNow { s["brightness_now"] = brightnessNow }
        s["alarms"] = alarms.map { a -> [String: Any] in
            var o: [String: Any] = ["n": a.n, "at": a.at, "days": a.days, "enabled": a.enabled, "label": a.label, "line": a.line]
            if let next = a.next { o["next"] = next }
            return o
        }
        s["timers"] = timers.map(\.object)
        if let alarm { s["alarm"] = alarm }
        if let preset { s["preset"] = preset }
        if let presets { s["presets"] = presets }
        if let direction { s["direction"] = direction }
        if let elapsedMs { s["elapsed_ms"] = elapsedMs }
        if let remainingMs { s["remaining_ms"] = remainingMs }
        if let leadInMs { s["lead_in_ms"] = leadInMs }
        if let overrunMs { s["overrun_ms"] = overrunMs }
        if let round { s["round"] = round }
        if let set { s["set"] = set }
        if let program { s["program"] = program }
        if let programs { s["programs"] = programs }
        if let finishMs { s["finish_ms"] = finishMs }
        if let stateWrites { s["state_writes"] = stateWrites }
        if let mqtt { s["mqtt"] = mqtt.value }
        if let group { s["group"] = group.value }
        if let clock { s["clock"] = clock.object }
        if timeUnverified { s["time_unverified"] = true }
        if let light { s["light"] = light.object }
        if let update { s["update"] = update.fields }
        if let host { s["host"] = host }
        if let addresses { s["addresses"] = addresses }
        return s
    }

    /// A status read back from its JSON object; nil when it is not one
    /// (a refusal without a status, or a reply from something else). A
    /// field missing (an older box) reads as empty.
    public init?(_ o: [String: Any]) {
        guard let state = o["state"] as? String else { return nil }
        self.init(state: state, display: o["display"] as? String ?? "", buzzer: o["buzzer"] as? Bool ?? false, mode: o["mode"] as? String ?? "")
        func int(_ k: String) -> Int? { o[k] as? Int }
        func int64(_ k: String) -> Int64? { int(k).map(Int64.init) }
        configWaitsForReset = o["config_waits_for_reset"] as? Bool ?? false
        configWaitsForRestart = (o["config_waits_for_restart"] as? [Any])?.compactMap { $0 as? String } ?? []
        segments = (o["segments"] as? [Any])?.compactMap { $0 as? Int }
        colon = o["colon"] as? Bool
        notice = o["notice"] as? Bool ?? false
        noticeConfirmed = o["notice_confirmed"] as? Bool ?? false
        switchPosition = o["switch"] as? String
        brightness = int("brightness")
        if let n = o["night"] as? [String: Any], let from = n["from"] as? String, let to = n["to"] as? String,
           let b = n["brightness"] as? Int {
            night = Night(from: from, to: to, brightness: b)
        }
        brightnessNow = int("brightness_now")
        alarms = (o["alarms"] as? [[String: Any]] ?? []).compactMap { a in
            guard let n = a["n"] as? Int, let at = a["at"] as? String, let days = a["days"] as? String else { return nil }
            return Alarm(n: n, at: at, days: days, enabled: a["enabled"] as? Bool ?? true, label: a["label"] as? String ?? "",
                         line: a["line"] as? String ?? "", next: a["next"] as? String)
        }
        timers = (o["timers"] as? [[String: Any]] ?? []).compactMap(Timer.init)
        alarm = o["alarm"] as? String
        preset = o["preset"] as? String
        presets = o["presets"] as? [String]
        direction = o["direction"] as? String
        elapsedMs = int64("elapsed_ms")
        remainingMs = int64("remaining_ms")
        leadInMs = int64("lead_in_ms")
        overrunMs = int64("overrun_ms")
        round = int("round")
        set = int("set")
        program = o["program"] as? String
        programs = o["programs"] as? [String]
        finishMs = int64("finish_ms")
        stateWrites = int("state_writes")
        mqtt = (o["mqtt"] as? [String: Any]).map(JSONText.Object.init)
        group = (o["group"] as? [String: Any]).map(JSONText.Object.init)
        clock = (o["clock"] as? [String: Any]).flatMap(Clock.init)
        timeUnverified = o["time_unverified"] as? Bool ?? false
        light = (o["light"] as? [String: Any]).map(Light.init)
        update = (o["update"] as? [String: String]).flatMap(UpdateCheck.init(fields:))
        host = o["host"] as? String
        addresses = o["addresses"] as? [String]
    }
}

extension JSONText {
    /// A JSON object kept as it came: a link's status (the MQTT client's,
    /// the fleet group's), which the box reports as its client gives it.
    public struct Object: @unchecked Sendable, Equatable {
        public let value: [String: Any]

        public init(_ value: [String: Any]) { self.value = value }

        public subscript(key: String) -> Any? { value[key] }

        /// The same JSON (keys sorted): a number read from JSON (an
        /// NSNumber) equals the Int it was written from.
        public static func == (a: Object, b: Object) -> Bool { a.canonical == b.canonical }

        private var canonical: Data? { try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]) }
    }
}

/// A control request's reply: the status, or a refusal (with the status
/// when the box has one to give, as a press that changed nothing has).
public struct ControlReply: Sendable, Equatable {
    public var status: BoxStatus?
    /// Why the request was refused; nil when it was carried out.
    public var error: String?

    public init(status: BoxStatus?, error: String? = nil) {
        self.status = status
        self.error = error
    }

    public static func refused(_ why: String, status: BoxStatus? = nil) -> ControlReply { ControlReply(status: status, error: why) }

    public var ok: Bool { error == nil }

    /// A field as the protocol names it (`"ok"`, `"error"`, `"state"`).
    public subscript(key: String) -> Any? { object[key] }

    /// The reply as the protocol's JSON object.
    public var object: [String: Any] {
        var o = status?.object ?? [:]
        o["ok"] = ok
        if let error { o["error"] = error }
        return o
    }

    /// A reply read back from its JSON object; nil when it has no `ok`.
    public init?(_ o: [String: Any]) {
        guard let ok = o["ok"] as? Bool else { return nil }
        status = BoxStatus(o)
        error = ok ? nil : (o["error"] as? String ?? "refused")
    }
}

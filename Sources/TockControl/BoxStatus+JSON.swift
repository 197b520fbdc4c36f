import TockCore
import TockJSON

extension BoxStatus {
    public init(state: StateName?, display: String, buzzer: Bool, mode: Settings.Mode?) {
        self.state = state
        self.display = display
        self.buzzer = buzzer
        self.mode = mode
    }

    /// The state as the protocol writes it: the core's name, or `starting`.
    public var stateWord: String { state?.rawValue ?? "starting" }

    /// Every state word a status can carry (Home Assistant's sensor lists them).
    public static var stateWords: [String] { StateName.allCases.map(\.rawValue) + ["starting"] }

    /// The display's frame: its text, segment bits and colon.
    public mutating func show(_ f: Frame) {
        display = f.text
        segments = (0..<f.digits).map { Int(f.segments(at: $0)) }
        colon = f.colon
    }

    /// The status as the protocol's JSON object (with `"ok": true`).
    public var json: JSONObject {
        var s: JSONObject = ["ok": true, "state": .string(stateWord), "display": .string(display), "buzzer": .bool(buzzer)]
        s.set("mode", mode?.rawValue)
        if configWaitsForReset { s["config_waits_for_reset"] = true }
        if !configWaitsForRestart.isEmpty { s.set("config_waits_for_restart", configWaitsForRestart) }
        s.set("segments", segments)
        s.set("colon", colon)
        if notice { s["notice"] = true }
        if noticeConfirmed { s["notice_confirmed"] = true }
        s.set("switch", switchPosition?.rawValue)
        s.set("brightness", brightness)
        if let night { s["night"] = ["from": .string(night.from), "to": .string(night.to), "brightness": night.brightness.json] }
        s.set("brightness_now", brightnessNow)
        s["alarms"] = .array(alarms.map { a in
            var o: JSONObject = ["n": a.n.json, "at": .string(a.at), "days": .string(a.days), "enabled": .bool(a.enabled),
                                 "label": .string(a.label), "line": .string(a.line)]
            o.set("next", a.next)
            return .object(o)
        })
        s["timers"] = .array(timers.map(\.json))
        s.set("alarm", alarm)
        s.set("preset", preset)
        s.set("presets", presets)
        s.set("direction", direction?.rawValue)
        s.set("elapsed_ms", elapsedMs)
        s.set("remaining_ms", remainingMs)
        s.set("lead_in_ms", leadInMs)
        s.set("overrun_ms", overrunMs)
        s.set("round", round)
        s.set("set", set)
        s.set("program", program)
        s.set("programs", programs)
        s.set("finish_ms", finishMs)
        s.set("state_writes", stateWrites)
        s.set("mqtt", mqtt)
        s.set("group", group)
        s.set("clock", clock?.json)
        if timeUnverified { s["time_unverified"] = true }
        s.set("light", light?.json)
        s.set("update", update?.json)
        s.set("host", host)
        s.set("addresses", addresses)
        return s
    }

    /// A status read back from its JSON object; nil when it is not one
    /// (a refusal without a status, a reply from something else, or a state
    /// this build does not know). A field missing (an older box) reads as
    /// empty; a mode or a switch position this build does not know, as nil.
    public init?(_ o: JSONObject) {
        guard let word = o["state"]?.string else { return nil }
        let mode = o["mode"]?.string.flatMap(Settings.Mode.init(rawValue:))
        let state: StateName?
        if word == "starting" { state = nil } else {
            guard let named = StateName(rawValue: word) else { return nil }
            state = named
        }
        self.init(state: state, display: o["display"]?.string ?? "", buzzer: o["buzzer"]?.bool ?? false, mode: mode)
        func strings(_ k: String) -> [String]? {
            guard let a = o[k]?.array else { return nil }
            let s = a.compactMap(\.string)
            return s.count == a.count ? s : nil
        }
        configWaitsForReset = o["config_waits_for_reset"]?.bool ?? false
        configWaitsForRestart = strings("config_waits_for_restart") ?? []
        segments = o["segments"]?.array?.compactMap(\.int)
        colon = o["colon"]?.bool
        notice = o["notice"]?.bool ?? false
        noticeConfirmed = o["notice_confirmed"]?.bool ?? false
        switchPosition = o["switch"]?.string.flatMap(SwitchPosition.init(rawValue:))
        brightness = o["brightness"]?.int
        if let n = o["night"]?.object, let from = n["from"]?.string, let to = n["to"]?.string, let b = n["brightness"]?.int {
            night = Night(from: from, to: to, brightness: b)
        }
        brightnessNow = o["brightness_now"]?.int
        alarms = (o["alarms"]?.array ?? []).compactMap { v in
            guard let a = v.object, let n = a["n"]?.int, let at = a["at"]?.string, let days = a["days"]?.string else { return nil }
            return Alarm(n: n, at: at, days: days, enabled: a["enabled"]?.bool ?? true, label: a["label"]?.string ?? "",
                         line: a["line"]?.string ?? "", next: a["next"]?.string)
        }
        timers = (o["timers"]?.array ?? []).compactMap(Timer.init)
        alarm = o["alarm"]?.string
        preset = o["preset"]?.string
        presets = strings("presets")
        direction = o["direction"]?.string.flatMap(SwitchPosition.init(rawValue:))
        elapsedMs = o["elapsed_ms"]?.int64
        remainingMs = o["remaining_ms"]?.int64
        leadInMs = o["lead_in_ms"]?.int64
        overrunMs = o["overrun_ms"]?.int64
        round = o["round"]?.int
        set = o["set"]?.int
        program = o["program"]?.string
        programs = strings("programs")
        finishMs = o["finish_ms"]?.int64
        stateWrites = o["state_writes"]?.int
        mqtt = o["mqtt"]?.object
        group = o["group"]?.object
        clock = o["clock"]?.object.flatMap(Clock.init)
        timeUnverified = o["time_unverified"]?.bool ?? false
        light = o["light"]?.object.map(Light.init)
        update = o["update"]?.object.flatMap(UpdateCheck.init(json:))
        host = o["host"]?.string
        addresses = strings("addresses")
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

    /// The reply as the protocol's JSON object.
    public var json: JSONObject {
        var o = status?.json ?? JSONObject()
        o["ok"] = .bool(ok)
        o.set("error", error)
        return o
    }

    /// The reply as its line's text (no newline).
    public var bytes: [UInt8] { JSON.object(json).bytes() }

    /// A reply read back from its JSON object; nil when it has no `ok`.
    public init?(_ o: JSONObject) {
        guard let ok = o["ok"]?.bool else { return nil }
        status = BoxStatus(o)
        error = ok ? nil : (o["error"]?.string ?? "refused")
    }

    /// A reply read from its line; nil when the line is no reply.
    public init?(line: [UInt8]) {
        guard let o = try? JSON.object(line, limits: JSON.Limits(maxBytes: 1 << 20, maxDepth: 8)) else { return nil }
        self.init(o)
    }
}

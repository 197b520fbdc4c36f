#if canImport(TockCore)
import TockConfig  // `make fuzz` compiles the few files it needs into one module instead
import TockCore
import TockJSON
#endif

/// One request on the control socket: a JSON object on one line,
/// `{"cmd":"status"}`, `{"cmd":"set","duration":"12m30s"}`,
/// `{"cmd":"mode","mode":"stopwatch"}`, `{"cmd":"watch"}`; also `start`,
/// `stop`, `reset`. Anything else is refused with a reason; nothing a
/// client sends can disturb the timer.
public enum ControlRequest: Equatable, Sendable {
    case status, start, stop, reset
    /// `{"cmd":"silence"}`: what Start does on the box while something
    /// rings (the count silenced, the extra timer on the display silenced,
    /// a daily alarm dismissed), and a refusal when nothing rings: a press
    /// that comes late never starts or pauses a count (Home Assistant's
    /// *Silence* button).
    case silence
    /// `{"cmd":"watch"}`: the status, then every change as it happens;
    /// `{"cmd":"watch","fps":10}`: changes of the display alone at most
    /// `fps` times a second (the newest wins), for a viewer that cannot
    /// show a stopwatch's hundredths anyway. A change of state, the
    /// buzzer, the round or the switch is never held back.
    case watch(fps: Int?)
    case set(Duration)
    case mode(Settings.Mode)
    /// `{"cmd":"program","name":"tAbA"}`: select a named interval program.
    case program(String)
    /// `{"cmd":"alarm","op":"list"}`; `add` with `at`, `days`, `label`;
    /// `rm`, `on`, `off`, `skip-next` with `n` (from 1).
    case alarm(AlarmOp)
    /// `{"cmd":"timer","op":"add","name":"EGG","duration":"6m"}`; `list`;
    /// `pause`, `resume`, `cancel` with `name`: the extra timers.
    case timer(TimerOp)
    /// `{"cmd":"add","duration":"2m"}`, `{"cmd":"add","duration":"-1m","name":"EGG"}`:
    /// time added to a count in progress (negative: taken away); without
    /// `name` (or with `t1`) the box's own count, else the extra timer of
    /// that name.
    case add(Duration, name: String?)
    /// `{"cmd":"notice","text":"4821","seconds":60}`: show `text` on the
    /// display over what the timer shows, for `seconds` or until a button
    /// is pressed (the pairing code of the web page); `notice-end` takes it
    /// down. The timer goes on underneath.
    case notice(text: String, seconds: Int)
    /// `{"cmd":"notice","prompt":"HoLd","within":30,"text":"4821","seconds":120}`:
    /// show `prompt` for `within` seconds; only Start held on the box
    /// meanwhile shows `text`, for `seconds` (the status then says
    /// `notice_confirmed`). What pairing the web page waits for: a hand on
    /// the box.
    case prompt(prompt: String, within: Int, text: String, seconds: Int)
    case noticeEnd
    /// The daily update check has written its file (`UpdateCheck`): read
    /// it again. It carries nothing: the box reads its own file.
    case updateChecked
    /// `{"cmd":"switch","position":"up"}`: set the Up/Down switch, as if
    /// the lever had moved there (the lever's next move wins again).
    case flip(SwitchPosition)
    /// `{"cmd":"brightness","level":3}`: the display's brightness by day,
    /// 0-7; without `level`, the status (which has `brightness` and `night`).
    case brightness(Int?)
    /// `{"cmd":"night","from":"22:00","to":"07:00","brightness":1}`: the
    /// night schedule; `{"cmd":"night","off":true}` removes it; with only
    /// some of the three, `{"cmd":"night","from":"23:00"}`, those change in
    /// the schedule there is (Home Assistant's entities each send one);
    /// without fields, the status.
    case night(Night?)

    /// A night schedule: off, or from and to (seconds after local
    /// midnight, whole minutes) with its brightness; or a change to some of
    /// these in the schedule set (`nil`: kept as it is).
    public enum Night: Equatable, Sendable {
        case off
        case on(from: Int, to: Int, brightness: Int)
        case change(from: Int?, to: Int?, brightness: Int?)
    }

    public enum TimerOp: Equatable, Sendable {
        case list
        case add(name: String, duration: Duration)
        case pause(String), resume(String), cancel(String)
    }

    public enum AlarmOp: Equatable, Sendable {
        case list
        case add(DailyAlarm)
        case remove(Int), on(Int), off(Int), skipNext(Int)
    }

    /// Longest request line accepted, newline excluded.
    public static let maxLine = 1024
    /// The modes a request may name: every case of `Settings.Mode`.
    public static var modes: [String] { Settings.Mode.allCases.map(\.rawValue) }

    public struct Invalid: Error, Equatable, CustomStringConvertible {
        public var description: String
    }

    public static func parse(_ line: [UInt8]) throws(Invalid) -> ControlRequest {
        guard line.count <= maxLine else { throw Invalid(description: "request longer than \(maxLine) bytes") }
        let fields: JSONObject
        do { fields = try JSON.object(line, limits: JSON.Limits(maxBytes: maxLine, maxDepth: 1)) } catch {
            throw Invalid(description: "not a JSON object (\(error.description)); send e.g. {\"cmd\":\"status\"}")
        }
        return try parse(fields)
    }

    /// The request an object's fields make (the page's API builds them
    /// from its routes and bodies: no text between).
    public static func parse(_ fields: JSONObject) throws(Invalid) -> ControlRequest {
        if let nested = fields.first(where: { $0.value.array != nil || $0.value.object != nil }) {
            throw Invalid(description: "\"\(nested.key.prefix(32))\" is \(nested.value.kind): a request's fields are plain values")
        }
        guard let cmd = fields["cmd"]?.string else { throw Invalid(description: "no \"cmd\" string") }
        func only(_ allowed: Set<String>) throws(Invalid) {
            if let extra = fields.keys.first(where: { !allowed.contains($0) }) {
                throw Invalid(description: "unknown field \"\(extra)\" for \(cmd)")
            }
        }
        switch cmd {
        case "status": try only(["cmd"]); return .status
        case "start": try only(["cmd"]); return .start
        case "stop": try only(["cmd"]); return .stop
        case "reset": try only(["cmd"]); return .reset
        case "silence": try only(["cmd"]); return .silence
        case "watch":
            try only(["cmd", "fps"])
            guard let value = fields["fps"] else { return .watch(fps: nil) }
            guard let fps = value.int, (1...100).contains(fps) else { throw Invalid(description: "watch: \"fps\" is a whole number from 1 to 100") }
            return .watch(fps: fps)
        case "set":
            try only(["cmd", "duration"])
            guard let text = fields["duration"]?.string else { throw Invalid(description: "set needs \"duration\", e.g. \"12m30s\"") }
            do { return .set(try DurationText.parse(text)) } catch { throw Invalid(description: error.description) }
        case "mode":
            try only(["cmd", "mode"])
            guard let m = fields["mode"]?.string.flatMap(Settings.Mode.init(rawValue:)) else {
                throw Invalid(description: "mode needs \"mode\": one of \(modes.joined(separator: ", "))")
            }
            return .mode(m)
        case "program":
            try only(["cmd", "name"])
            guard let name = fields["name"]?.string, !name.isEmpty, name.count <= 16 else {
                throw Invalid(description: "program needs \"name\": a name from interval.programs")
            }
            return .program(name)
        case "alarm":
            return .alarm(try alarmOp(fields))
        case "timer":
            return .timer(try timerOp(fields))
        case "add":
            try only(["cmd", "duration", "name"])
            guard let text = fields["duration"]?.string else {
                throw Invalid(description: "add needs \"duration\": how much, e.g. \"1m\", or \"-1m\" to take a minute away")
            }
            let d: Duration
            do { d = try DurationText.parseSigned(text) } catch { throw Invalid(description: "add duration: \(error.description)") }
            guard let name = fields["name"] else { return .add(d, name: nil) }
            guard let n = name.string, !n.isEmpty, n.count <= maxTimerName else {
                throw Invalid(description: "add \"name\" is a count's name: t1 for the box's own, or an extra timer's (e.g. \"EGG\")")
            }
            return .add(d, name: n)
        case "notice":
            try only(["cmd", "text", "seconds", "prompt", "within"])
            func shown(_ key: String, _ example: String) throws(Invalid) -> String {
                guard let text = fields[key]?.string, !text.isEmpty, text.count <= 8,
                      text.allSatisfy({ $0 == "." || $0 == ":" || SevenSegmentFont.glyphs[$0] != nil }) else {
                    throw Invalid(description: "notice needs \"\(key)\": up to 8 characters the display can show, e.g. \"\(example)\"")
                }
                return text
            }
            func seconds(_ key: String, _ what: String) throws(Invalid) -> Int {
                guard let seconds = fields[key]?.int, (1...300).contains(seconds) else {
                    throw Invalid(description: "notice needs \"\(key)\": \(what), 1-300")
                }
                return seconds
            }
            let text = try shown("text", "4821"), lasts = try seconds("seconds", "how long to show it")
            guard fields["prompt"] != nil || fields["within"] != nil else { return .notice(text: text, seconds: lasts) }
            return .prompt(prompt: try shown("prompt", "HoLd"), within: try seconds("within", "how long the prompt waits for Start to be held"),
                           text: text, seconds: lasts)
        case "notice-end":
            try only(["cmd"])
            return .noticeEnd
        case "update-checked":
            try only(["cmd"])
            return .updateChecked
        case "switch":
            try only(["cmd", "position"])
            guard let p = fields["position"]?.string, let position = SwitchPosition(rawValue: p) else {
                throw Invalid(description: "switch needs \"position\": \"up\" or \"down\"")
            }
            return .flip(position)
        case "brightness":
            try only(["cmd", "level"])
            guard let v = fields["level"] else { return .brightness(nil) }
            return .brightness(try level(v, "brightness needs \"level\""))
        case "night":
            return .night(try night(fields))
        default:
            throw Invalid(description: "unknown cmd \"\(cmd)\"; use status, start, stop, reset, silence, set, add, mode, program, alarm, timer, switch, brightness, night, notice, notice-end or watch")
        }
    }

    /// A brightness: a whole number 0 (dimmest lit) to 7.
    private static func level(_ v: JSON, _ what: String) throws(Invalid) -> Int {
        guard let n = v.int, (0...7).contains(n) else {
            throw Invalid(description: "\(what): a whole number from 0 (dimmest lit) to 7 (brightest)")
        }
        return n
    }

    private static func night(_ f: JSONObject) throws(Invalid) -> Night? {
        if let extra = f.keys.sorted().first(where: { !["cmd", "from", "to", "brightness", "off"].contains($0) }) {
            throw Invalid(description: "unknown field \"\(extra.prefix(32))\" for night")
        }
        if let off = f["off"] {
            guard off == .bool(true), f.count == 2 else {
                throw Invalid(description: "night \"off\" is true, alone: {\"cmd\":\"night\",\"off\":true}")
            }
            return .off
        }
        guard f.count > 1 else { return nil }
        func clock(_ key: String) throws(Invalid) -> Int? {
            guard let v = f[key] else { return nil }
            guard let text = v.string else { throw Invalid(description: "night \"\(key)\" is a time of day such as \"22:00\"") }
            do { return try DailyAlarm.parseTime(text) * 60 } catch { throw Invalid(description: "night \(key): \(error.description)") }
        }
        let from = try clock("from"), to = try clock("to")
        if let from, let to, from == to {
            throw Invalid(description: "night from and to are the same time; send {\"cmd\":\"night\",\"off\":true} for none")
        }
        var b: Int?
        if let v = f["brightness"] { b = try level(v, "night \"brightness\"") }
        if let from, let to, let b { return .on(from: from, to: to, brightness: b) }
        return .change(from: from, to: to, brightness: b)
    }

    /// The longest timer name a request may carry (the display then says
    /// whether it can draw it).
    public static let maxTimerName = 16

    private static func timerOp(_ f: JSONObject) throws(Invalid) -> TimerOp {
        let ops = ["list", "add", "pause", "resume", "cancel"]
        guard let op = f["op"]?.string, ops.contains(op) else {
            throw Invalid(description: "timer needs \"op\": one of \(ops.joined(separator: ", "))")
        }
        let allowed: Set<String> = op == "list" ? ["cmd", "op"] : op == "add" ? ["cmd", "op", "name", "duration"] : ["cmd", "op", "name"]
        if let extra = f.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw Invalid(description: "unknown field \"\(extra.prefix(32))\" for timer \(op)")
        }
        if op == "list" { return .list }
        guard let name = f["name"]?.string, !name.isEmpty, name.count <= maxTimerName else {
            throw Invalid(description: "timer \(op) needs \"name\": the timer's name (at most the display's digits, e.g. \"EGG\")")
        }
        switch op {
        case "add":
            guard let text = f["duration"]?.string else { throw Invalid(description: "timer add needs \"duration\", e.g. \"6m\" or \"1h30m\"") }
            do { return .add(name: name, duration: try DurationText.parse(text)) } catch {
                throw Invalid(description: "timer add duration: \(error.description)")
            }
        case "pause": return .pause(name)
        case "resume": return .resume(name)
        default: return .cancel(name)
        }
    }

    private static func alarmOp(_ f: JSONObject) throws(Invalid) -> AlarmOp {
        let ops = ["list", "add", "rm", "on", "off", "skip-next"]
        guard let op = f["op"]?.string, ops.contains(op) else {
            throw Invalid(description: "alarm needs \"op\": one of \(ops.joined(separator: ", "))")
        }
        let allowed: Set<String> = op == "list" ? ["cmd", "op"] : op == "add" ? ["cmd", "op", "at", "days", "label"] : ["cmd", "op", "n"]
        if let extra = f.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw Invalid(description: "unknown field \"\(extra)\" for alarm \(op)")
        }
        if op == "list" { return .list }
        if op == "add" {
            guard let at = f["at"]?.string else { throw Invalid(description: "alarm add needs \"at\", e.g. \"06:45\"") }
            do {
                var a = DailyAlarm(minute: try DailyAlarm.parseTime(at))
                if let days = f["days"]?.string { a.days = try DailyAlarm.parseDays([days]) } else if f["days"] != nil {
                    throw DailyAlarm.Invalid("\"days\" is a string such as \"mon-fri\"")
                }
                if let label = f["label"]?.string { a.label = try DailyAlarm.parseLabel(label) } else if f["label"] != nil {
                    throw DailyAlarm.Invalid("\"label\" is a string of at most \(DailyAlarm.maxLabel) printable characters")
                }
                return .add(a)
            } catch let e as DailyAlarm.Invalid { throw Invalid(description: e.description) } catch { throw Invalid(description: "\(error)") }
        }
        guard let n = f["n"]?.int, (1...DailyAlarm.maxCount).contains(n) else {
            throw Invalid(description: "alarm \(op) needs \"n\", the alarm's number from tock alarm list (1-\(DailyAlarm.maxCount))")
        }
        switch op {
        case "rm": return .remove(n)
        case "on": return .on(n)
        case "off": return .off(n)
        default: return .skipNext(n)
        }
    }

    /// The request as a line, for the client.
    public var line: String {
        switch self {
        case .status: #"{"cmd":"status"}"#
        case .start: #"{"cmd":"start"}"#
        case .stop: #"{"cmd":"stop"}"#
        case .reset: #"{"cmd":"reset"}"#
        case .silence: #"{"cmd":"silence"}"#
        case .watch(nil): #"{"cmd":"watch"}"#
        case .watch(let fps?): #"{"cmd":"watch","fps":\#(fps)}"#
        case .set(let d): #"{"cmd":"set","duration":"\#(DurationText.format(d))"}"#
        case .add(let d, let name):
            #"{"cmd":"add","duration":"\#(d < .zero ? "-" : "")\#(DurationText.format(d < .zero ? .zero - d : d))""#
                + (name.map { #","name":\#(Self.quoted($0))"# } ?? "") + "}"
        case .mode(let m): #"{"cmd":"mode","mode":"\#(m.rawValue)"}"#
        case .program(let n): #"{"cmd":"program","name":\#(Self.quoted(n))}"#
        case .notice(let text, let seconds): #"{"cmd":"notice","text":\#(Self.quoted(text)),"seconds":\#(seconds)}"#
        case .prompt(let prompt, let within, let text, let seconds):
            #"{"cmd":"notice","prompt":\#(Self.quoted(prompt)),"within":\#(within),"text":\#(Self.quoted(text)),"seconds":\#(seconds)}"#
        case .noticeEnd: #"{"cmd":"notice-end"}"#
        case .updateChecked: #"{"cmd":"update-checked"}"#
        case .flip(let p): #"{"cmd":"switch","position":"\#(p.rawValue)"}"#
        case .brightness(nil): #"{"cmd":"brightness"}"#
        case .brightness(let n?): #"{"cmd":"brightness","level":\#(n)}"#
        case .night(nil): #"{"cmd":"night"}"#
        case .night(.off?): #"{"cmd":"night","off":true}"#
        case .night(.on(let from, let to, let b)?):
            #"{"cmd":"night","from":"\#(Self.clock(from))","to":"\#(Self.clock(to))","brightness":\#(b)}"#
        case .night(.change(let from, let to, let b)?):
            "{\"cmd\":\"night\"" + (from.map { #","from":"\#(Self.clock($0))""# } ?? "")
                + (to.map { #","to":"\#(Self.clock($0))""# } ?? "") + (b.map { #","brightness":\#($0)"# } ?? "") + "}"
        case .timer(let op):
            switch op {
            case .list: #"{"cmd":"timer","op":"list"}"#
            case .add(let name, let d): #"{"cmd":"timer","op":"add","name":\#(Self.quoted(name)),"duration":"\#(DurationText.format(d))"}"#
            case .pause(let name): #"{"cmd":"timer","op":"pause","name":\#(Self.quoted(name))}"#
            case .resume(let name): #"{"cmd":"timer","op":"resume","name":\#(Self.quoted(name))}"#
            case .cancel(let name): #"{"cmd":"timer","op":"cancel","name":\#(Self.quoted(name))}"#
            }
        case .alarm(let op):
            switch op {
            case .list: #"{"cmd":"alarm","op":"list"}"#
            case .add(let a): #"{"cmd":"alarm","op":"add","at":"\#(a.timeText)","days":"\#(a.daysText)","label":\#(Self.quoted(a.label))}"#
            case .remove(let n): #"{"cmd":"alarm","op":"rm","n":\#(n)}"#
            case .on(let n): #"{"cmd":"alarm","op":"on","n":\#(n)}"#
            case .off(let n): #"{"cmd":"alarm","op":"off","n":\#(n)}"#
            case .skipNext(let n): #"{"cmd":"alarm","op":"skip-next","n":\#(n)}"#
            }
        }
    }

    /// Seconds after midnight as `HH:MM`.
    public static func clock(_ seconds: Int) -> String {
        let h = seconds / 3600, m = seconds / 60 % 60
        return "\(h < 10 ? "0" : "")\(h):\(m < 10 ? "0" : "")\(m)"
    }

    /// A JSON string literal.
    public static func quoted(_ s: String) -> String { JSON.quoted(s) }
}

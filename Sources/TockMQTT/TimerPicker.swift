import TockConfig
import TockControl
import TockCore
import TockJSON

/// Home Assistant's *Timer* select and the buttons that act on the timer
/// it selects (*Pause timer*, *Resume timer*, *Cancel timer*, *+1 min
/// timer*), on `<prefix>/timer_cmd`: `{"op":"select","name":"EGG"}`,
/// `{"op":"pause"}`, `{"op":"resume"}`, `{"op":"cancel"}`,
/// `{"op":"add","duration":"1m"}` (`"-1m"` takes a minute away).
///
/// Home Assistant's own actions (`select.select_option`, `button.press`)
/// are open to every user of a household, where `mqtt.publish` is for its
/// administrators only; a button's payload is fixed, so the name it acts
/// on is the box's: the one selected here. The selection is the bridge's
/// (the panel and the control socket name their timer), and it follows the
/// timers: kept while its timer is in progress (running, paused or
/// ringing), else the first in progress in the order they were added.
struct TimerPicker: Equatable {
    enum Command: Equatable {
        case select(String)
        case pause, resume, cancel
        /// Time added to the selected timer (negative: taken away).
        case add(Duration)
    }

    /// What a command comes to: a new selection, a request for the box
    /// (the same one `tock timer pause EGG` sends), or why not.
    enum Outcome: Equatable {
        case selected(String)
        case request(ControlRequest)
        case refused(String)
    }

    /// Why a payload is not a command.
    struct Invalid: Error, Equatable, CustomStringConvertible {
        var description: String
    }

    private(set) var selected: String?
    /// The select's options as Home Assistant was last given them, and
    /// when each name first came in them.
    private(set) var options: [String] = []
    private var since: [String: Instant] = [:]

    /// The payload as a command, or why it is none (the same limits as the
    /// command topic: 1024 bytes, one flat JSON object, no unknown field).
    static func parse(_ bytes: [UInt8]) throws(Invalid) -> Command {
        guard bytes.count <= ControlRequest.maxLine else {
            throw .init(description: "\(bytes.count) bytes, longer than \(ControlRequest.maxLine)")
        }
        let f: JSONObject
        do { f = try JSON.object(bytes, limits: JSON.Limits(maxBytes: ControlRequest.maxLine, maxDepth: 1)) } catch {
            throw .init(description: #"not a JSON object (\#(error.description)); send e.g. {"op":"pause"}"#)
        }
        let ops = ["select", "pause", "resume", "cancel", "add"]
        guard let op = f["op"]?.string, ops.contains(op) else {
            throw .init(description: "no \"op\": one of \(ops.joined(separator: ", "))")
        }
        let allowed: Set<String> = op == "select" ? ["op", "name"] : op == "add" ? ["op", "duration"] : ["op"]
        if let extra = f.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw .init(description: "unknown field \"\(extra.prefix(32))\" for \(op)")
        }
        switch op {
        case "select":
            guard let name = f["name"]?.string, !name.isEmpty, name.count <= ControlRequest.maxTimerName else {
                throw .init(description: "select needs \"name\": a timer in progress (at most \(ControlRequest.maxTimerName) characters)")
            }
            return .select(name)
        case "add":
            guard let text = f["duration"]?.string else {
                throw .init(description: #"add needs "duration": how much, e.g. "1m", or "-1m" to take a minute away"#)
            }
            do { return .add(try DurationText.parseSigned(text)) } catch {
                throw .init(description: "add duration: \(error.description)")
            }
        case "pause": return .pause
        case "resume": return .resume
        default: return .cancel
        }
    }

    /// The selection kept while its timer is in progress, else the first
    /// one in progress (none when none is). `inProgress`: their names, in
    /// the order they were added.
    mutating func follow(_ inProgress: [String]) {
        if let s = selected, inProgress.contains(s) { return }
        selected = inProgress.first
    }

    /// The names in progress at `t` as the select's options: true when they
    /// changed, and the select's config is to be announced again.
    mutating func announce(_ names: [String], at t: Instant) -> Bool {
        guard names != options else { return false }
        since = Dictionary(uniqueKeysWithValues: names.map { ($0, since[$0] ?? t) })
        options = names
        return true
    }

    /// On (re)connecting: Home Assistant may hold older options, so every
    /// name is new again.
    mutating func reannounce(_ names: [String], at t: Instant) {
        options = names
        since = Dictionary(uniqueKeysWithValues: names.map { ($0, t) })
    }

    /// What `<prefix>/timer_selected` says at `t`: the selection once the
    /// options that hold it have been out for `gap`, else `None`, with the
    /// instant it may say the name. Home Assistant applies a changed config
    /// in a task of its own, after the messages that arrived with it: a
    /// name it does not know yet is logged as an invalid option and lost.
    func shown(at t: Instant, gap: Duration) -> (value: String, due: Instant?) {
        guard let s = selected, let first = since[s] else { return ("None", nil) }
        return first + gap <= t ? (s, nil) : ("None", first + gap)
    }

    /// Carry out `command` on the timers in progress now.
    mutating func apply(_ command: Command, inProgress: [String]) -> Outcome {
        follow(inProgress)
        switch command {
        case .select(let name):
            guard inProgress.contains(name) else { return .refused(Self.notInProgress(name, inProgress)) }
            selected = name
            return .selected(name)
        case .add(let d):
            guard let name = selected else {
                return .refused("no timer is in progress to add time to; add one first (Add timer, or tock timer add NAME DURATION)")
            }
            // The control socket's request, with the name: the same checks
            // and refusals as `tock add 1m EGG`.
            return .request(.add(d, name: name))
        case .pause, .resume, .cancel:
            guard let name = selected else {
                return .refused("no timer is in progress to \(command); add one first (Add timer, or tock timer add NAME DURATION)")
            }
            let op: ControlRequest.TimerOp = switch command {
            case .pause: .pause(name)
            case .resume: .resume(name)
            default: .cancel(name)
            }
            return .request(.timer(op))
        }
    }

    /// The refusal of a name that is not (or no longer) in progress: the
    /// name as JSON quotes it (whatever signs it has), and those there are.
    static func notInProgress(_ name: String, _ inProgress: [String]) -> String {
        let quoted = JSON.quoted(String(name.prefix(32)))
        let now = inProgress.isEmpty ? "none is" : "in progress: \(inProgress.joined(separator: ", "))"
        return "no timer named \(quoted) is in progress (\(now)); the selection stays as it was"
    }
}

extension TimerPicker.Command: CustomStringConvertible {
    var description: String {
        switch self {
        case .select(let name): "select \(JSON.quoted(String(name.prefix(32))))"
        case .pause: "pause"
        case .resume: "resume"
        case .cancel: "cancel"
        case .add(let d): "add \(AddTime.text(d))"
        }
    }
}

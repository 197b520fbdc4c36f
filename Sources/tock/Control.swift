import ArgumentParser
import Glibc
import TockHost
import TockConfig
import TockControl
import TockCore
import TockJSON
import TockLinux

/// A refusal or failure to report as `Error: ...` on stderr with its exit
/// status (ArgumentParser prints usage only for mistakes on the command
/// line, with status 64).
struct Failure: Error, CustomStringConvertible {
    /// The exit statuses of the commands that talk to the service, from
    /// sysexits.h where one fits; `tock --help` lists them.
    enum Exit: Int32 {
        /// The service refused the request (its reason is the message), or
        /// another failure.
        case refused = 1
        /// EX_UNAVAILABLE: no socket, or nothing listening on it.
        case unreachable = 69
        /// EX_IOERR: the service closed the connection.
        case closed = 74
        /// EX_TEMPFAIL: no complete reply within --timeout.
        case timedOut = 75
        /// EX_PROTOCOL: a reply too long or not JSON.
        case badReply = 76
        /// EX_NOPERM: not allowed to use the socket.
        case noPermission = 77
    }

    var description: String
    var exit: Exit
    init(_ d: String, exit: Exit = .refused) { description = d; self.exit = exit }
}

/// Where a running tock listens unless told otherwise: the service's, or
/// the simulator's when only that runs here.
let defaultSocket = ControlSocketPath.forClient()

struct SocketOption: ParsableArguments {
    @Option(help: "The control socket of a running tock (default $TOCK_SOCKET, else /run/tock/control.sock, else the simulator's).")
    var socket: String = defaultSocket

    @Option(help: "How long to wait for the service to take a request and reply (watch: to finish a line it began).")
    var timeout: String = "5s"

    var timeoutDuration: Duration { (try? DurationText.parse(timeout)) ?? .seconds(5) }

    func validate() throws {
        let d: Duration
        do { d = try DurationText.parse(timeout) } catch { throw ValidationError("--timeout: \(error.description)") }
        guard d >= .milliseconds(1) else { throw ValidationError("--timeout: at least 1ms") }
    }
}

/// Send one request and return the reply line (or every line, for watch:
/// `each` is called with each line until it returns false; after the
/// first, lines are events and may be as far apart as they like).
func send(_ request: ControlRequest, socket: SocketOption, each: ((String) throws -> Bool)? = nil) throws -> String {
    let client = try ControlClient(socket: socket.socket, timeout: socket.timeoutDuration)
    try client.send(request)
    var line = try client.line()
    guard let each else { return line }
    while try each(line) {
        line = try client.line(patient: true)
    }
    return line
}

/// A reply line read: the status, or the refusal as a failure.
func readReply(_ line: String) throws -> ControlReply {
    guard let reply = ControlReply(line: Array(line.utf8)) else {
        throw Failure("unreadable reply: \(line)", exit: .badReply)
    }
    return reply
}

/// The status of a reply carried out; a refusal is a failure with its reason.
func readStatus(_ line: String) throws -> BoxStatus {
    let reply = try readReply(line)
    if let error = reply.error { throw Failure(error) }
    guard let status = reply.status else { throw Failure("unreadable reply: \(line)", exit: .badReply) }
    return status
}

/// Print a reply: the JSON itself, or a line for a person.
func show(_ line: String, json: Bool) throws {
    if json {
        _ = try readReply(line)
        print(line)
        return
    }
    print(summary(try readStatus(line)))
}

/// A snapshot as a line for a person: state, display, mode, preset, switch
/// and what else is going on.
func summary(_ s: BoxStatus) -> String {
    var parts = [s.stateWord, "display \"\(s.display)\""]
    if let mode = s.mode { parts.append("mode \(mode.rawValue)") }
    if let p = s.preset { parts.append("preset \(p)") }
    // The lever (or a flip from the page) and the way the count goes: the
    // same but while a count keeps the direction it started with.
    if let sw = s.switchPosition ?? s.direction { parts.append("switch \(sw.rawValue)") }
    if let lever = s.switchPosition, let direction = s.direction, lever != direction { parts.append("counting \(direction.rawValue)") }
    if let p = s.program { parts.append("program \(p)") }
    if let r = s.round { parts.append(s.set.map { "set \($0) round \(r)" } ?? "round \(r)") }
    if let l = s.leadInMs { parts.append("lead-in \((l + 999) / 1000)s") }
    if let o = s.overrunMs { parts.append("over by \(o / 1000)s") }
    if s.buzzer { parts.append("buzzer on") }
    if let a = s.alarm { parts.append("alarm \(a)") }
    let timers = s.timers.filter { $0.state != .done }
    if !timers.isEmpty {
        parts.append("timers " + timers.map { "\($0.name) \($0.state == .running ? "\(($0.remainingMs + 999) / 1000)s" : $0.state.rawValue)" }.joined(separator: ", "))
    }
    if let p = s.light?.problem { parts.append("light sensor: \(p)") }
    if let p = s.clock?.rtc?.problem { parts.append("rtc: \(p)") }
    if s.clock?.synchronised == false {
        parts.append(s.timeUnverified ? "clock not synchronised (alarm and countdown times unverified)" : "clock not synchronised")
    }
    if let link = s.mqtt?["link"]?.string { parts.append("mqtt \(link)") }
    // What the daily update check found, unless it is "up to date".
    if let u = s.update, u.result != .current { parts.append(u.line) }
    if let a = s.addresses { parts.append(a.isEmpty ? "no IPv4 address" : "address \(a.joined(separator: ", "))") }
    if let g = s.group, let name = g["name"]?.string {
        parts.append((g["pending"]?.int ?? 0) > 0 ? "group \(name) (a press on its way)" : "group \(name)")
    }
    return parts.joined(separator: ", ")
}

/// An event as `key=value` pairs in key order; a list or an object as
/// compact JSON, so that every event is one readable line; a boolean as
/// `1` or `0` (`buzzer=1`), as these lines have always said it.
func eventText(_ obj: JSONObject) -> String {
    obj.fields.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.map { key, value in
        let text = switch value {
        case .string(let s): s
        case .bool(let b): b ? "1" : "0"
        default: value.text()
        }
        return "\(key)=\(text)"
    }.joined(separator: " ")
}

struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "status", abstract: "Show the running appliance's state.")
    @OptionGroup var socket: SocketOption
    @Flag(help: "Print the raw JSON reply.") var json = false
    func run() throws { try show(try send(.status, socket: socket), json: json) }
}

struct Start: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "start", abstract: "Press Start.")
    @OptionGroup var socket: SocketOption
    func run() throws { try show(try send(.start, socket: socket), json: false) }
}

struct Stop: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "stop", abstract: "Press Stop.")
    @OptionGroup var socket: SocketOption
    func run() throws { try show(try send(.stop, socket: socket), json: false) }
}

struct Reset: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "reset", abstract: "Press Reset.")
    @OptionGroup var socket: SocketOption
    func run() throws { try show(try send(.reset, socket: socket), json: false) }
}

struct Silence: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "silence",
        abstract: "Silence whatever rings (the count, an extra timer, a daily alarm); refused when nothing rings, so it never starts or pauses a count.")
    @OptionGroup var socket: SocketOption
    func run() throws { try show(try send(.silence, socket: socket), json: false) }
}

struct SetPreset: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "set", abstract: "Set the current preset (in ready or done), e.g. tock set 12m30s.")
    @OptionGroup var socket: SocketOption
    @Argument(help: "A duration: 90s, 5m, 12m30s, 1h, 1:30.") var duration: String
    func run() throws {
        let d: Duration
        do { d = try DurationText.parse(duration) } catch { throw ValidationError(error.description) }
        try show(try send(.set(d), socket: socket), json: false)
    }
}

struct Add: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add time to a count in progress, e.g. tock add 2m, tock add 1m EGG; take it away with tock add -- -1m (docs/timers.md).")
    @OptionGroup var socket: SocketOption
    @Argument(help: "How much: 1m, 30s, 1h30m, 1:30; with a minus, after --, to take it away (-1m).") var duration: String
    @Argument(help: "Which count: an extra timer's name, or t1 (the default) for the box's own count.") var name: String?
    func run() throws {
        let d: Duration
        do { d = try DurationText.parseSigned(duration) } catch { throw ValidationError(error.description) }
        try show(try send(.add(d, name: name), socket: socket), json: false)
    }
}

struct Mode: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "mode", abstract: "Change the mode: \(Settings.Mode.words).")
    @OptionGroup var socket: SocketOption
    @Argument(help: "\(Settings.Mode.words).") var mode: Settings.Mode
    func run() throws { try show(try send(.mode(mode), socket: socket), json: false) }
}

struct Program: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "program", abstract: "Select a named interval program (interval.programs), in ready or done.")
    @OptionGroup var socket: SocketOption
    @Argument(help: "The program's name, as in the configuration file.") var name: String
    func run() throws { try show(try send(.program(name), socket: socket), json: false) }
}

struct Watch: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "watch", abstract: "Print every change of state, display and buzzer until interrupted.")
    @OptionGroup var socket: SocketOption
    @Flag(help: "Print the raw JSON lines.") var json = false
    @Option(help: "At most this many display changes a second (1-100; a stopwatch shows 100); changes of state are never held back.")
    var fps: Int?
    func run() throws {
        _ = try send(.watch(fps: fps), socket: socket) { line in
            let o = try? JSON.object(Array(line.utf8))
            // The service closes a watcher only to make room, and says so.
            if o?["ok"]?.bool == false { throw Failure(o?["error"]?.string ?? "refused") }
            // The first line is the snapshot, said as `tock status` says it.
            var text = line
            // The segment bits are for programs (the web page); --json keeps them.
            if !json, let o { text = o["ok"] != nil ? (BoxStatus(o).map(summary) ?? line) : eventText(JSONObject(o.fields.filter { $0.key != "segments" && $0.key != "colon" })) }
            // Written straight through: a watcher piped into another program
            // sees each change as it happens. A reader that went away
            // (tock watch | head -3) ends the watch quietly.
            guard StandardStream.output.write(text + "\n") else { return false }
            return true
        }
    }
}

struct AlarmCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "alarm", abstract: "List and edit the daily alarms (kept in the state file across restarts).",
        subcommands: [List.self, Add.self, Remove.self, On.self, Off.self, SkipNext.self], defaultSubcommand: List.self)

    /// Send an alarm request and print the list it returns.
    static func run(_ op: ControlRequest.AlarmOp, socket: SocketOption, json: Bool = false) throws {
        let line = try send(.alarm(op), socket: socket)
        if json {
            _ = try readReply(line)
            print(line)
            return
        }
        let s = try readStatus(line)
        if s.alarms.isEmpty { print("no alarms (tock alarm add 06:45 mon-fri)") }
        for a in s.alarms { print(a.line) }
        if let state = s.alarm { print("alarm \(state)") }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "Show the alarms, numbered, with their next time.")
        @OptionGroup var socket: SocketOption
        @Flag(help: "Print the raw JSON reply.") var json = false
        func run() throws { try AlarmCommand.run(.list, socket: socket, json: json) }
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Add an alarm, e.g. tock alarm add 06:45 mon-fri --label work.")
        @OptionGroup var socket: SocketOption
        @Argument(help: "The time of day, HH:MM (24-hour).") var at: String
        @Argument(help: "Days: daily (default), weekdays, weekends, mon-fri, sat,sun ...") var days: [String] = []
        @Option(help: "A name for the alarm (shown in the log and the list).") var label: String = ""
        func run() throws {
            var a: DailyAlarm
            do {
                a = DailyAlarm(minute: try DailyAlarm.parseTime(at), label: label)
                if !days.isEmpty { a.days = try DailyAlarm.parseDays(days) }
            } catch { throw ValidationError(error.description) }
            try AlarmCommand.run(.add(a), socket: socket)
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rm", abstract: "Remove alarm N.")
        @OptionGroup var socket: SocketOption
        @Argument(help: "The alarm's number in tock alarm list.") var n: Int
        func run() throws { try AlarmCommand.run(.remove(n), socket: socket) }
    }

    struct On: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "on", abstract: "Switch alarm N on.")
        @OptionGroup var socket: SocketOption
        @Argument(help: "The alarm's number in tock alarm list.") var n: Int
        func run() throws { try AlarmCommand.run(.on(n), socket: socket) }
    }

    struct Off: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "off", abstract: "Switch alarm N off.")
        @OptionGroup var socket: SocketOption
        @Argument(help: "The alarm's number in tock alarm list.") var n: Int
        func run() throws { try AlarmCommand.run(.off(n), socket: socket) }
    }

    struct SkipNext: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "skip-next", abstract: "Skip alarm N's next time only.")
        @OptionGroup var socket: SocketOption
        @Argument(help: "The alarm's number in tock alarm list.") var n: Int
        func run() throws { try AlarmCommand.run(.skipNext(n), socket: socket) }
    }
}

struct TimerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timer", abstract: "Named timers beside the box's own count: up to 8 count-downs (docs/timers.md).",
        subcommands: [List.self, Add.self, Pause.self, Resume.self, Cancel.self], defaultSubcommand: List.self)

    /// Send a timer request and print the list it returns.
    static func run(_ op: ControlRequest.TimerOp, socket: SocketOption, json: Bool = false) throws {
        let line = try send(.timer(op), socket: socket)
        if json {
            _ = try readReply(line)
            print(line)
            return
        }
        let s = try readStatus(line)
        if s.timers.isEmpty { print("no timers (tock timer add EGG 6m)") }
        for t in s.timers { print(Self.line(t)) }
    }

    /// `EGG  running  5:59 of 6m  ends 2026-11-26T18:06:00Z  (shown)`.
    static func line(_ t: BoxStatus.Timer) -> String {
        let left = t.remainingMs / 1000 + (t.remainingMs % 1000 > 0 ? 1 : 0)
        let clock = left >= 3600 ? "\(left / 3600):\(two(left / 60 % 60)):\(two(left % 60))" : "\(left / 60):\(two(left % 60))"
        func padded(_ s: String, _ width: Int) -> String { s + String(repeating: " ", count: max(0, width - s.count)) }
        var out = "\(padded(t.name, 5))  \(padded(t.state.rawValue, 7))  \(clock) of \(t.duration)"
        if let ends = t.ends { out += "  ends \(ends)" }
        if t.shown { out += "  (shown)" }
        return out
    }

    private static func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : "\(n)" }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "Show the timers, what is left and when each ends.")
        @OptionGroup var socket: SocketOption
        @Flag(help: "Print the raw JSON reply.") var json = false
        func run() throws { try TimerCommand.run(.list, socket: socket, json: json) }
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Start a timer, e.g. tock timer add EGG 6m.")
        @OptionGroup var socket: SocketOption
        @Argument(help: "A name the display can draw, at most its digits (EGG, rICE, oven).") var name: String
        @Argument(help: "How long: 6m, 1h30m, 90s, 1:30.") var duration: String
        func run() throws {
            let d: Duration
            do { d = try DurationText.parse(duration) } catch { throw ValidationError(error.description) }
            try TimerCommand.run(.add(name: name, duration: d), socket: socket)
        }
    }

    struct Pause: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "pause", abstract: "Pause a running timer.")
        @OptionGroup var socket: SocketOption
        @Argument(help: "The timer's name.") var name: String
        func run() throws { try TimerCommand.run(.pause(name), socket: socket) }
    }

    struct Resume: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "resume", abstract: "Resume a paused timer.")
        @OptionGroup var socket: SocketOption
        @Argument(help: "The timer's name.") var name: String
        func run() throws { try TimerCommand.run(.resume(name), socket: socket) }
    }

    struct Cancel: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "cancel", abstract: "Remove a timer, silencing it if it rings.")
        @OptionGroup var socket: SocketOption
        @Argument(help: "The timer's name.") var name: String
        func run() throws { try TimerCommand.run(.cancel(name), socket: socket) }
    }
}

/// The switch's position as the command line names it (`allCases`).
extension SwitchPosition: ExpressibleByArgument {}

/// The mode as the command line names it: its case's name, offered for
/// completion and listed in the help from `allCases`.
extension Settings.Mode: ExpressibleByArgument {
    /// `timer, stopwatch, countdown or interval`.
    static var words: String {
        let names = allCases.map(\.rawValue)
        return names.dropLast().joined(separator: ", ") + " or " + names.last!
    }
}

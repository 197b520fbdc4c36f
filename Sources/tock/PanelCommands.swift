import ArgumentParser
import TockConfig
import TockControl
import TockCore

struct Switch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "switch", abstract: "Set the Up/Down switch as if the lever moved there (the lever's next move wins again).")
    @OptionGroup var socket: SocketOption
    @Argument(help: "\(SwitchPosition.allCases.map(\.rawValue).joined(separator: " or ")).") var position: SwitchPosition
    func run() throws { try show(try send(.flip(position), socket: socket), json: false) }
}

/// Print the dimming of a status reply: `brightness 7, night 22:00-07:00 at 1`.
func showDimming(_ line: String) throws {
    let s = try readStatus(line)
    var text = "brightness \(s.brightness.map(String.init) ?? "?")"
    if let n = s.night {
        text += ", night \(n.from)-\(n.to) at \(n.brightness)"
    } else {
        text += ", no night schedule"
    }
    if let now = s.brightnessNow { text += " (now \(now))" }
    print(text)
}

struct Brightness: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "brightness", abstract: "Show or set the display's brightness, 0 (dimmest lit) to 7 (kept across restarts).")
    @OptionGroup var socket: SocketOption
    @Argument(help: "0-7; none: show it and the night schedule.") var level: Int?
    func validate() throws {
        if let level, !(0...7).contains(level) { throw ValidationError("the brightness is 0 (dimmest lit) to 7 (brightest)") }
    }
    func run() throws { try showDimming(try send(.brightness(level), socket: socket)) }
}

struct Night: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "night",
        abstract: "Show or set the night schedule, e.g. tock night 22:00 07:00 1, or tock night off (kept across restarts).")
    @OptionGroup var socket: SocketOption
    @Argument(help: "FROM TO LEVEL (local times HH:MM, brightness 0-7), or off; none: show it.") var words: [String] = []

    func request() throws -> ControlRequest {
        if words.isEmpty { return .night(nil) }
        if words == ["off"] { return .night(.off) }
        guard words.count == 3 else { throw ValidationError("give FROM TO LEVEL, e.g. 22:00 07:00 1, or off") }
        let from: Int, to: Int
        do {
            from = try DailyAlarm.parseTime(words[0]) * 60
            to = try DailyAlarm.parseTime(words[1]) * 60
        } catch { throw ValidationError(error.description) }
        guard from != to else { throw ValidationError("FROM and TO are the same time; tock night off for none") }
        guard let level = Int(words[2]), (0...7).contains(level) else { throw ValidationError("LEVEL is a brightness, 0 (dimmest lit) to 7") }
        return .night(.on(from: from, to: to, brightness: level))
    }

    func validate() throws { _ = try request() }
    func run() throws { try showDimming(try send(try request(), socket: socket)) }
}

struct UpdateChecked: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "update-checked",
        abstract: "Have the service read the update check's result again (tock-update-check.service runs it after each check; docs/updates.md).")
    @OptionGroup var socket: SocketOption
    @Flag(help: "Print the reply as JSON.") var json = false
    func run() throws {
        let line = try send(.updateChecked, socket: socket)
        if json { return try show(line, json: true) }
        print(try readStatus(line).update?.line ?? "update: not checked yet (systemctl start tock-update-check)")
    }
}

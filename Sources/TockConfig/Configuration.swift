import Glibc
import TockCore
import TockLinux

/// The configuration file, parsed and checked. `settings` is what the core
/// needs; the rest is for the simulator and the hardware around it.
public struct Configuration: Equatable, Sendable {
    public var settings = Settings()
    /// Where the Up/Down switch starts in the simulator.
    public var switchPosition: SwitchPosition = .down
    /// Status LEDs fitted (a subset of `Machine.ledNames`).
    public var leds: [String] = []
    /// Where the parts are wired (used by the gpiod backend).
    public var hardware = HardwareConfig()
    /// CPU scheduling for the service (nil: leave it to the unit).
    public var scheduling: Scheduling? = nil
    /// The MQTT link (nil: no network code runs).
    public var mqtt: MqttConfig? = nil
    /// What the file leaves to a fallback, to log at start-up.
    public var warnings: [String] = []
    /// The file and the line of each key, for problems found after parsing.
    public var file = ""
    public var keyLines = KeyLines()

    public init() {}

    /// Every default, in the system's time zone: the appliance without a file.
    public static func defaults() throws -> Configuration { try parse(yaml: "", file: "(defaults)") }

    static let topKeys = ["mode", "switch", "timer", "countdown", "interval", "alarm", "alarms", "clock", "input", "display", "leds", "scheduling", "mqtt", "light"] + hardwareKeys

    /// The largest configuration file read (the example is about 4 KiB):
    /// checking a larger one would hold the loop, on a reload, past the
    /// watchdog.
    public static let maxFileSize = 64 * 1024

    /// Read and check a file; every problem is reported at once.
    public static func load(path: String) throws -> Configuration {
        try decode(try contents(path: path), file: path)
    }

    /// The file's bytes, as they are now (a reload reads them twice, to
    /// act only on a file that is not being rewritten).
    public static func contents(path: String) throws(ConfigError) -> [UInt8] {
        let bytes: [UInt8]?
        do throws(FileError) { bytes = try DurableFile.read(path, limit: maxFileSize, followingLinks: true) } catch {
            switch error.reason {
            case .system(.fileTooLarge):
                throw refusal(path, "is larger than \(maxFileSize / 1024) KiB; a configuration file is a few KiB")
            case .system(let e):
                throw refusal(path, "cannot read the file (\(e); does it exist, and may this user read it?)")
            case .kind(let k):
                throw refusal(path, "is \(k), not a file")
            }
        }
        guard let bytes else { throw refusal(path, "cannot read the file (it does not exist)") }
        return bytes
    }

    /// Check and parse a file's bytes.
    public static func decode(_ bytes: [UInt8], file: String) throws -> Configuration {
        // The line of the first byte that is not UTF-8, for the editor.
        var line = 1
        var iterator = bytes.makeIterator()
        var utf8 = UTF8()
        decoding: while true {
            switch utf8.decode(&iterator) {
            case .scalarValue(let c): if c == "\n" { line += 1 }
            case .emptyInput: break decoding
            case .error: throw refusal(file, "is not UTF-8 text (a byte on this line is not)", line: line)
            }
        }
        return try parse(yaml: String(decoding: bytes, as: UTF8.self), file: file)
    }

    /// Nothing but blanks and comments: the file parses as every default. At start-up that is what it means; on a reload it
    /// is far more likely a file caught mid-rewrite (an editor that
    /// truncates it and writes it again) than one emptied on purpose.
    public static func isBlank(_ bytes: [UInt8]) -> Bool {
        String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline).allSatisfy { raw in
            let line = String(raw).trimmingSpaces
            return line.isEmpty || line.hasPrefix("#")
        }
    }

    private static func refusal(_ path: String, _ message: String, line: Int = 1) -> ConfigError {
        ConfigError(problems: [ConfigProblem(file: path, line: line, key: "", message: message)])
    }

    public static func parse(yaml: String, file: String) throws -> Configuration {
        let root: Node?
        do {
            // Every scalar is text: the reader parses each value itself.
            root = try YAMLDocument.parse(Array(yaml.utf8))
        } catch {
            throw ConfigError(problems: [ConfigProblem(file: file, line: error.line, key: "", message: "not valid YAML: \(error.message)")])
        }
        var config = Configuration()
        let r = ConfigReader(file: file)
        if let root { config.read(root, r) } else { config.readClock(nil, r) }  // an empty file: all defaults
        if !r.problems.isEmpty { throw ConfigError(problems: r.problems) }
        config.file = file
        config.keyLines = r.keyLines
        return config
    }

    private mutating func read(_ root: Node, _ r: ConfigReader) {
        var programsNode: Node?
        let top = r.mapping(root, "", allowed: Self.topKeys)
        if let n = top["mode"], let m = r.choice(n, "mode", Settings.Mode.allCases.map(\.rawValue)) {
            settings.mode = Settings.Mode(rawValue: m)!
        }
        if let n = top["switch"], let s = r.choice(n, "switch", ["up", "down"]) {
            switchPosition = SwitchPosition(rawValue: s)!
        }
        if let n = top["timer"] {
            let t = r.mapping(n, "timer", allowed: ["presets", "lead_in", "overrun"])
            if let v = t["lead_in"], let d = r.duration(v, "timer.lead_in", min: .zero, max: Settings.longestLeadIn) { settings.leadIn = d }
            if let v = t["overrun"], let b = r.bool(v, "timer.overrun") { settings.overrun = b }
            if let p = t["presets"], let items = r.list(p, "timer.presets") {
                if items.isEmpty { r.problem(p, "timer.presets", "needs at least one duration") }
                if items.count > Settings.maxPresets {
                    r.problem(p, "timer.presets", "at most \(Settings.maxPresets) presets (\(items.count) given)")
                }
                let parsed = items.enumerated().map { i, item in
                    r.duration(item, "timer.presets[\(i)]", min: .seconds(1), max: Settings.longestPreset)
                }
                if !items.isEmpty, parsed.allSatisfy({ $0 != nil }) { settings.presets = parsed.map { $0! } }
            }
        }
        if let n = top["countdown"] {
            let c = r.mapping(n, "countdown", allowed: ["until"])
            if let u = c["until"], let s = r.string(u, "countdown.until") {
                do { settings.countdownUntil = try CalendarText.parse(s) } catch { r.problem(u, "countdown.until", error.description) }
            }
        }
        if let n = top["interval"] {
            let i = r.mapping(n, "interval", allowed: ["work", "rest", "rounds", "lead_in", "programs"])
            if let v = i["programs"] { programsNode = v }
            if let v = i["lead_in"], let d = r.duration(v, "interval.lead_in", min: .zero, max: Settings.longestLeadIn) {
                settings.interval.leadIn = d
            }
            if let v = i["work"], let d = r.duration(v, "interval.work", min: .seconds(1), max: Settings.longestPreset) { settings.interval.work = d }
            if let v = i["rest"], let d = r.duration(v, "interval.rest", min: .zero, max: Settings.longestPreset) { settings.interval.rest = d }
            if let v = i["rounds"], let k = r.int(v, "interval.rounds", 1...99) { settings.interval.rounds = k }
            let one = settings.interval
            _ = Self.fits(.tabata(work: one.work, rest: one.rest, rounds: one.rounds), n, "interval", r)
        }
        if let n = top["alarm"] {
            let a = r.mapping(n, "alarm", allowed: ["ring_for", "escalate_after", "warn_last", "chirp", "snooze", "volume", "tune", "sounds"])
            if let v = a["sounds"] { readSounds(v, r) }
            if let v = a["volume"], let k = r.int(v, "alarm.volume", 1...100) { settings.alarm.volume = k }
            if let v = a["tune"], let text = r.string(v, "alarm.tune") {
                do { settings.alarm.tune = try RTTTL.parse(text) } catch { r.problem(v, "alarm.tune", error.description) }
            }
            if let v = a["ring_for"], let d = r.duration(v, "alarm.ring_for", min: .seconds(1), max: .seconds(3600)) { settings.alarm.ringFor = d }
            if let v = a["escalate_after"], let d = r.duration(v, "alarm.escalate_after", min: .zero, max: .seconds(3600)) { settings.alarm.escalateAfter = d }
            if let v = a["warn_last"], let k = r.int(v, "alarm.warn_last", 0...10) { settings.alarm.warnLast = k }
            if let v = a["chirp"], let b = r.bool(v, "alarm.chirp") { settings.alarm.chirp = b }
            if let v = a["snooze"], let d = r.duration(v, "alarm.snooze", min: .seconds(60), max: .seconds(3600)) { settings.alarm.snooze = d }
        }
        if let n = top["alarms"] { readAlarms(n, r) }
        readClock(top["clock"], r)
        if let n = top["input"] {
            let i = r.mapping(n, "input", allowed: ["debounce", "long_press"])
            if let v = i["debounce"], let d = r.duration(v, "input.debounce", min: .milliseconds(1), max: .milliseconds(200)) { settings.input.debounce = d }
            if let v = i["long_press"], let d = r.duration(v, "input.long_press", min: .milliseconds(300), max: .seconds(10)) { settings.input.longPress = d }
        }
        if let n = top["display"] {
            let d = r.mapping(n, "display", allowed: ["digits", "brightness", "idle", "idle_after"] + Self.displayHardwareKeys)
            readIdle(d, r)
            if let v = d["digits"], let k = r.choice(v, "display.digits", ["4", "8"]) { settings.display.digits = Int(k)! }
            if let v = d["brightness"], let k = r.int(v, "display.brightness", 0...7) { settings.display.brightness = k }
            if let v = d["night"] { readNight(v, r) }
            readDisplayHardware(d, r)
        }
        if let n = top["leds"] { readLeds(n, r) }
        readLight(top["light"], r)
        if let n = top["scheduling"] {
            let s = r.mapping(n, "scheduling", allowed: ["policy", "priority", "nice"])
            var sched = Scheduling()
            if let v = s["policy"], let p = r.choice(v, "scheduling.policy", Scheduling.Policy.allCases.map(\.rawValue)) { sched.policy = .init(rawValue: p)! }
            if let v = s["priority"], let k = r.int(v, "scheduling.priority", 1...99) { sched.priority = k }
            if let v = s["nice"], let k = r.int(v, "scheduling.nice", -20...19) { sched.nice = k }
            if sched.policy != .other, s["priority"] == nil { r.problem(n, "scheduling.priority", "a \(sched.policy.rawValue) policy needs a priority from 1 to 99") }
            if sched.policy != .other, s["nice"] != nil { r.problem(s["nice"], "scheduling.nice", "nice applies to policy other only") }
            scheduling = sched
        }
        if let n = top["mqtt"] { readMqtt(n, r) }
        if let n = programsNode { readPrograms(n, r) }  // (after display.digits: names must fit)
        readHardware(top, r)
        checkLines(top, r)
        // Cross-field rules.
        if settings.mode == .countdown, settings.countdownUntil == nil, !r.problems.contains(where: { $0.key.hasPrefix("countdown") }) {
            r.problem(top["mode"], "countdown.until", "mode is countdown, so countdown.until is needed (e.g. 2026-12-24T18:00:00+01:00)")
        }
        if settings.input.longPress <= settings.input.debounce {
            r.problem(top["input"], "input.long_press", "must be longer than input.debounce")
        }
    }

    /// `night: {from: "22:00", to: "07:00", brightness: 1}` (local time).
    private mutating func readNight(_ node: Node, _ r: ConfigReader) {
        let n = r.mapping(node, "display.night", allowed: ["from", "to", "brightness"])
        func clock(_ key: String) -> Int? {
            guard let v = n[key] else {
                r.problem(node, "display.night.\(key)", "needed, e.g. \"22:00\"")
                return nil
            }
            guard let s = r.string(v, "display.night.\(key)") else { return nil }
            let p = s.split(separator: ":")
            guard p.count == 2, let h = Int(p[0]), let m = Int(p[1]), (0...23).contains(h), (0...59).contains(m) else {
                r.problem(v, "display.night.\(key)", "\"\(s)\" is not a time of day; write HH:MM, e.g. \"22:00\"")
                return nil
            }
            return h * 3600 + m * 60
        }
        let from = clock("from"), to = clock("to")
        var level = 1
        if let v = n["brightness"], let k = r.int(v, "display.night.brightness", 0...7) { level = k }
        guard let from, let to else { return }
        guard from != to else {
            r.problem(node, "display.night", "from and to are the same time")
            return
        }
        settings.display.night = NightSchedule(from: from, to: to, brightness: level)
    }
}

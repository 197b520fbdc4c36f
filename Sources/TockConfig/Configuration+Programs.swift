import TockCore

/// `interval.programs`: named programs cycled with Reset in ready.
///
/// ```yaml
/// interval:
///   lead_in: 10s
///   programs:
///     - {name: tAbA, kind: tabata}
///     - {name: Int, kind: intervals, work: 40s, rest: 20s, rounds: 5, sets: 3, set_rest: 2m}
///     - {name: E1, kind: emom, every: 1m, rounds: 10}
///     - {name: A20, kind: amrap, cap: 20m}
///     - {name: Ft, kind: for_time, cap: 15m}
/// ```
extension Configuration {
    static let programKinds = ["tabata", "intervals", "emom", "amrap", "for_time"]
    static let maxPrograms = 20

    mutating func readPrograms(_ node: Node, _ r: ConfigReader) {
        guard let items = r.list(node, "interval.programs") else { return }
        if items.isEmpty { r.problem(node, "interval.programs", "needs at least one program, e.g. [{name: tAbA, kind: tabata}]") }
        if items.count > Self.maxPrograms { r.problem(node, "interval.programs", "at most \(Self.maxPrograms) programs (\(items.count) given)") }
        var programs: [NamedProgram] = []
        for (i, item) in items.enumerated() {
            let key = "interval.programs[\(i)]"
            let m = r.mapping(item, key, allowed: ["name", "kind", "work", "rest", "rounds", "sets", "set_rest", "every", "cap"])
            guard let kindNode = m["kind"] else {
                r.problem(item, "\(key).kind", "needed: one of \(Self.programKinds.joined(separator: ", "))")
                continue
            }
            guard let kind = r.choice(kindNode, "\(key).kind", Self.programKinds) else { continue }
            let digits = settings.display.digits
            var name = ""
            if let v = m["name"], let text = r.string(v, "\(key).name") {
                if let label = NamedProgram.label(text), label.count <= digits {
                    name = text
                } else if NamedProgram.label(text) == nil {
                    r.problem(v, "\(key).name", "\"\(text.prefix(32))\" cannot be drawn on 7 segments (k, m, q, w, x, z and most signs have no glyph)")
                } else {
                    r.problem(v, "\(key).name", "\"\(text.prefix(32))\" is longer than the display's \(digits) digits")
                }
            } else if m["name"] == nil {
                r.problem(item, "\(key).name", "needed: what the display shows when it is selected (at most \(digits) characters)")
            }
            func duration(_ k: String, _ fallback: Duration?, min: Duration = .seconds(1)) -> Duration? {
                guard let v = m[k] else {
                    if fallback == nil { r.problem(item, "\(key).\(k)", "needed for kind \(kind)") }
                    return fallback
                }
                return r.duration(v, "\(key).\(k)", min: min, max: Settings.longestPreset)
            }
            func count(_ k: String, _ fallback: Int?, _ range: ClosedRange<Int>) -> Int? {
                guard let v = m[k] else {
                    if fallback == nil { r.problem(item, "\(key).\(k)", "needed for kind \(kind)") }
                    return fallback
                }
                return r.int(v, "\(key).\(k)", range)
            }
            let allowed: [String: Set<String>] = [
                "tabata": ["work", "rest", "rounds"], "intervals": ["work", "rest", "rounds", "sets", "set_rest"],
                "emom": ["every", "rounds"], "amrap": ["cap"], "for_time": ["cap"],
            ]
            for e in m.entries where !["name", "kind"].contains(e.key) && !allowed[kind]!.contains(e.key) {
                let (k, v) = (e.key, e.value)
                r.problem(v, "\(key).\(k)", "does not apply to kind \(kind) (it takes \(allowed[kind]!.sorted().joined(separator: ", ")))")
            }
            let parsed: NamedProgram.Kind?
            switch kind {
            case "tabata", "intervals":
                let tabata = kind == "tabata"
                let work = duration("work", tabata ? .seconds(20) : nil)
                let rest = duration("rest", tabata ? .seconds(10) : nil, min: .zero)
                let rounds = count("rounds", tabata ? 8 : nil, 1...99)
                let sets = count("sets", 1, 1...9)
                let setRest = duration("set_rest", .zero, min: .zero)
                if let work, let rest, let rounds, let sets, let setRest {
                    parsed = .intervals(work: work, rest: rest, rounds: rounds, sets: sets, setRest: setRest)
                } else { parsed = nil }
            case "emom":
                let every = duration("every", nil)
                let rounds = count("rounds", nil, 1...99)
                parsed = every.flatMap { e in rounds.map { .emom(every: e, rounds: $0) } }
            case "amrap":
                parsed = duration("cap", nil).map { .amrap(cap: $0) }
            default:
                parsed = duration("cap", nil).map { .forTime(cap: $0) }
            }
            if let parsed, Self.fits(parsed, item, key, r) { programs.append(NamedProgram(name: name, kind: parsed)) }
        }
        settings.interval.programs = programs
    }

    /// Whether a program's whole length is within `Settings.longestProgram`
    /// (the one bound the state file and the group also keep); a problem
    /// naming its length and what to shorten when it is not.
    static func fits(_ kind: NamedProgram.Kind, _ node: Node?, _ key: String, _ r: ConfigReader) -> Bool {
        let total = ProgramPlan(kind).total
        guard total > Settings.longestProgram else { return true }
        r.problem(node, key, "takes \(DurationText.format(total)) in all, longer than the \(DurationText.format(Settings.longestProgram)) a program may take (100 days less the longest lead-in, so that its state can be saved and shared); use fewer rounds or sets, or shorter work and rest")
        return false
    }
}

/// `alarm.sounds`: a phase sound as milliseconds on and off, and an
/// optional pitch: `work: "700"`, `rest: "200 150 200 @2000"`.
extension Configuration {
    static let soundNames: [String: (Buzzer.Signal, Int)] = ["work": (.work, 2_700), "rest": (.rest, 2_000), "end": (.end, 2_700),
                                                                  "phase": (.phase, 2_000)]

    mutating func readSounds(_ node: Node, _ r: ConfigReader) {
        let m = r.mapping(node, "alarm.sounds", allowed: Self.soundNames.keys.sorted())
        for e in m.entries {
            let (name, v) = (e.key, e.value)
            let key = "alarm.sounds.\(name)"
            let (signal, pitch) = Self.soundNames[name]!
            guard let text = r.string(v, key) else { continue }
            do throws(ConfigProblem) {
                settings.alarm.sounds[signal] = try Self.sound(text, pitch: pitch)
            } catch {
                r.problem(v, key, error.message)
            }
        }
    }

    static func sound(_ text: String, pitch: Int) throws(ConfigProblem) -> BuzzerPattern {
        func refuse(_ why: String) -> ConfigProblem {
            ConfigProblem(file: "", line: 0, key: "", message: "\(why); write milliseconds on and off, e.g. \"200 150 200\", and a pitch if wanted, \"@2000\"")
        }
        var words = text.split(separator: " ").map(String.init)
        var hertz = pitch
        if let last = words.last, last.hasPrefix("@") {
            guard let h = Int(last.dropFirst()), (100...10_000).contains(h) else { throw refuse("\"\(last.prefix(12))\" is not a pitch of 100 to 10000 Hz") }
            hertz = h
            words.removeLast()
        }
        guard (1...15).contains(words.count) else { throw refuse("\(words.count) steps; 1 to 15") }
        var steps: [BuzzerPattern.Step] = []
        for (i, w) in words.enumerated() {
            guard let ms = Int(w), (1...5_000).contains(ms) else { throw refuse("\"\(w.prefix(12))\" is not 1 to 5000 ms") }
            steps.append(.init(i % 2 == 0 ? Tone(hertz: hertz) : nil, .milliseconds(ms)))
        }
        return BuzzerPattern(steps: steps, repeats: false)
    }
}

import TockConfig
import TockCore

/// A simulator script: one action per line, `#` comments.
///
///     # t      action
///     0        press start
///     +30      press stop for 0.2
///     12.5     bounce reset 4
///     +1       switch up
///     400      end
///
/// `<t>` is seconds from the start, or `+<seconds>` after the previous line.
/// Actions: `press <start|stop|reset> [for <seconds>]` (held 0.08 s unless
/// said), `bounce <start|stop|reset> [<n>]` (a press whose first 5 ms carry
/// n extra chatter edges, default 6), `switch <up|down>`, `clock <+|-><seconds>`
/// (step the wall clock, as NTP or `date -s` would), `clock sync|unsync`
/// (what the kernel says of the wall clock from then on), `light <lux>`
/// (the room's light on the mock light sensor, with `light:` configured),
/// `timer add <name> <duration>`, `timer pause|resume|cancel <name>` (an
/// extra timer, as `tock timer` asks for it; the run goes on past a
/// refusal, and `tock sim` then names its line and fails), `add <duration>
/// [<name>]` (time added to a count, as `tock add` asks: `add 2m`,
/// `add -1m EGG`; a refusal as for `timer`), `end`.
public struct Script: Equatable, Sendable {
    public enum Action: Equatable, Sendable {
        case press(Button, hold: Duration)
        case bounce(Button, edges: Int)
        case setSwitch(SwitchPosition)
        case stepClock(Duration)
        case clockSynchronised(Bool)
        case light(Double)
        case timer(ExtraTimers.Request)
        case add(Duration, Machine.CountRef)
        case end
    }

    public struct Step: Equatable, Sendable {
        public var at: Duration
        public var action: Action
        public var line: Int
    }

    public struct Problem: Error, CustomStringConvertible {
        public var file: String
        public var line: Int
        public var message: String
        public var description: String { "\(file):\(line): \(message)" }
    }

    public static let defaultHold: Duration = .milliseconds(80)
    public static let defaultBounces = 6

    public var steps: [Step]

    /// When the run ends: at `end`, else one second after the last action.
    public var endTime: Duration {
        if let e = steps.first(where: { $0.action == .end }) { return e.at }
        return (steps.map(\.at).max() ?? .zero) + .seconds(1)
    }

    public init(steps: [Step]) { self.steps = steps }

    public static func parse(_ text: String, file: String = "script") throws(Problem) -> Script {
        var steps: [Step] = []
        var previous: Duration = .zero
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let lineNo = index + 1
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
            guard !words.isEmpty else { continue }
            func fail(_ m: String) -> Problem { Problem(file: file, line: lineNo, message: m) }

            let relative = words[0].hasPrefix("+")
            guard let secs = seconds(relative ? String(words[0].dropFirst()) : words[0]) else {
                throw fail("\"\(words[0])\" is not a time (seconds from the start like 12.5, or +2 after the previous line)")
            }
            let at = relative ? previous + secs : secs
            guard at >= previous else { throw fail("time \(words[0]) is earlier than the line before") }
            previous = at
            guard words.count >= 2 else { throw fail("a time needs an action: press, bounce, switch, clock, light or end") }

            let action: Action
            let args = Array(words.dropFirst(2))
            switch words[1] {
            case "press":
                guard let b = args.first.flatMap(Button.init(rawValue:)) else { throw fail("press which button? start, stop or reset") }
                var hold = defaultHold
                if args.count > 1 {
                    guard args.count == 3, args[1] == "for", let h = seconds(args[2]), h > .zero else {
                        throw fail("write press \(b.rawValue) for <seconds>")
                    }
                    hold = h
                }
                action = .press(b, hold: hold)
            case "bounce":
                guard let b = args.first.flatMap(Button.init(rawValue:)) else { throw fail("bounce which button? start, stop or reset") }
                var n = defaultBounces
                if args.count > 1 {
                    guard args.count == 2, let k = Int(args[1]), (0...100).contains(k) else { throw fail("bounce \(b.rawValue) <n>: n is 0 to 100 chatter edges") }
                    n = k
                }
                action = .bounce(b, edges: n)
            case "switch":
                guard args.count == 1, let p = SwitchPosition(rawValue: args[0]) else { throw fail("switch up or switch down") }
                action = .setSwitch(p)
            case "clock" where args == ["sync"] || args == ["unsync"]:
                action = .clockSynchronised(args == ["sync"])
            case "light":
                guard args.count == 1, let lux = Double(args[0]), lux.isFinite, lux >= 0 else { throw fail("write light <lux> (e.g. light 150)") }
                action = .light(lux)
            case "clock":
                guard args.count == 1, let sign = args[0].first, sign == "+" || sign == "-", let d = seconds(String(args[0].dropFirst())) else {
                    throw fail("write clock +<seconds>, clock -<seconds> (e.g. clock +3600), clock sync or clock unsync")
                }
                action = .stepClock(sign == "-" ? .zero - d : d)
            case "timer":
                switch (args.first, args.count) {
                case ("add", 3):
                    guard let d = try? DurationText.parse(args[2]) else { throw fail("\"\(args[2])\" is not a duration (6m, 1h30m, 90s)") }
                    action = .timer(.add(name: args[1], duration: d))
                case ("pause", 2): action = .timer(.pause(args[1]))
                case ("resume", 2): action = .timer(.resume(args[1]))
                case ("cancel", 2): action = .timer(.cancel(args[1]))
                default: throw fail("write timer add <name> <duration>, or timer pause|resume|cancel <name>")
                }
            case "add":
                guard (1...2).contains(args.count), let d = try? DurationText.parseSigned(args[0]) else {
                    throw fail("write add <duration> [<name>] (e.g. add 2m, add -1m EGG)")
                }
                action = .add(d, Machine.countRef(named: args.count == 2 ? args[1] : nil))
            case "end":
                guard args.isEmpty else { throw fail("end takes nothing after it") }
                action = .end
            default:
                throw fail("unknown action \"\(words[1])\"; use press, bounce, switch, clock, light, timer, add or end")
            }
            steps.append(Step(at: at, action: action, line: lineNo))
        }
        return Script(steps: steps)
    }

    /// Seconds with up to nanosecond decimals, without floating point.
    static func seconds(_ s: String) -> Duration? {
        guard !s.isEmpty, !s.hasPrefix("-"), let d = try? DurationText.parse(s + "s") else { return nil }
        return d
    }
}

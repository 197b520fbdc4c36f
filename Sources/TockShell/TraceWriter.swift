import TockConfig
import TockCore

/// Writes the trace: JSON Lines, one object per change, each with `t`
/// (seconds from the start, millisecond precision) and one of `display`,
/// `buzzer`, `state`, `round` and `set` (a named interval program's),
/// `led.NAME` or `alarm` (the time of a daily alarm that
/// rings: `06:45`; or `snoozed`, `dismissed`, `silenced`, `missed 06:45`,
/// `skipped 06:45`), `timers` (each extra timer's name and state, when one
/// changed: `EGG running, RICE paused`) or `rang` (an extra timer's name as
/// it reaches zero) or `address` (the line that begins to scroll across
/// the display: `192.168.1.20  tock.local`).
public final class TraceWriter {
    private let origin: Instant
    private let leds: Set<String>
    private let sink: (String) -> Void
    private var buzzer: Bool? = nil
    private var set: Int? = nil

    /// `sink` receives each line without its newline.
    public init(origin: Instant, leds: [String], sink: @escaping (String) -> Void) {
        self.origin = origin
        self.leds = Set(leds)
        self.sink = sink
    }

    public func record(_ item: Machine.Output.Item, at t: Instant) {
        switch item {
        case .command(.render(let frame)):
            write(t, "\"display\":\(json(frame.text))")
        case .command(.buzzer(let tone)):
            // The trace says sounding or not; pitch changes are not changes here.
            let on = tone != nil
            guard on != buzzer else { return }
            buzzer = on
            write(t, "\"buzzer\":\(on)")
        case .report(.stateChanged(let s)):
            write(t, "\"state\":\(json(s.rawValue))")
        case .command(.led(let name, let lit)):
            guard leds.contains(name) else { return }
            write(t, "\(json("led." + name)):\(lit)")
        case .report(.round(let r)):
            write(t, "\"round\":\(r.round)")
            if let s = r.set, s != set { write(t, "\"set\":\(s)") }
            set = r.set
        case .report(.alarm(let notice)):
            write(t, "\"alarm\":\(json(AlarmText.traceValue(notice)))")
        case .command(.group(let change)):
            write(t, "\"group\":\(json(change.press.rawValue))")
        case .report(.timers(let timers)):
            write(t, "\"timers\":\(json(timers.list.map { "\($0.name) \($0.stateName.rawValue)" }.joined(separator: ", ")))")
        case .report(.timerRang(let name)):
            write(t, "\"rang\":\(json(name))")
        case .report(.addressShown(let line)):
            write(t, "\"address\":\(json(line))")
        case .command(.wake), .command(.persist), .report(.refused):
            break
        }
    }

    private func write(_ t: Instant, _ field: String) {
        sink("{\"t\":\(Self.seconds(t - origin)),\(field)}")
    }

    /// Seconds with exactly three decimals (millisecond precision, rounded
    /// down so an event never appears later than it happened).
    static func seconds(_ d: Duration) -> String {
        let ms = d.nanoseconds / 1_000_000
        let frac = ms % 1000
        return "\(ms / 1000).\(frac < 10 ? "00" : frac < 100 ? "0" : "")\(frac)"
    }

    private func json(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where u.value < 0x20: out += "\\u00\(u.value < 0x10 ? "0" : "")\(String(u.value, radix: 16))"
            default: out.unicodeScalars.append(u)
            }
        }
        return out + "\""
    }
}

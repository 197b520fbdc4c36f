import TockCore

/// The desk simulator's whole screen: the display as big digits, the timer
/// state, the buzzer, the LEDs, the direction switch and the keys.
public struct SimulatorScreen: Sendable {
    static let title = "Tock desk simulator"
    /// The keys, within 80 columns; docs/simulator.md says what each does.
    static let help = "keys: s start  x stop  r reset  R/S/X held  u/d switch up/down  l light  q quit"

    /// Cursor home, then erase the screen (ECMA-48 CUP and ED 2).
    static let homeAndClear = "\u{1B}[H\u{1B}[2J"
    static let reset = "\u{1B}[0m"
    /// Unlit segments: a dark grey from the 256-colour palette, so the
    /// digit's shape shows faintly as it does on a real red LED display.
    static let unlitSegment = "\u{1B}[38;5;236m"
    static let litLED = "\u{1B}[32m"

    /// The screen as one string.
    ///
    /// With `color` the screen starts with cursor-home and clear, uses ANSI
    /// colours and ends lines with CR LF, so it draws correctly on a
    /// terminal in raw mode (no output post-processing turns LF into
    /// CR LF there). Without `color` it is plain text with LF line ends.
    /// LEDs are listed by name, in name order.
    public static func render(
        frame: Frame,
        buzzer: Tone?,
        state: StateName,
        leds: [String: Bool],
        switchPosition: String,
        light: String? = nil,
        detail: String = "",
        note: String = "",
        keysHelp: Bool = true,
        color: Bool
    ) -> String {
        var lines = [title, ""]

        let digits = color
            ? BigDigits.lines(for: frame, lit: litSegment(brightness: frame.brightness), dark: unlitSegment)
            : BigDigits.lines(for: frame)
        lines += digits.map { $0.isEmpty ? $0 : "  " + $0 }
        lines.append("")

        let sound = buzzer.map { "♪ \($0.hertz) Hz" } ?? "off"
        lines.append("state: \(state.rawValue)   buzzer: \(sound)" + (detail.isEmpty ? "" : "   " + detail))
        if !leds.isEmpty {
            lines.append(leds.sorted { $0.key < $1.key }.map { name, on in
                let mark = on ? (color ? litLED + "●" + reset : "●") : "○"
                return "\(mark) \(name)"
            }.joined(separator: "  "))
        }
        lines.append("switch: \(switchPosition)" + (light.map { "   light: \($0)" } ?? ""))
        if keysHelp {
            lines.append("")
            lines.append(help)
        }
        if !note.isEmpty { lines.append(note) }

        let newline = color ? "\r\n" : "\n"
        let body = lines.joined(separator: newline) + newline
        return color ? homeAndClear + body : body
    }

    /// Lit segments in red, one step darker for every two steps down the
    /// display's 0...7 brightness range (reds 196, 160, 124, 88 of the
    /// 256-colour palette).
    /// A named program, its round, a lead-in or an overrun, for the state line.
    public static func detail(_ p: Progress) -> String {
        var parts: [String] = []
        if let name = p.program { parts.append("program \(name)") }
        if let r = p.round { parts.append(r.set.map { "set \($0) round \(r.round)" } ?? "round \(r.round)") }
        if let l = p.leadIn { parts.append("lead-in \((l.nanoseconds + 999_999_999) / 1_000_000_000) s") }
        if let o = p.overrun { parts.append("over by \(o.nanoseconds / 1_000_000_000) s") }
        return parts.joined(separator: " · ")
    }

    static func litSegment(brightness: Int) -> String {
        let reds = [88, 124, 160, 196]
        let level = min(max(brightness, 0), 7) / 2
        return "\u{1B}[38;5;\(reds[level])m"
    }
}

import TockCore

/// Draws a `Frame` as large 7-segment digits for a terminal.
///
/// The picture is built from the frame's segment bits, not its characters,
/// so it shows exactly what a real display would light. Each digit is five
/// rows by six columns, followed by a column for its decimal point:
///
///      ━━━━         a
///     ┃    ┃     f     b
///      ━━━━         g
///     ┃    ┃     e     c
///      ━━━━ •       d   dp
///
/// A 4-digit frame has a colon column between digits 1 and 2 (where the
/// TM1637 clock modules put it), lit as `•` on rows 1 and 3.
public enum BigDigits {
    /// Rows in a drawn digit.
    public static let height = 5

    /// Lit strokes are heavy; unlit ones (drawn only with a `dark`
    /// prefix) are light dotted lines, so the digit reads right even where
    /// the terminal shows no colour and both come out the same shade.
    static let horizontal = Glyph(lit: "━━━━", dark: "┈┈┈┈")
    static let vertical = Glyph(lit: "┃", dark: "┊")
    static let dot = Glyph(lit: "•", dark: "·")
    static let reset = "\u{1B}[0m"

    /// The rows of the picture, top to bottom.
    ///
    /// - Parameters:
    ///   - lit: an ANSI SGR prefix (such as `"\u{1B}[31m"`) for lit segments;
    ///     empty draws them plain.
    ///   - dark: an ANSI SGR prefix for unlit segments, which are then drawn
    ///     as light dotted strokes; empty leaves them as spaces.
    ///
    /// With both prefixes empty the rows are plain text with trailing spaces
    /// trimmed. Brightness is not drawn.
    public static func lines(for frame: Frame, lit: String = "", dark: String = "") -> [String] {
        var rows = Array(repeating: Row(), count: height)
        for i in 0..<frame.digits {
            if i > 0 { for r in rows.indices { rows[r].space(1) } }
            if frame.digits == 4, i == 2 { drawColon(lit: frame.colon, into: &rows) }
            drawDigit(frame.segments(at: i), into: &rows)
        }
        let plain = lit.isEmpty && dark.isEmpty
        return rows.map { row in
            let text = row.rendered(lit: lit, dark: dark)
            return plain ? String(text.reversed().drop(while: { $0 == " " }).reversed()) : text
        }
    }

    // MARK: - Strokes

    private static func drawDigit(_ bits: UInt8, into rows: inout [Row]) {
        func on(_ bit: UInt8) -> Bool { bits & (1 << bit) != 0 }
        // Segment bit order as in `SevenSegmentFont`: a b c d e f g dp.
        let (a, b, c, d, e, f, g, dp) = (on(0), on(1), on(2), on(3), on(4), on(5), on(6), on(7))

        rows[0].space(1); rows[0].stroke(horizontal, a); rows[0].space(1)
        rows[1].stroke(vertical, f); rows[1].space(4); rows[1].stroke(vertical, b)
        rows[2].space(1); rows[2].stroke(horizontal, g); rows[2].space(1)
        rows[3].stroke(vertical, e); rows[3].space(4); rows[3].stroke(vertical, c)
        rows[4].space(1); rows[4].stroke(horizontal, d); rows[4].space(1)

        for r in 0..<height - 1 { rows[r].space(1) }
        rows[height - 1].stroke(dot, dp)
    }

    private static func drawColon(lit: Bool, into rows: inout [Row]) {
        for r in 0..<height {
            if r == 1 || r == 3 { rows[r].stroke(dot, lit) } else { rows[r].space(1) }
            rows[r].space(1)
        }
    }

    // MARK: - Rows

    /// One row of the picture as runs of the same kind, so that a run of
    /// lit strokes takes one escape sequence rather than one per glyph.
    struct Glyph { let lit: String, dark: String }

    private struct Row {
        enum Kind: Equatable { case blank, lit, dark }
        var runs: [(kind: Kind, text: String)] = []

        mutating func space(_ n: Int) { append(.blank, String(repeating: " ", count: n)) }
        mutating func stroke(_ glyph: Glyph, _ on: Bool) { append(on ? .lit : .dark, on ? glyph.lit : glyph.dark) }

        private mutating func append(_ kind: Kind, _ text: String) {
            if let last = runs.last, last.kind == kind {
                runs[runs.count - 1].text += text
            } else {
                runs.append((kind, text))
            }
        }

        func rendered(lit: String, dark: String) -> String {
            var s = ""
            for run in runs {
                switch run.kind {
                case .blank:
                    s += run.text
                case .lit:
                    s += lit.isEmpty ? run.text : lit + run.text + BigDigits.reset
                case .dark:
                    s += dark.isEmpty
                        ? String(repeating: " ", count: run.text.count)
                        : dark + run.text + BigDigits.reset
                }
            }
            return s
        }
    }
}

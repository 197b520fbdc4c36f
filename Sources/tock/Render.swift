import ArgumentParser
import TockHost
import TockCore
import TockSimulator

struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Draw display text as the 7-segment display shows it (for documentation and wiring checks).",
        discussion: "TEXT is in display notation: one character per digit, '.' lights the point of the digit before it, ':' lights the colon. Example: tock render 05:00"
    )

    @Argument(help: "Display text, e.g. 05:00, ' 1:40', 3d04, over.")
    var text: [String]

    @Option(help: "Digits on the display: 4 (with a colon) or 8.")
    var digits: Int = 4

    @Flag(help: "Print an SVG picture (lit segments red, unlit dark grey) instead of terminal text; takes one TEXT.")
    var svg = false

    func validate() throws {
        guard digits == 4 || digits == 8 else { throw ValidationError("--digits is 4 or 8") }
        if svg, text.count != 1 { throw ValidationError("--svg draws one TEXT (got \(text.count))") }
        for t in text {
            let cells = t.filter { $0 != "." && $0 != ":" }
            guard cells.count <= digits else { throw ValidationError("\"\(t)\" is wider than \(digits) digits") }
            guard let bad = cells.first(where: { SevenSegmentFont.glyphs[$0] == nil }) else { continue }
            throw ValidationError("\"\(bad)\" has no 7-segment glyph (have: \(String(SevenSegmentFont.glyphs.keys.sorted())))")
        }
    }

    func run() {
        if svg {
            print(SegmentSVG.svg(for: Frame(text: text[0], digits: digits)), terminator: "")
            return
        }
        for t in text {
            for line in BigDigits.lines(for: Frame(text: t, digits: digits)) { print(line) }
            print("")
        }
    }
}

import Testing
import TockCore
@testable import TockSimulator

@Suite struct BigDigitsTests {
    private func count(_ glyph: Character, in lines: [String]) -> Int {
        lines.reduce(0) { $0 + $1.filter { $0 == glyph }.count }
    }

    private func strokes(in lines: [String]) -> Int {
        count("━", in: lines) + count("┃", in: lines) + count("•", in: lines)
    }

    /// Removes SGR sequences (ESC [ ... m).
    private func stripped(_ s: String) -> String {
        var out = ""
        var inEscape = false
        for ch in s {
            if inEscape {
                if ch == "m" { inEscape = false }
            } else if ch == "\u{1B}" {
                inEscape = true
            } else {
                out.append(ch)
            }
        }
        return out
    }

    @Test func everySegmentPointAndColonLit() {
        let lines = BigDigits.lines(for: Frame(text: "8.8.:8.8.", digits: 4))
        #expect(lines.count == BigDigits.height)
        // Per digit: a, g, d as four "━" each; b, c, e, f as one "┃" each; one point.
        #expect(count("━", in: lines) == 4 * 3 * 4)
        #expect(count("┃", in: lines) == 4 * 4)
        #expect(count("•", in: lines) == 4 + 2)
    }

    @Test func eightIsDrawnAsItsSevenSegments() {
        let lines = BigDigits.lines(for: Frame(text: "8.", digits: 1))
        #expect(lines == [
            " ━━━━",
            "┃    ┃",
            " ━━━━",
            "┃    ┃",
            " ━━━━ •",
        ])
    }

    @Test func oneLightsOnlyTheRightHandStrokes() {
        let lines = BigDigits.lines(for: Frame(text: "1", digits: 1))
        #expect(lines == ["", "     ┃", "", "     ┃", ""])
        #expect(count("━", in: lines) == 0)
        #expect(count("•", in: lines) == 0)
    }

    @Test func blankFrameDrawsNoStrokes() {
        for digits in [1, 4, 6, 8] {
            let lines = BigDigits.lines(for: .blank(digits: digits))
            #expect(lines.count == BigDigits.height)
            #expect(strokes(in: lines) == 0)
            #expect(lines.allSatisfy { $0.isEmpty })
        }
    }

    @Test func pictureFollowsSegmentBitsNotCharacters() {
        // "-" and "_" are single segments: g and d.
        let dash = BigDigits.lines(for: Frame(text: "-", digits: 1))
        #expect(dash == ["", "", " ━━━━", "", ""])
        let low = BigDigits.lines(for: Frame(text: "_", digits: 1))
        #expect(low == ["", "", "", "", " ━━━━"])
    }

    @Test func colonAppearsOnlyWhenLit() {
        let withColon = BigDigits.lines(for: Frame(text: "12:34", digits: 4))
        let without = BigDigits.lines(for: Frame(text: "1234", digits: 4))
        #expect(count("•", in: withColon) == 2)
        #expect(count("•", in: without) == 0)
        #expect(withColon[1].contains("•"))
        #expect(withColon[3].contains("•"))
        #expect(!withColon[0].contains("•") && !withColon[2].contains("•") && !withColon[4].contains("•"))
        // The colon has its own column, kept when dark: the digits stay put.
        #expect(withColon.map { $0.replacing("•", with: " ") } == without)
    }

    @Test func colonIsOnlyDrawnOnFourDigitFrames() {
        let lines = BigDigits.lines(for: Frame(text: "12:34:56", digits: 6))
        #expect(count("•", in: lines) == 0)
    }

    @Test func plainPicturesHaveNoEscapesOrTrailingSpaces() {
        for text in ["8.8.:8.8.", "12:34", "1", "    ", "0.23.45"] {
            let digits = text == "0.23.45" ? 8 : 4
            let lines = BigDigits.lines(for: Frame(text: text, digits: digits))
            #expect(!lines.joined().contains("\u{1B}"))
            #expect(lines.allSatisfy { !$0.hasSuffix(" ") })
        }
    }

    @Test func ansiWrapsLitAndDarkStrokes() {
        let lit = "\u{1B}[31m", dark = "\u{1B}[90m", reset = "\u{1B}[0m"
        let lines = BigDigits.lines(for: Frame(text: "1", digits: 1), lit: lit, dark: dark)
        #expect(lines[1] == dark + "┊" + reset + "    " + lit + "┃" + reset + " ")
        #expect(lines[4] == " " + dark + "┈┈┈┈" + reset + " " + dark + "·" + reset)
    }

    /// Unlit strokes are light dotted lines in the same places as the lit
    /// ones, so the shape shows faintly and a digit still reads right on a
    /// terminal that draws both in one colour.
    @Test func darkStrokesDrawTheWholeShapeInLightDottedLines() {
        let dark = "\u{1B}[90m"
        let full = BigDigits.lines(for: Frame(text: "8.8.:8.8.", digits: 4))
        let ghost = BigDigits.lines(for: .blank(digits: 4), dark: dark).map(stripped)
        let heavy = ghost.map { $0.replacing("┈", with: "━").replacing("┊", with: "┃").replacing("·", with: "•") }
        #expect(heavy.map { String($0.reversed().drop(while: { $0 == " " }).reversed()) } == full)
        #expect(!ghost.joined().contains("━") && !ghost.joined().contains("┃"))
        let one = BigDigits.lines(for: Frame(text: "1", digits: 1), lit: "\u{1B}[31m", dark: dark).map(stripped)
        #expect(one[1] == "┊    ┃ " && one[0].hasPrefix(" ┈┈┈┈ "))
        let lit = BigDigits.lines(for: Frame(text: "8.8.:8.8.", digits: 4), lit: "\u{1B}[31m", dark: dark)
        #expect(!lit.joined().contains(dark))
    }

    @Test func litWithoutDarkLeavesUnlitSegmentsBlank() {
        let lines = BigDigits.lines(for: Frame(text: "1", digits: 1), lit: "\u{1B}[31m")
        #expect(stripped(lines[1]) == "     ┃ ")
        #expect(stripped(lines[0]).allSatisfy { $0 == " " })
    }
}

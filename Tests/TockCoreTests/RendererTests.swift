import Testing
@testable import TockCore

@Suite struct RendererTests {
    let four = Renderer(digits: 4, brightness: 7)
    let eight = Renderer(digits: 8, brightness: 7)

    func text(_ r: Renderer, _ c: DisplayContent, moving: Bool = true) -> String {
        Frame(text: r.text(for: c, moving: moving), digits: r.digits).text
    }

    @Test func countDownRoundsUpSoZeroAppearsExactlyAtTheEnd() {
        #expect(text(four, .down(.seconds(300))) == "05:00")
        #expect(text(four, .down(.milliseconds(299_001))) == "05:00")
        #expect(text(four, .down(.milliseconds(1))) == "00:01")
        #expect(text(four, .down(.zero)) == "00:00")
    }

    @Test func countUpRoundsDown() {
        #expect(text(four, .up(.milliseconds(59_999))) == "00:59")
        #expect(text(four, .up(.seconds(5_999))) == "99:59")
    }

    @Test func hoursAndMinutesFromAHundredMinutesWithABlinkingColon() {
        // 1 h 40 min: `H:MM` with the hour unpadded, so it never reads as MM:SS.
        #expect(text(four, .up(.seconds(6_000))) == " 1:40")
        #expect(text(four, .up(.milliseconds(6_000_500))) == " 140")
        #expect(text(four, .up(.seconds(6_000)), moving: false) == " 1:40")
        #expect(text(four, .down(.seconds(36_000))) == "10:00")
        #expect(text(four, .down(.seconds(5_999))) == "99:59")
    }

    /// The seed stopwatch showed `60` seconds for a tick before rolling
    /// over; a derived value rolls over exactly.
    @Test func stopwatchShowsHundredthsUnderAMinuteAndRollsOverCleanly() {
        #expect(text(four, .stopwatch(.milliseconds(59_990))) == "59:99")
        #expect(text(four, .stopwatch(.seconds(60))) == "01:00")
        #expect(text(four, .stopwatch(.milliseconds(3_599_999))) == "59:59")
        #expect(text(four, .stopwatch(.seconds(3_600))) == "60:00")
        #expect(text(eight, .stopwatch(.milliseconds(23_450))) == "   0.23.45")
        #expect(text(eight, .stopwatch(.milliseconds(3_723_450))) == " 1.02.03.45")
    }

    @Test func calendarShowsDaysWhenFarOff() {
        #expect(text(four, .calendar(.seconds(3 * 86_400 + 4 * 3_600 - 1))) == "3d04")
        #expect(text(four, .calendar(.seconds(45 * 86_400))) == " 45d")
        #expect(text(four, .calendar(.seconds(86_399))) == "24:00")
        #expect(text(eight, .calendar(.seconds(12 * 86_400 + 4 * 3_600 + 30 * 60))) == "12d 04.30")
        #expect(text(four, .text("over")) == "over")
    }

    @Test func intervalMarksRestWithTheLastPoint() {
        #expect(text(four, .interval(.seconds(45), round: 3, of: 8, resting: false)) == "00:45")
        #expect(text(four, .interval(.seconds(10), round: 3, of: 8, resting: true)) == "00:10.")
        #expect(text(eight, .interval(.seconds(45), round: 3, of: 8, resting: true)) == " 3r 00.45")
    }

    @Test func nextChangeFollowsTheShownUnit() {
        #expect(four.timeToNextChange(of: .down(.milliseconds(299_250))) == .milliseconds(250))
        #expect(four.timeToNextChange(of: .down(.seconds(299))) == .seconds(1))
        #expect(four.timeToNextChange(of: .up(.milliseconds(1_250))) == .milliseconds(750))
        #expect(four.timeToNextChange(of: .stopwatch(.milliseconds(1_255))) == .milliseconds(5))
        #expect(four.timeToNextChange(of: .up(.milliseconds(7_200_200))) == .milliseconds(300))
        // Days view changes on the hour, and switches to H:MM on the second grid.
        #expect(four.timeToNextChange(of: .calendar(.seconds(2 * 86_400 + 1_800))) == .seconds(1_800))
        #expect(four.timeToNextChange(of: .calendar(.milliseconds(86_399_500))) == .milliseconds(500))
        #expect(four.timeToNextChange(of: .text("over")) == nil)
    }

    @Test func framesCarrySegmentsAndTraceNotation() {
        let f = Frame(text: "12:34", digits: 4)
        #expect(f.cells == ["1", "2", "3", "4"] && f.colon)
        #expect(f.segments(at: 0) == 0x06)
        let g = Frame(text: "1.5", digits: 4)
        #expect(g.text == "  1.5")
        #expect(g.segments(at: 2) == 0x86)
        #expect(Frame.blank(digits: 4).text == "    ")
    }

    @Test func rawSegmentFramesLightExactlyTheGivenBits() {
        let f = Frame.segments([0x02, 0x00, 0x80, 0x7F], colon: true)
        #expect((0..<4).map(f.segments(at:)) == [0x02, 0x00, 0x80, 0x7F])
        #expect(f.text == "? : .8")
    }

    @Test func everyGlyphDecodesBackToItself() {
        for (glyph, bits) in SevenSegmentFont.glyphs {
            #expect(SevenSegmentFont.glyph(for: bits) == glyph)
        }
    }

    @Test func blinkTogglesOnItsAnchor() {
        let b = Blink(anchor: at(10), on: .milliseconds(500), off: .milliseconds(500))
        #expect(b.isLit(at: at(10)) && !b.isLit(at: at(10.5)) && b.isLit(at: at(11)))
        #expect(b.nextToggle(after: at(10.2)) == at(10.5))
        #expect(b.nextToggle(after: at(10.5)) == at(11))
    }

    @Test func boundaryArithmetic() {
        #expect(timeToNextBoundary(of: .milliseconds(2_500), quantum: .seconds(1), increasing: true) == .milliseconds(500))
        #expect(timeToNextBoundary(of: .seconds(3), quantum: .seconds(1), increasing: true) == .seconds(1))
        #expect(timeToNextBoundary(of: .seconds(3), quantum: .seconds(1), increasing: false) == .seconds(1))
        #expect(timeToNextBoundary(of: .milliseconds(2_250), quantum: .seconds(1), increasing: false) == .milliseconds(250))
    }
}

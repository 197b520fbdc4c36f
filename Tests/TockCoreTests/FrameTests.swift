import Testing
@testable import TockCore

/// A frame is segment bits; its text is built from them when asked. These
/// hold the bits and the text to each other, and the renderer's count
/// frames (made without text) to the frames their text makes.
@Suite struct FrameTests {
    @Test(arguments: [4, 8])
    func countsMadeWithoutTextAreTheFramesTheirTextMakes(digits: Int) {
        let renderer = Renderer(digits: digits, brightness: 5)
        let values: [Duration] = [.zero, .nanoseconds(1), .milliseconds(999), .seconds(1), .milliseconds(59_500),
                                  .seconds(60), .seconds(600), .milliseconds(754_321), .seconds(5_999),
                                  .milliseconds(5_999_001), .seconds(6_000), .seconds(7_322), .seconds(-3)]
        for v in values {
            // (A stopwatch never shows a negative time: a lead-in is its own content.)
            for content in [DisplayContent.down(v), .up(v)] + (v >= .zero ? [.stopwatch(v)] : []) {
                for motion in [Presentation.Motion.monotonic, nil] {
                    let frame = renderer.frame(for: Presentation(content, motion: motion), at: .zero)
                    let text = renderer.text(for: content, moving: motion != nil)
                    #expect(frame == Frame(text: text, digits: digits, brightness: 5), "\(content)")
                    #expect(frame.text == Frame(text: text, digits: digits).text, "\(content)")
                }
            }
        }
        #expect(renderer.frame(for: Presentation(.down(.milliseconds(754_001))), at: .zero).text
                == (digits == 4 ? "12:35" : "    12.35"))
        // The stopwatch's hundredths, each one, and its minutes after.
        for cs in stride(from: Int64(0), to: 6_000, by: 7) + [5_999] {
            let content = DisplayContent.stopwatch(.milliseconds(cs * 10 + 3))
            let frame = renderer.frame(for: Presentation(content, motion: .monotonic), at: .zero)
            #expect(frame == Frame(text: renderer.text(for: content, moving: true), digits: digits, brightness: 5), "\(content)")
        }
        if digits == 4 { #expect(renderer.frame(for: Presentation(.stopwatch(.milliseconds(12_345))), at: .zero).text == "12:34") }
    }

    @Test func everyGlyphWithAndWithoutItsPointReadsBackAsItsText() {
        for (glyph, bits) in SevenSegmentFont.glyphs {
            #expect(Frame(text: String(glyph), digits: 6).text == "     \(glyph)")
            #expect(Frame(text: "\(glyph).", digits: 6).text == "     \(glyph).")
            let text = "8\(glyph):\(glyph).8"
            #expect(Frame(text: text, digits: 4).text == text)
            #expect(Frame(text: Frame(text: text, digits: 4).text, digits: 4) == Frame(text: text, digits: 4))
            let f = Frame(text: "\(glyph).", digits: 4)
            #expect(f.segments(at: 3) == bits | SevenSegmentFont.dp)
            #expect(f.cells == [" ", " ", " ", glyph] && f.points == [false, false, false, true])
        }
        #expect(Frame(text: "8.8.:8.8.", digits: 4).text == "8.8.:8.8.")
        #expect(Frame(text: ".", digits: 4).text == "    .")
        #expect(Frame(text: "12345.678", digits: 8).text == "12345.678")
    }

    @Test func theFontsSwitchesAreItsGlyphTable() {
        for code in 0...255 {
            let c = UInt8(code)
            #expect(SevenSegmentFont.segments(ascii: c) == SevenSegmentFont.glyphs[Character(Unicode.Scalar(c))])
            let shown = SevenSegmentFont.glyph(for: c)
            #expect(SevenSegmentFont.ascii(for: c) == shown.asciiValue, "pattern \(code)")
        }
        #expect(SevenSegmentFont.digitSegments == (0...9).map { SevenSegmentFont.glyphs[Character(String($0))]! })
        // The reverse switch turns the font round exactly: each glyph's
        // pattern reads back as that glyph, every other pattern as `?`.
        #expect(Set(SevenSegmentFont.glyphs.values).count == SevenSegmentFont.glyphs.count)
        #expect(SevenSegmentFont.glyphs.count == 33)
        for pattern in 0...127 {
            let p = UInt8(pattern)
            let glyph = SevenSegmentFont.glyphs.first { $0.value == p }?.key
            #expect(SevenSegmentFont.ascii(for: p) == (glyph ?? "?").asciiValue, "pattern \(pattern)")
        }
    }

    @Test func rawBitsKeepEveryPatternAndNameTheOnesThatAreNoGlyph() {
        for pattern in 0...255 {
            let bits = UInt8(pattern)
            let frame = Frame.segments([0, bits, 0x3F])
            #expect(frame.segments(at: 1) == bits)
            let glyph = SevenSegmentFont.glyph(for: bits)
            #expect(frame.text == " \(glyph)\(bits & 0x80 != 0 ? "." : "")0")
        }
        #expect(Frame.segments([0x01]) != Frame.segments([0x02]))
        #expect(Frame.segments([0x3F, 0x06]) == Frame(text: "01", digits: 2))
    }

    @Test func durationsAreWholeNanosecondsBothWays() {
        for n: Int64 in [0, 1, -1, 999_999_999, 1_000_000_000, -1_500_000_000, 86_400_000_000_000, Int64.max / 2, Int64.min / 2] {
            #expect(Duration.nanoseconds(n).nanoseconds == n)
            #expect(Duration.nanoseconds(n) == .nanoseconds(Int(n)))
        }
        #expect(Duration.milliseconds(-1_500).nanoseconds == -1_500_000_000)
        #expect(Duration.seconds(3).nanoseconds == 3_000_000_000)
        // Finer than a nanosecond is cut toward zero.
        #expect((Duration.nanoseconds(5) / 2).nanoseconds == 2)
        #expect((Duration.nanoseconds(-5) / 2).nanoseconds == -2)
        // The ends of Int64 and beyond the 64-bit division's reach, against the 128-bit one.
        for n: Int64 in [Int64.max, Int64.min + 1, Int64.max - 1, 1 << 62, -(1 << 62)] {
            #expect(Duration.nanoseconds(n).nanoseconds == n)
        }
        for atto: Int128 in [1, -1, 999_999_999, -999_999_999, 1_000_000_001, -1_000_000_001,
                             (Int128(1) << 64) - 1, Int128(1) << 64, -(Int128(1) << 64), Int128(Int64.max) * 1_000_000_000 + 999_999_999,
                             Int128(Int64.min + 1) * 1_000_000_000 - 999_999_999] {
            #expect(Duration(attoseconds: atto).nanoseconds == Int64(atto / 1_000_000_000), "\(atto)")
        }
        // Attoseconds of every size the two-step division takes (a high
        // word up to 10^9; nanoseconds that fit an Int64), each against
        // the 128-bit division.
        var x: UInt64 = 0x9E37_79B9_7F4A_7C15
        var wrong = 0
        for i in 0..<20_000 {
            x = x &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let high = (x >> 11) % [1, 1_000, 1_000_000, 999_999_999][i % 4]
            x = x &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let atto = Int128(high) << 64 | Int128(x)
            for a in [atto, -atto] {
                guard let expected = Int64(exactly: a / 1_000_000_000) else { continue }  // beyond Int64: traps, as it always did
                if Duration(attoseconds: a).nanoseconds != expected { wrong += 1 }
            }
        }
        #expect(wrong == 0)
    }
}

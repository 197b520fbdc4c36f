import Testing
import TockCore

/// Text from outside, as a log line quotes it: one line, nothing a
/// terminal or journalctl would act on, cut to a length.
@Suite struct LogTextTests {
    @Test func controlsBecomeVisibleEscapes() {
        #expect(LogText("EGG").description == "EGG")
        #expect(LogText("A\nB").description == #"A\nB"#)
        #expect(LogText("A\r\nB\tC").description == #"A\r\nB\tC"#)
        #expect(LogText("\u{1B}[31mRED\u{1B}[0m").description == #"\e[31mRED\e[0m"#)
        #expect(LogText("a\u{7F}b\u{0}c\u{7}").description == #"a\x7Fb\x00c\x07"#)
        #expect(LogText("back\\slash").description == #"back\\slash"#)
        // C1 controls (U+009B is a one-character CSI), line separators, bidi overrides.
        #expect(LogText("x\u{9B}31my").description == #"x\u{9B}31my"#)
        #expect(LogText("a\u{2028}b\u{202E}c").description == #"a\u{2028}b\u{202E}c"#)
        // Letters of every script and emoji are kept.
        #expect(LogText("Éclair 🍰 тайм").description == "Éclair 🍰 тайм")
    }

    @Test func invalidUTF8IsShownByteByByte() {
        #expect(LogText(bytes: [0x41, 0xFF, 0x42]).description == #"A\xFFB"#)
        #expect(LogText(bytes: [0xC0, 0x80]).description == #"\xC0\x80"#)  // overlong NUL
        #expect(LogText(bytes: [0xED, 0xA0, 0x80]).description == #"\xED\xA0\x80"#)  // a surrogate
        #expect(LogText(bytes: [0xE2, 0x82]).description == #"\xE2\x82"#)  // cut short
        #expect(LogText(bytes: [0xC3, 0xA9]).description == "é")
    }

    @Test func longTextIsCut() {
        let long = String(repeating: "A", count: 1_024)
        #expect(LogText(long).description == String(repeating: "A", count: 200) + "…(+824 bytes)")
        #expect(LogText("ABCDEF", limit: 3).description == "ABC…(+3 bytes)")
        // Escapes count as what they take on the line.
        #expect(LogText(String(repeating: "\n", count: 300)).description.count <= 200 + 20)
    }

    @Test func theLogHandlersPassKeepsItsOwnLineBreaks() {
        #expect(LogText.escape(Array("one\ntwo\u{1B}".utf8), keepNewlines: true) == "one\ntwo\\e")
        #expect(LogText.isPlain(Array("plain text".utf8)))
        #expect(!LogText.isPlain(Array("not\u{1B}".utf8)))
    }

    @Test func aLogLineEscapesEveryValueAndNoneOfItsOwnWords() {
        let name = "EGG\n<3>forged line\u{1B}[2J"
        let line: LogLine = "timer \(name) rang\nsecond line of our own (\(42))"
        #expect(line.description == #"timer EGG\n<3>forged line\e[2J rang"# + "\nsecond line of our own (42)")
        let payload: [UInt8] = [0x7B, 0xFF, 0x0A]
        #expect(("payload \(bytes: payload)" as LogLine).description == #"payload {\xFF\n"#)
        #expect(("problems:\n\(lines: "a: bad\nb: \u{1B}worse")" as LogLine).description == "problems:\na: bad\nb: \\eworse")
    }
}

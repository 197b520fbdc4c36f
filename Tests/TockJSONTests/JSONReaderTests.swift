import Testing
import TockJSON

/// The reader on hostile text: every refusal names what is wrong and the
/// byte where it was found.
@Suite struct JSONReaderTests {
    func refusal(_ text: [UInt8], limits: JSON.Limits = JSON.Limits()) -> JSONError? {
        do { _ = try JSON.parse(text, limits: limits); return nil } catch { return error }
    }

    func refusal(_ text: String, limits: JSON.Limits = JSON.Limits()) -> JSONError? { refusal(Array(text.utf8), limits: limits) }

    @Test func readsEveryKindAndKeepsKeyOrder() throws {
        let v = try JSON.parse(#" {"b":[1,-2,0.5,-1e3,true,false,null],"a":"x\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00","c":{}} "#)
        #expect(v.object?.keys == ["b", "a", "c"])
        #expect(v["b"] == [1, -2, 0.5, -1000.0, true, false, .null])
        #expect(v["a"]?.string == "x\"\\/\u{8}\u{C}\n\r\t\u{E9}\u{1F600}")
        #expect(v["c"] == .object(JSONObject()))
        #expect(try JSON.parse("3.0") == .double(3), "3.0 is no whole number")
        #expect(try JSON.parse("3").int == 3)
        #expect(try JSON.parse("3.0").int == nil)
        #expect(try JSON.parse("-0") == .int(0))
    }

    @Test func wholeNumbersAreExactToInt64AndRefusedBeyond() throws {
        #expect(try JSON.parse("9223372036854775807") == .int(.max))
        #expect(try JSON.parse("-9223372036854775808") == .int(.min))
        let over = try #require(refusal("[1,9223372036854775808]"))
        #expect(over.offset == 3)
        #expect(over.description.contains("whole number beyond"))
        #expect(refusal("-9223372036854775809")?.offset == 0)
        #expect(refusal("1" + String(repeating: "0", count: 100_000))?.problem.contains("whole number beyond") == true)
    }

    @Test func doublesBeyondRangeAreRefused() throws {
        #expect(try JSON.parse("1.7976931348623157e308") == .double(.greatestFiniteMagnitude))
        #expect(refusal(#"{"x":1e400}"#) == JSONError("a number beyond the range of a double", at: 5, field: "x"))
        #expect(refusal(#"{"x":{"level":1e400}}"#)?.description == #"a number beyond the range of a double in the field "level" at byte 14"#)
        #expect(refusal("-1e309")?.problem == "a number beyond the range of a double")
        #expect(try JSON.parse("1e-400") == .double(0), "underflow reads as zero")
    }

    @Test func malformedNumbersAreRefusedWhereTheyStart() {
        for (text, at) in [("01", 0), ("[-]", 1), ("1.", 0), ("1e", 0), ("1e+", 0), (".5", 0), ("+1", 0), ("[1,-01]", 3)] {
            #expect(refusal(text)?.offset == at, "\(text)")
        }
        #expect(refusal("NaN") != nil)
        #expect(refusal("Infinity") != nil)
    }

    @Test func aKeyGivenTwiceIsRefusedWhereItIsGivenAgain() throws {
        let e = try #require(refusal(#"{"op":"pause","op":"cancel"}"#))
        #expect(e == JSONError(#"the key "op" is given twice"#, at: 14))
        #expect(e.description == #"the key "op" is given twice at byte 14"#)
        #expect(refusal(#"{"a":{"k":1},"b":{"k":1}}"#) == nil, "the same key in two objects is fine")
        #expect(refusal(#"{"\u0061":1,"a":2}"#)?.offset == 12, "equal after escapes is equal")
    }

    @Test func invalidUTF8IsRefusedAtItsByte() {
        let cases: [([UInt8], Int)] = [
            ([0x22, 0xFF, 0x22], 1),                    // never in UTF-8
            ([0x22, 0x61, 0xC0, 0xAF, 0x22], 2),        // overlong "/"
            ([0x22, 0xE0, 0x80, 0xAF, 0x22], 1),        // overlong, three bytes
            ([0x22, 0xED, 0xA0, 0x80, 0x22], 1),        // an encoded surrogate (CESU)
            ([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], 1),  // past U+10FFFF
            ([0x22, 0xC3, 0x22], 1),                    // a lead byte without its continuation
            ([0x22, 0xE2, 0x82], 1),                    // cut at the end
            ([0x22, 0x80, 0x22], 1),                    // a lone continuation byte
        ]
        for (bytes, at) in cases {
            #expect(refusal(bytes) == JSONError("a string that is not UTF-8", at: at), "\(bytes)")
        }
        #expect((try? JSON.parse([0x22, 0xC3, 0xA9, 0xF0, 0x9F, 0x98, 0x80, 0x22])) == .string("\u{E9}\u{1F600}"))
        #expect(refusal([0xEF, 0xBB, 0xBF, 0x31])?.offset == 0, "no byte order mark")
    }

    @Test func loneSurrogatesInEscapesAreRefused() {
        #expect(refusal(#"["\ud800"]"#) == JSONError(#"a lone high surrogate (\ud800) in a string"#, at: 2))
        #expect(refusal(#""ab\udc00""#) == JSONError(#"a lone low surrogate (\udc00) in a string"#, at: 3))
        #expect(refusal(#""\ud800\u0041""#)?.offset == 1)
        #expect(refusal(#""\ud800\n""#)?.offset == 1)
        #expect(refusal(#""\ud83d\ud83d""#)?.offset == 1)
        #expect(refusal(#""\u12""#)?.problem == #"a \u escape needs four hex digits"#)
        #expect(refusal(#""\u+123""#) != nil)
        #expect(refusal(#""\x41""#)?.offset == 1)
        #expect((try? JSON.parse(#""\u0000\uFFFF""#)) == .string("\u{0}\u{FFFF}"))
    }

    @Test func rawControlCharactersAndUnclosedStringsAreRefused() {
        #expect(refusal("\"a\nb\"")?.offset == 2)
        #expect(refusal("\"a\u{1}\"")?.problem.contains("control character") == true)
        #expect(refusal("\"abc")?.problem == "the text ends inside a string (no closing quote)")
        #expect(refusal("\"abc\\")?.offset == 5)
    }

    @Test func nestingIsLimitedAndAFloodIsRefusedAtTheFirstLevelTooMany() throws {
        let deep = String(repeating: "[", count: 32) + String(repeating: "]", count: 32)
        #expect(refusal(deep) == nil)
        let flood = [UInt8](repeating: UInt8(ascii: "["), count: 1 << 20)
        #expect(refusal(flood) == JSONError("lists and objects nested deeper than 32", at: 32))
        let objects = String(repeating: #"{"a":"#, count: 100_000)
        #expect(refusal(objects)?.offset == 32 * 5)
        #expect(refusal("[[1]]", limits: JSON.Limits(maxDepth: 1))?.offset == 1)
    }

    @Test func theSizeIsLimitedAndAStringOfAMebibyteReadsWhenAllowed() throws {
        let mib = 1 << 20
        let big = "\"" + String(repeating: "é", count: mib / 2) + "\""
        #expect(refusal(big) == JSONError("text larger than 1048576 bytes", at: mib))
        let v = try JSON.parse(big, limits: JSON.Limits(maxBytes: 2 * mib))
        #expect(v.string?.utf8.count == mib)
        let escaped = "\"" + String(repeating: #"\n"#, count: mib / 2) + "\""
        #expect(try JSON.parse(escaped, limits: JSON.Limits(maxBytes: 2 * mib)).string?.utf8.count == mib / 2)
        let wide = "[" + Array(repeating: "0", count: mib / 4).joined(separator: ",") + "]"
        #expect(try JSON.parse(wide, limits: JSON.Limits(maxBytes: mib)).array?.count == mib / 4)
    }

    @Test func structureErrorsSayWhatWasExpectedAndWhere() {
        let cases: [(String, JSONError)] = [
            ("", JSONError("the text ends where a value is expected", at: 0)),
            ("   ", JSONError("the text ends where a value is expected", at: 3)),
            ("{\"a\":1} x", JSONError("text after the JSON value", at: 8)),
            ("{\"a\" 1}", JSONError("expected \":\"", at: 5)),
            ("{\"a\":1,}", JSONError("expected a key (a string) in an object", at: 7)),
            ("{a:1}", JSONError("expected a key (a string) in an object", at: 1)),
            ("[1 2]", JSONError("expected \",\" or \"]\" in a list", at: 3)),
            ("[1,", JSONError("the text ends where a value is expected", at: 3)),
            ("{\"a\":1", JSONError("the text ends inside an object", at: 6)),
            ("[1", JSONError("the text ends inside a list", at: 2)),
            ("tru", JSONError("not a JSON value", at: 0)),
            ("[nul]", JSONError("not a JSON value", at: 1)),
            ("'a'", JSONError("not a JSON value", at: 0)),
        ]
        for (text, error) in cases { #expect(refusal(text) == error, "\(text)") }
    }
}

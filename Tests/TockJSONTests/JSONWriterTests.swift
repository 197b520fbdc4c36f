import Testing
import TockJSON

/// The writer's two styles, byte for byte: `.plain` is what the socket,
/// MQTT and the page have always been sent; `.encoder` what the state file
/// and a group's message have always held (Foundation's JSONEncoder with
/// sorted keys).
@Suite struct JSONWriterTests {
    @Test func keysAreSortedByTheirBytesAndNothingIsSpaced() {
        let v: JSON = ["b": 1, "a": [true, false, .null], "B": "x", "é": 2, "aa": ["z": 1, "y": 2]]
        #expect(v.text() == #"{"B":"x","a":[true,false,null],"aa":{"y":2,"z":1},"b":1,"é":2}"#)
        #expect(v.text(JSON.Style(escapesSlash: false, shortEscapesForAll: false, sortsKeys: false))
                == #"{"b":1,"a":[true,false,null],"B":"x","é":2,"aa":{"z":1,"y":2}}"#)
    }

    @Test func stringsAreEscapedAsEachStyleAlwaysWas() {
        let s = JSON.string("a/b\"c\\d\n\r\t\u{8}\u{C}\u{1}\u{1F}\u{7F}é😀")
        #expect(s.text(.plain) == #""a/b\"c\\d\n\r\t\u0008\u000c\u0001\u001f"# + "\u{7F}é😀\"")
        #expect(s.text(.encoder) == #""a\/b\"c\\d\n\r\t\b\f\u0001\u001f"# + "\u{7F}é😀\"")
    }

    @Test func numbersAreWrittenExactly() {
        #expect(JSON.int(.max).text() == "9223372036854775807")
        #expect(JSON.int(.min).text() == "-9223372036854775808")
        #expect(JSON.double(0.5).text() == "0.5")
        #expect(JSON.double(1).text() == "1.0")
        #expect(JSON.double(1e300).text() == "1e+300")
        #expect(JSON.double(.nan).text() == "null")
        #expect(JSON.double(-.infinity).text() == "null")
    }

    /// tock-web's token list as `JSONEncoder` with `.prettyPrinted` and
    /// `.sortedKeys` wrote it (checked against it byte for byte).
    @Test func thePrettyStyleIsTheEncodersPrettyText() {
        let list: JSON = [["token": "00ff", "name": "Mozilla/5.0", "id": "a1", "created": 1_800_000_000]]
        #expect(list.text(.encoderPretty) == "[\n  {\n    \"created\" : 1800000000,\n    \"id\" : \"a1\",\n    \"name\" : \"Mozilla\\/5.0\",\n    \"token\" : \"00ff\"\n  }\n]")
        #expect(JSON.array([]).text(.encoderPretty) == "[\n\n]")
    }

    @Test func whatIsWrittenReadsBackEqual() throws {
        let v: JSON = ["s": "a/\u{0}\u{1F600}\"", "n": -12, "d": 0.25, "l": [[], [:], .null], "o": ["k": false]]
        for style in [JSON.Style.plain, .encoder] {
            #expect(try JSON.parse(v.bytes(style)) == v)
        }
    }

    @Test func objectsCompareByTheirFieldsInAnyOrder() {
        var a = JSONObject()
        a["x"] = 1
        a["y"] = "2"
        let b: JSONObject = ["y": "2", "x": 1]
        #expect(a == b)
        a["x"] = nil
        #expect(a.keys == ["y"])
        a.set("z", Int?.none)
        a.set("w", 3)
        #expect(a.keys == ["y", "w"])
        a["y"] = true
        #expect(a.keys == ["y", "w"], "a value set again stays where it was")
        #expect(JSONObject([("k", 1), ("k", 2)])["k"] == 2)
    }
}

import Testing
import TockJSON

/// `Decodable` read from a `JSON` value: the fields the state file and a
/// group's message declare, each failure a `DecodingError` at its path.
@Suite struct JSONDecodingTests {
    struct Record: Decodable, Equatable {
        var name: String
        var n: Int32
        var big: Int64
        var ratio: Double
        var on: Bool
        var list: [UInt8]
        var inner: Inner?
        struct Inner: Decodable, Equatable { var at: [String] }
    }

    func path(_ text: String) -> String? {
        do { _ = try JSON.decode(Record.self, from: Array(text.utf8)); return nil } catch let e as DecodingError {
            switch e {
            case .typeMismatch(_, let c), .valueNotFound(_, let c), .dataCorrupted(let c): return c.codingPath.map(\.stringValue).joined(separator: ".") + ": " + c.debugDescription
            case .keyNotFound(let k, _): return "no \(k.stringValue)"
            @unknown default: return "\(e)"
            }
        } catch { return "not a DecodingError: \(error)" }
    }

    let good = #"{"name":"a","n":-5,"big":9223372036854775807,"ratio":1,"on":true,"list":[0,255],"inner":{"at":["x"]},"extra":[{}]}"#

    @Test func aRecordReadsFieldByFieldAndUnknownFieldsArePassedOver() throws {
        let r = try JSON.decode(Record.self, from: Array(good.utf8))
        #expect(r == Record(name: "a", n: -5, big: .max, ratio: 1, on: true, list: [0, 255], inner: .init(at: ["x"])))
        #expect(try JSON.decode(Record.self, from: Array(good.replacingNull("inner").utf8)).inner == nil)
    }

    @Test func eachWrongFieldIsNamedByItsPath() {
        #expect(path(good.replacing(#""n":-5"#, with: #""n":2147483648"#)) == "n: 2147483648 does not fit Int32")
        #expect(path(good.replacing(#""n":-5"#, with: #""n":-5.0"#)) == "n: a number where a whole number is expected")
        #expect(path(good.replacing(#""on":true"#, with: #""on":1"#)) == "on: a number where true or false is expected")
        #expect(path(good.replacing(#"[0,255]"#, with: #"[0,256]"#)) == "list.1: 256 does not fit UInt8")
        #expect(path(good.replacing(#"["x"]"#, with: #"["x",null]"#)) == "inner.at.1: null where a value is expected")
        #expect(path(good.replacing(#""name":"a","#, with: "")) == "no name")
        #expect(path(good.replacing(#""name":"a""#, with: #""name":{}"#)) == "name: an object where a string is expected")
        #expect(path("[]") == ": a list where an object is expected")
        #expect(path(good + " x") == ": text after the JSON value at byte \(good.utf8.count + 1)")
    }
}

extension String {
    func replacingNull(_ key: String) -> String {
        guard let start = firstRange(of: "\"\(key)\":") else { return self }
        let rest = self[start.upperBound...]
        guard let end = rest.firstIndex(of: "}") else { return self }
        return String(self[..<start.upperBound]) + "null" + String(rest[rest.index(after: end)...])
    }
}

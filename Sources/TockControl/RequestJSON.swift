/// The JSON of one control request: a flat object of strings, numbers,
/// booleans and nulls, read strictly (RFC 8259). Foundation's reader
/// takes the last of two equal keys and hands a `true` out as the number
/// 1, so `{"cmd":"alarm","op":"rm","n":true}` removed alarm 1; here a
/// repeated key is refused, and a number is a number.
public enum RequestJSON {
    public enum Value: Equatable, Sendable {
        case string(String)
        /// The number's own text (`12`, `-0.5e3`).
        case number(String)
        case bool(Bool)
        case null

        public var string: String? { if case .string(let s) = self { s } else { nil } }

        /// A whole number written as one (`3`, not `3.0` or `true`).
        public var int: Int? {
            guard case .number(let text) = self, text.allSatisfy({ $0 == "-" || $0.isASCII && $0.isNumber }) else { return nil }
            return Int(text)
        }
    }

    public struct Invalid: Error, Equatable, CustomStringConvertible {
        public var description: String
    }

    public static func object(_ bytes: [UInt8]) throws(Invalid) -> [String: Value] {
        var r = Reader(bytes: bytes)
        r.space()
        try r.expect(UInt8(ascii: "{"))
        var fields: [String: Value] = [:]
        r.space()
        if r.peek == UInt8(ascii: "}") {
            r.i += 1
        } else {
            while true {
                r.space()
                let key = try r.string()
                guard fields[key] == nil else { throw Invalid(description: "the field \"\(key.prefix(32))\" is given twice") }
                r.space()
                try r.expect(UInt8(ascii: ":"))
                r.space()
                fields[key] = try r.value()
                r.space()
                if r.peek == UInt8(ascii: ",") { r.i += 1; continue }
                try r.expect(UInt8(ascii: "}"))
                break
            }
        }
        r.space()
        guard r.i == bytes.count else { throw Invalid(description: "text after the object") }
        return fields
    }

    private struct Reader {
        let bytes: [UInt8]
        var i = 0

        var peek: UInt8? { i < bytes.count ? bytes[i] : nil }

        mutating func space() {
            while let c = peek, c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D { i += 1 }
        }

        mutating func expect(_ c: UInt8) throws(Invalid) {
            guard peek == c else { throw Invalid(description: "expected \"\(Character(Unicode.Scalar(c)))\" at byte \(i)") }
            i += 1
        }

        mutating func value() throws(Invalid) -> Value {
            guard let c = peek else { throw Invalid(description: "a value missing at the end") }
            switch c {
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try word("true"); return .bool(true)
            case UInt8(ascii: "f"): try word("false"); return .bool(false)
            case UInt8(ascii: "n"): try word("null"); return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
            case UInt8(ascii: "{"), UInt8(ascii: "["): throw Invalid(description: "a request's fields are plain values, not lists or objects")
            default: throw Invalid(description: "not a JSON value at byte \(i)")
            }
        }

        mutating func word(_ w: String) throws(Invalid) {
            for c in w.utf8 { try expect(c) }
        }

        mutating func number() throws(Invalid) -> String {
            let start = i
            if peek == UInt8(ascii: "-") { i += 1 }
            if peek == UInt8(ascii: "0") { i += 1 } else if digits() == 0 { throw Invalid(description: "not a number at byte \(start)") }
            if let c = peek, c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9") {
                throw Invalid(description: "a number with a leading zero at byte \(start)")
            }
            if peek == UInt8(ascii: ".") {
                i += 1
                guard digits() > 0 else { throw Invalid(description: "not a number at byte \(start)") }
            }
            if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
                i += 1
                if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { i += 1 }
                guard digits() > 0 else { throw Invalid(description: "not a number at byte \(start)") }
            }
            return String(decoding: bytes[start..<i], as: UTF8.self)
        }

        mutating func digits() -> Int {
            let start = i
            while let c = peek, c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9") { i += 1 }
            return i - start
        }

        mutating func string() throws(Invalid) -> String {
            try expect(UInt8(ascii: "\""))
            var scalars = String.UnicodeScalarView()
            var utf8: [UInt8] = []
            func flush() throws(Invalid) {
                guard !utf8.isEmpty else { return }
                guard let s = String(validating: utf8, as: UTF8.self) else { throw Invalid(description: "a string that is not UTF-8") }
                scalars.append(contentsOf: s.unicodeScalars)
                utf8 = []
            }
            while true {
                guard let c = peek else { throw Invalid(description: "a string without its closing quote") }
                i += 1
                switch c {
                case UInt8(ascii: "\""):
                    try flush()
                    return String(scalars)
                case UInt8(ascii: "\\"):
                    try flush()
                    scalars.append(try escape())
                case 0..<0x20:
                    throw Invalid(description: "a control character inside a string (escape it)")
                default:
                    utf8.append(c)
                }
            }
        }

        mutating func escape() throws(Invalid) -> Unicode.Scalar {
            guard let c = peek else { throw Invalid(description: "a string without its closing quote") }
            i += 1
            switch c {
            case UInt8(ascii: "\""): return "\""
            case UInt8(ascii: "\\"): return "\\"
            case UInt8(ascii: "/"): return "/"
            case UInt8(ascii: "b"): return "\u{8}"
            case UInt8(ascii: "f"): return "\u{C}"
            case UInt8(ascii: "n"): return "\n"
            case UInt8(ascii: "r"): return "\r"
            case UInt8(ascii: "t"): return "\t"
            case UInt8(ascii: "u"):
                let high = try hex4()
                if (0xD800..<0xDC00).contains(high) {
                    try expect(UInt8(ascii: "\\"))
                    try expect(UInt8(ascii: "u"))
                    let low = try hex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw Invalid(description: "a lone surrogate in a string") }
                    return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
                }
                guard let s = Unicode.Scalar(high) else { throw Invalid(description: "a lone surrogate in a string") }
                return s
            default:
                throw Invalid(description: "an unknown escape in a string")
            }
        }

        mutating func hex4() throws(Invalid) -> UInt32 {
            guard i + 4 <= bytes.count, let v = UInt32(String(decoding: bytes[i..<i + 4], as: UTF8.self), radix: 16),
                  bytes[i..<i + 4].allSatisfy({ $0 != UInt8(ascii: "+") && $0 != UInt8(ascii: "-") }) else {
                throw Invalid(description: "a \\u escape needs four hex digits")
            }
            i += 4
            return v
        }
    }
}

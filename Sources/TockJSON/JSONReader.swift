/// Why a text is not the JSON asked for, and where: `problem` names what is
/// wrong, `offset` the byte (from 0) where the reader found it, `field` the
/// key of the innermost object field whose value it is in (nil outside one).
public struct JSONError: Error, Equatable, CustomStringConvertible {
    public var problem: String
    public var offset: Int
    public var field: String?

    public init(_ problem: String, at offset: Int, field: String? = nil) {
        (self.problem, self.offset, self.field) = (problem, offset, field)
    }

    public var description: String {
        let inField = field.map { " in the field \(JSON.quoted(String($0.prefix(32))))" } ?? ""
        return "\(problem)\(inField) at byte \(offset)"
    }
}

extension JSON {
    /// What the reader accepts at most. The text as a whole is bounded by
    /// `maxBytes` (so is every string in it); arrays and objects nest at
    /// most `maxDepth` deep (a flood of `[` is refused at the first one too
    /// many, before the stack is at risk).
    public struct Limits: Sendable, Equatable {
        public var maxBytes: Int
        public var maxDepth: Int

        public init(maxBytes: Int = 1 << 20, maxDepth: Int = 32) { (self.maxBytes, self.maxDepth) = (maxBytes, maxDepth) }
    }

    /// Reads one JSON value, strictly (RFC 8259): nothing but white space
    /// around it; strings valid UTF-8 without raw control characters, and
    /// no `\u` escape a lone half of a surrogate pair; a key given twice in
    /// one object is refused (no first or last wins); a whole number beyond
    /// Int64, or any number beyond Double's range, is refused rather than
    /// rounded.
    public static func parse(_ bytes: [UInt8], limits: Limits = Limits()) throws(JSONError) -> JSON {
        guard bytes.count <= limits.maxBytes else { throw JSONError("text larger than \(limits.maxBytes) bytes", at: limits.maxBytes) }
        var r = JSONReader(bytes: bytes, maxDepth: limits.maxDepth)
        r.space()
        let v = try r.value(depth: 0)
        r.space()
        guard r.i == bytes.count else { throw JSONError("text after the JSON value", at: r.i) }
        return v
    }

    public static func parse(_ text: String, limits: Limits = Limits()) throws(JSONError) -> JSON {
        try parse(Array(text.utf8), limits: limits)
    }
}

struct JSONReader {
    let bytes: [UInt8]
    let maxDepth: Int
    var i = 0

    init(bytes: [UInt8], maxDepth: Int) { (self.bytes, self.maxDepth) = (bytes, maxDepth) }

    var peek: UInt8? { i < bytes.count ? bytes[i] : nil }

    mutating func space() {
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0A || bytes[i] == 0x0D { i += 1 }
    }

    func fail(_ problem: String, at offset: Int? = nil) -> JSONError { JSONError(problem, at: offset ?? i) }

    mutating func expect(_ c: UInt8) throws(JSONError) {
        guard peek == c else {
            throw fail(peek == nil ? "the text ends where \"\(Character(Unicode.Scalar(c)))\" is expected" : "expected \"\(Character(Unicode.Scalar(c)))\"")
        }
        i += 1
    }

    mutating func value(depth: Int) throws(JSONError) -> JSON {
        guard let c = peek else { throw fail("the text ends where a value is expected") }
        switch c {
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try word("true"); return .bool(true)
        case UInt8(ascii: "f"): try word("false"); return .bool(false)
        case UInt8(ascii: "n"): try word("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            guard depth < maxDepth else { throw fail("lists and objects nested deeper than \(maxDepth)") }
            if c == UInt8(ascii: "[") { return try array(depth: depth + 1) }
            return try object(depth: depth + 1)
        default: throw fail("not a JSON value")
        }
    }

    mutating func array(depth: Int) throws(JSONError) -> JSON {
        i += 1
        var items: [JSON] = []
        space()
        if peek == UInt8(ascii: "]") { i += 1; return .array(items) }
        while true {
            space()
            items.append(try value(depth: depth))
            space()
            if peek == UInt8(ascii: ",") { i += 1; continue }
            guard peek == UInt8(ascii: "]") else { throw fail(peek == nil ? "the text ends inside a list" : "expected \",\" or \"]\" in a list") }
            i += 1
            return .array(items)
        }
    }

    mutating func object(depth: Int) throws(JSONError) -> JSON {
        i += 1
        var o = JSONObject()
        var seen: Set<String> = []
        space()
        if peek == UInt8(ascii: "}") { i += 1; return .object(o) }
        while true {
            space()
            let at = i
            guard peek == UInt8(ascii: "\"") else { throw fail(peek == nil ? "the text ends inside an object" : "expected a key (a string) in an object") }
            let key = try string()
            guard seen.insert(key).inserted else { throw fail("the key \(JSON.quoted(String(key.prefix(32)))) is given twice", at: at) }
            space()
            try expect(UInt8(ascii: ":"))
            space()
            do { o.append(key, try value(depth: depth)) } catch {
                var e = error
                if e.field == nil { e.field = key }
                throw e
            }
            space()
            if peek == UInt8(ascii: ",") { i += 1; continue }
            guard peek == UInt8(ascii: "}") else { throw fail(peek == nil ? "the text ends inside an object" : "expected \",\" or \"}\" in an object") }
            i += 1
            return .object(o)
        }
    }

    mutating func word(_ w: StaticString) throws(JSONError) {
        let start = i
        for k in 0..<w.utf8CodeUnitCount {
            guard peek == w.utf8Start[k] else { throw fail("not a JSON value", at: start) }
            i += 1
        }
    }

    mutating func number() throws(JSONError) -> JSON {
        let start = i
        if peek == UInt8(ascii: "-") { i += 1 }
        if peek == UInt8(ascii: "0") {
            i += 1
            if let c = peek, c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9") { throw fail("a number with a leading zero", at: start) }
        } else if digits() == 0 { throw fail("not a number", at: start) }
        var whole = true
        if peek == UInt8(ascii: ".") {
            i += 1
            whole = false
            guard digits() > 0 else { throw fail("a number without digits after its point", at: start) }
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            i += 1
            whole = false
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { i += 1 }
            guard digits() > 0 else { throw fail("a number without digits in its exponent", at: start) }
        }
        let text = String(decoding: bytes[start..<i], as: UTF8.self)
        if whole {
            guard let n = Int64(text) else { throw fail("a whole number beyond \(Int64.min)...\(Int64.max)", at: start) }
            return .int(n)
        }
        guard let d = Double(text), d.isFinite else { throw fail("a number beyond the range of a double", at: start) }
        return .double(d)
    }

    mutating func digits() -> Int {
        let start = i
        while i < bytes.count, bytes[i] >= UInt8(ascii: "0"), bytes[i] <= UInt8(ascii: "9") { i += 1 }
        return i - start
    }

    /// A string: its UTF-8 checked byte by byte (overlong forms, encoded
    /// surrogates and code points past U+10FFFF refused), escapes decoded.
    mutating func string() throws(JSONError) -> String {
        i += 1
        var out: [UInt8] = []
        while true {
            guard i < bytes.count else { throw fail("the text ends inside a string (no closing quote)") }
            let c = bytes[i]
            switch c {
            case UInt8(ascii: "\""):
                i += 1
                return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                i += 1
                let s = try escape()
                out.append(contentsOf: String(Character(s)).utf8)
            case 0..<0x20:
                throw fail("a control character inside a string (write it as an escape such as \\n or \\u0001)")
            case 0x20..<0x80:
                out.append(c)
                i += 1
            default:
                let n = try utf8Sequence()
                out.append(contentsOf: bytes[i..<i + n])
                i += n
            }
        }
    }

    /// The length of the valid UTF-8 sequence at `i` (its lead byte ≥ 0x80).
    func utf8Sequence() throws(JSONError) -> Int {
        let lead = bytes[i]
        let (n, low, high): (Int, UInt8, UInt8) = switch lead {
        case 0xC2...0xDF: (2, 0x80, 0xBF)
        case 0xE0: (3, 0xA0, 0xBF)
        case 0xED: (3, 0x80, 0x9F)
        case 0xE1...0xEF: (3, 0x80, 0xBF)
        case 0xF0: (4, 0x90, 0xBF)
        case 0xF1...0xF3: (4, 0x80, 0xBF)
        case 0xF4: (4, 0x80, 0x8F)
        default: (0, 0, 0)
        }
        guard n > 0, i + n <= bytes.count else { throw fail("a string that is not UTF-8") }
        guard (low...high).contains(bytes[i + 1]) else { throw fail("a string that is not UTF-8") }
        for k in 2..<max(n, 2) where !(0x80...0xBF).contains(bytes[i + k]) { throw fail("a string that is not UTF-8") }
        return n
    }

    mutating func escape() throws(JSONError) -> Unicode.Scalar {
        let at = i - 1
        guard let c = peek else { throw fail("the text ends inside a string (no closing quote)") }
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
            if (0xDC00..<0xE000).contains(high) { throw fail("a lone low surrogate (\\u\(String(high, radix: 16))) in a string", at: at) }
            guard (0xD800..<0xDC00).contains(high) else { return Unicode.Scalar(high)! }
            guard peek == UInt8(ascii: "\\"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "u") else {
                throw fail("a lone high surrogate (\\u\(String(high, radix: 16))) in a string", at: at)
            }
            i += 2
            let low = try hex4()
            guard (0xDC00..<0xE000).contains(low) else { throw fail("a lone high surrogate (\\u\(String(high, radix: 16))) in a string", at: at) }
            return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
        default:
            throw fail("an unknown escape in a string (\\\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t or \\uXXXX)", at: at)
        }
    }

    mutating func hex4() throws(JSONError) -> UInt32 {
        var v: UInt32 = 0
        for _ in 0..<4 {
            let d: UInt32
            switch peek {
            case let c? where c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9"): d = UInt32(c - UInt8(ascii: "0"))
            case let c? where c >= UInt8(ascii: "a") && c <= UInt8(ascii: "f"): d = UInt32(c - UInt8(ascii: "a") + 10)
            case let c? where c >= UInt8(ascii: "A") && c <= UInt8(ascii: "F"): d = UInt32(c - UInt8(ascii: "A") + 10)
            default: throw fail("a \\u escape needs four hex digits")
            }
            v = v << 4 | d
            i += 1
        }
        return v
    }
}

extension JSON {
    /// Reads a text that must be one JSON object.
    public static func object(_ bytes: [UInt8], limits: Limits = Limits()) throws(JSONError) -> JSONObject {
        let v = try parse(bytes, limits: limits)
        guard let o = v.object else {
            var start = 0
            while start < bytes.count, bytes[start] == 0x20 || bytes[start] == 0x09 || bytes[start] == 0x0A || bytes[start] == 0x0D { start += 1 }
            throw JSONError("\(v.kind) where an object is expected", at: start)
        }
        return o
    }
}

/// The part of TOML (v1.0.0) that Raspberry Pi Imager writes in
/// rpi-preseed.toml: `[table]` headers, `key = value` with a bare key, and
/// values that are strings (basic, with TOML's escapes, or literal),
/// booleans, integers and arrays of those over several lines; `#`
/// comments. Anything else is a mistake with its line, not a guess. One
/// pass over the bytes.
///
/// Not a full TOML library: LebJe/TOMLKit 0.6.0 (toml++, 18,153 lines of
/// C++ headers) added 536 KiB to a stripped x86_64 release executable,
/// libstdc++ to its libraries and 25 s of CPU to its release build, for
/// a file of four tables that Imager writes.
struct PreseedReader {
    enum Value: Equatable {
        case string([UInt8])
        case bool(Bool)
        case integer(Int)
        case array([Value])
    }

    struct Entry: Equatable {
        var table: String
        var key: String
        var value: Value
        var line: Int
    }

    struct Failure: Error, Equatable {
        var line: Int
        var message: String
    }

    private let b: [UInt8]
    private var i = 0
    private var line = 1

    init(_ bytes: [UInt8]) {
        b = bytes
        if b.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
    }

    static func entries(_ bytes: [UInt8]) -> Result<[Entry], Failure> {
        var r = PreseedReader(bytes)
        do { return .success(try r.document()) } catch let f as Failure { return .failure(f) } catch { return .failure(Failure(line: 0, message: "\(error)")) }
    }

    private var peek: UInt8? { i < b.count ? b[i] : nil }

    private mutating func fail(_ m: String) -> Failure { Failure(line: line, message: m) }

    /// Spaces and tabs, and a comment up to the line's end.
    private mutating func blank() {
        while let c = peek, c == 0x20 || c == 0x09 { i += 1 }
        if peek == UInt8(ascii: "#") { while let c = peek, c != 0x0A { i += 1 } }
    }

    private mutating func endOfLine() throws {
        blank()
        if peek == 0x0D { i += 1 }
        guard let c = peek else { return }
        guard c == 0x0A else { throw fail("more after the value: \(VisibleText.quoted(b[i..<min(b.count, i + 20)]))") }
        i += 1
        line += 1
    }

    private mutating func document() throws -> [Entry] {
        var out: [Entry] = []
        var table = ""
        var seen = Set<String>()
        while i < b.count {
            blank()
            guard let c = peek else { break }
            if c == 0x0A || c == 0x0D { try endOfLine(); continue }
            if c == UInt8(ascii: "[") {
                i += 1
                table = String(decoding: bareKey(), as: UTF8.self)
                guard peek == UInt8(ascii: "]"), !table.isEmpty else { throw fail("a table header is [name]") }
                i += 1
                guard seen.insert("[\(table)]").inserted else { throw fail("[\(table)] appears twice") }
                try endOfLine()
                continue
            }
            let at = line
            let key = String(decoding: bareKey(), as: UTF8.self)
            guard !key.isEmpty else { throw fail("\(VisibleText.quoted(b[i..<min(b.count, i + 20)])) is not key = value") }
            blank()
            guard peek == UInt8(ascii: "=") else { throw fail("\"\(key)\" has no = after it") }
            i += 1
            blank()
            let v = try value()
            guard seen.insert("\(table).\(key)").inserted else { throw Failure(line: at, message: "\(key) is set twice in [\(table)]") }
            out.append(Entry(table: table, key: key, value: v, line: at))
            try endOfLine()
        }
        return out
    }

    private mutating func bareKey() -> ArraySlice<UInt8> {
        let s = i
        while let c = peek, HostName.allowed(c) || c == UInt8(ascii: "_") { i += 1 }
        return b[s..<i]
    }

    private mutating func value() throws -> Value {
        guard let c = peek else { throw fail("a value is missing") }
        switch c {
        case UInt8(ascii: "\""): return .string(try basicString())
        case UInt8(ascii: "'"):
            i += 1
            let s = i
            while let d = peek, d != UInt8(ascii: "'"), d != 0x0A { i += 1 }
            guard peek == UInt8(ascii: "'") else { throw fail("a '...' string ends on its line") }
            i += 1
            return .string(Array(b[s..<(i - 1)]))
        case UInt8(ascii: "["):
            i += 1
            var items: [Value] = []
            while true {
                try arraySpace()
                if peek == UInt8(ascii: "]") { i += 1; return .array(items) }
                items.append(try value())
                try arraySpace()
                if peek == UInt8(ascii: ",") { i += 1; continue }
                guard peek == UInt8(ascii: "]") else { throw fail("an array's items are separated by commas and end with ]") }
            }
        default:
            let word = bareKey()
            switch String(decoding: word, as: UTF8.self) {
            case "true": return .bool(true)
            case "false": return .bool(false)
            case let w where !w.isEmpty && w.utf8.count <= 18 && w.utf8.allSatisfy({ (0x30...0x39).contains($0) }) && (w == "0" || !w.hasPrefix("0")):
                return .integer(Int(w)!)
            default: throw fail("\(VisibleText.quoted(word.isEmpty ? b[i..<min(b.count, i + 20)] : word)) is not a value this file may hold (a \"string\", true, false, a number, an [array])")
            }
        }
    }

    /// Inside an array: spaces, comments and line ends.
    private mutating func arraySpace() throws {
        while true {
            blank()
            if peek == 0x0D { i += 1 }
            guard peek == 0x0A else { return }
            i += 1
            line += 1
        }
    }

    private mutating func basicString() throws -> [UInt8] {
        i += 1
        var out: [UInt8] = []
        while let c = peek {
            i += 1
            switch c {
            case UInt8(ascii: "\""): return out
            case 0x0A: throw fail("a \"...\" string ends on its line")
            case UInt8(ascii: "\\"):
                guard let e = peek else { break }
                i += 1
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(e)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "u"), UInt8(ascii: "U"):
                    let n = e == UInt8(ascii: "u") ? 4 : 8
                    guard i + n <= b.count, let v = UInt32(String(decoding: b[i..<(i + n)], as: UTF8.self), radix: 16),
                          let s = Unicode.Scalar(v) else { throw fail("\\\(Character(Unicode.Scalar(e))) is followed by \(n) hex digits of a character") }
                    i += n
                    out += Array(String(Character(s)).utf8)
                default: throw fail("\\\(VisibleText.visible([e])) is not an escape TOML knows (\\\" \\\\ \\t \\n \\uXXXX ...)")
                }
            default:
                guard c == 0x09 || c >= 0x20, c != 0x7F else { throw fail("a control character in a string: write it as an escape") }
                out.append(c)
            }
        }
        throw fail("a \"...\" string is not closed")
    }
}

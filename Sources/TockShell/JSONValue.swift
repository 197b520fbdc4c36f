/// JSON written directly, byte for byte what `JSONEncoder` with
/// `.sortedKeys` gives (keys in byte order, `/` escaped as `\/`, control
/// characters as `\n`-style or `\u00XX` escapes, everything else as UTF-8),
/// without its generic machinery: its first use looks up at run time which
/// of a dozen Foundation types each value is, and those lookups were 3 M
/// instructions, an eighth of the service's start-up (Benchmarks/README.md,
/// start-up). The state file and a fleet group's message are written with it.
public indirect enum JSONValue: Sendable {
    case int(Int64)
    case bool(Bool)
    case string(String)
    case array([JSONValue])
    /// Keys with nil values are left out, as `encodeIfPresent` does.
    case object([(String, JSONValue?)])

    public static func ints(_ v: [Int64]) -> JSONValue { .array(v.map { .int($0) }) }
    public static func strings(_ v: [String]) -> JSONValue { .array(v.map { .string($0) }) }

    public var bytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(512)
        write(to: &out)
        return out
    }

    public func write(to out: inout [UInt8]) {
        switch self {
        case .int(let n): out.append(contentsOf: String(n).utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .string(let s): Self.write(s, to: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (k, item) in items.enumerated() {
                if k > 0 { out.append(UInt8(ascii: ",")) }
                item.write(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let fields):
            out.append(UInt8(ascii: "{"))
            let present = fields.compactMap { key, value in value.map { (key, $0) } }
            for (k, field) in present.sorted(by: { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }).enumerated() {
                if k > 0 { out.append(UInt8(ascii: ",")) }
                Self.write(field.0, to: &out)
                out.append(UInt8(ascii: ":"))
                field.1.write(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    static func write(_ s: String, to out: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        out.append(UInt8(ascii: "\""))
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out += [UInt8(ascii: "\\"), byte]
            case 0x08: out += Array("\\b".utf8)
            case 0x09: out += Array("\\t".utf8)
            case 0x0A: out += Array("\\n".utf8)
            case 0x0C: out += Array("\\f".utf8)
            case 0x0D: out += Array("\\r".utf8)
            case 0..<0x20: out += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}

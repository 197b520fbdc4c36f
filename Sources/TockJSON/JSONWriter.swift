extension JSON {
    /// How a value is written. Both styles write no spaces and order an
    /// object's keys by their UTF-8 bytes, so the same value is always the
    /// same text; they differ in which characters of a string are escaped.
    public struct Style: Sendable, Equatable {
        /// `/` written `\/`.
        public var escapesSlash: Bool
        /// Backspace and form feed written `\b` and `\f` (else `\u0008`, `\u000c`).
        public var shortEscapesForAll: Bool
        /// Keys in UTF-8 byte order (else as the object holds them).
        public var sortsKeys: Bool
        /// Each item and field on a line of its own, indented two spaces a
        /// level, keys followed by ` : `, an empty list `[` and `]` with an
        /// empty line between (as Foundation's encoder wrote it, pretty-printed).
        public var pretty: Bool

        public init(escapesSlash: Bool, shortEscapesForAll: Bool, sortsKeys: Bool = true, pretty: Bool = false) {
            (self.escapesSlash, self.shortEscapesForAll, self.sortsKeys, self.pretty) = (escapesSlash, shortEscapesForAll, sortsKeys, pretty)
        }

        /// What the control socket, MQTT, Home Assistant and the page get:
        /// `"`, `\` and control characters escaped (`\n`, `\r`, `\t`, else
        /// `\u00XX`), everything else as UTF-8.
        public static let plain = Style(escapesSlash: false, shortEscapesForAll: false)
        /// What the state file and a fleet group's message are written in
        /// (the text Foundation's encoder with sorted keys gave, so
        /// files and messages of boxes not yet updated compare equal): `/`
        /// escaped too, and `\b`, `\f`.
        public static let encoder = Style(escapesSlash: true, shortEscapesForAll: true)
        /// `.encoder`, a line per item (tock-web's token list).
        public static let encoderPretty = Style(escapesSlash: true, shortEscapesForAll: true, pretty: true)
    }

    /// The value as JSON text. A double that is not finite is written `null`.
    public func bytes(_ style: Style = .plain) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(to: &out, style)
        return out
    }

    public func text(_ style: Style = .plain) -> String { String(decoding: bytes(style), as: UTF8.self) }

    public func write(to out: inout [UInt8], _ style: Style = .plain) { write(to: &out, style, level: 0) }

    private func write(to out: inout [UInt8], _ style: Style, level: Int) {
        func newline(_ level: Int) {
            guard style.pretty else { return }
            out.append(0x0A)
            out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * level))
        }
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .int(let n): out.append(contentsOf: String(n).utf8)
        case .double(let d): out.append(contentsOf: (d.isFinite ? String(d) : "null").utf8)
        case .string(let s): Self.write(s, to: &out, style)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (k, item) in items.enumerated() {
                if k > 0 { out.append(UInt8(ascii: ",")) }
                newline(level + 1)
                item.write(to: &out, style, level: level + 1)
            }
            if items.isEmpty && style.pretty { out.append(0x0A) }
            if !items.isEmpty || style.pretty { newline(level) }
            out.append(UInt8(ascii: "]"))
        case .object(let o):
            out.append(UInt8(ascii: "{"))
            let fields = style.sortsKeys ? o.fields.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) } : o.fields
            for (k, field) in fields.enumerated() {
                if k > 0 { out.append(UInt8(ascii: ",")) }
                newline(level + 1)
                Self.write(field.key, to: &out, style)
                out.append(contentsOf: style.pretty ? [0x20, UInt8(ascii: ":"), 0x20] : [UInt8(ascii: ":")])
                field.value.write(to: &out, style, level: level + 1)
            }
            if fields.isEmpty && style.pretty { out.append(0x0A) }
            if !fields.isEmpty || style.pretty { newline(level) }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// A JSON string literal (RFC 8259 section 7).
    public static func write(_ s: String, to out: inout [UInt8], _ style: Style = .plain) {
        out.append(UInt8(ascii: "\""))
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), byte]
            case UInt8(ascii: "/") where style.escapesSlash: out += [UInt8(ascii: "\\"), byte]
            case 0x09: out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0x0A: out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x08 where style.shortEscapesForAll: out += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
            case 0x0C where style.shortEscapesForAll: out += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
            case 0..<0x20: out += [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex(byte >> 4), hex(byte & 0xF)]
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// `s` as a JSON string literal.
    public static func quoted(_ s: String, _ style: Style = .plain) -> String {
        var out: [UInt8] = []
        write(s, to: &out, style)
        return String(decoding: out, as: UTF8.self)
    }

    private static func hex(_ n: UInt8) -> UInt8 { n < 10 ? UInt8(ascii: "0") + n : UInt8(ascii: "a") + n - 10 }
}

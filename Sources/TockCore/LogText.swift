/// Text from outside the box (a timer name, an MQTT topic or payload, a
/// configuration value, an HTTP path, a user agent) as a log line may
/// carry it: every byte that could end the line, recolour a terminal or be
/// read as something else is written as a visible escape, and the text is
/// cut at `limit` characters. A name with a newline cannot forge a second
/// line, an ESC cannot rewrite what `journalctl` or a terminal shows, and a
/// megabyte payload cannot become a megabyte line.
///
/// Escapes, in C's notation (\e for ESC as GNU C writes it):
/// `\n` `\r` `\t` `\e` (ESC), `\\`; any other C0 byte, DEL and each byte of
/// invalid UTF-8 as `\xNN`; C1 controls, the line and paragraph separators
/// and the bidirectional overrides (which reorder what a reader sees) as
/// `\u{9B}`, `\u{202E}`. Everything else (letters of every script, emoji) is kept.
public struct LogText: CustomStringConvertible, Sendable {
    /// The bytes as received (a String's are its UTF-8).
    public let bytes: [UInt8]
    public let limit: Int

    /// The most characters of outside text one log line quotes: a whole
    /// control request (at most 1 KiB) is cut, a name never is.
    public static let maximumLength = 200

    public init(_ text: some StringProtocol, limit: Int = Self.maximumLength) {
        bytes = Array(text.utf8)
        self.limit = limit
    }

    public init(bytes: some Sequence<UInt8>, limit: Int = Self.maximumLength) {
        self.bytes = Array(bytes)
        self.limit = limit
    }

    public var description: String { Self.escape(bytes, limit: limit) }

    /// `bytes` escaped (above) and cut after `limit` characters of output,
    /// with how much was left out: `…(+1017 bytes)`. `keepNewlines` leaves
    /// `\n` as it is, for a message this program wrote over several lines;
    /// `backslash` false leaves `\` as it is: the log handler's own pass
    /// over every message, most of which have been escaped once already
    /// (escaping them again would double every backslash).
    public static func escape(_ bytes: [UInt8], limit: Int = maximumLength, keepNewlines: Bool = false,
                              backslash: Bool = true) -> String {
        var out = ""
        var written = 0
        var i = 0
        while i < bytes.count {
            if written >= limit {
                out += "…(+\(bytes.count - i) bytes)"
                break
            }
            let (piece, used) = next(bytes, at: i, keepNewlines: keepNewlines, backslash: backslash)
            out += piece
            written += piece.count
            i += used
        }
        return out
    }

    /// Whether `bytes` would be written as they are (nothing to escape).
    public static func isPlain(_ bytes: [UInt8], keepNewlines: Bool = false, backslash: Bool = true) -> Bool {
        var i = 0
        while i < bytes.count {
            let (piece, used) = next(bytes, at: i, keepNewlines: keepNewlines, backslash: backslash)
            if piece.utf8.count != used { return false }
            i += used
        }
        return true
    }

    /// The piece of output for the character at `i`, and the bytes it used.
    private static func next(_ bytes: [UInt8], at i: Int, keepNewlines: Bool, backslash: Bool) -> (String, Int) {
        let b = bytes[i]
        if b < 0x80 {
            switch b {
            case 0x0A: return (keepNewlines ? "\n" : "\\n", 1)
            case 0x0D: return ("\\r", 1)
            case 0x09: return ("\\t", 1)
            case 0x1B: return ("\\e", 1)
            case 0x5C: return (backslash ? "\\\\" : "\\", 1)
            case 0x20..<0x7F: return (String(UnicodeScalar(b)), 1)
            default: return (hex(b), 1)  // C0 and DEL
            }
        }
        guard let (scalar, length) = decode(bytes, at: i) else { return (hex(b), 1) }
        switch scalar.value {
        case 0x80...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C:
            return ("\\u{\(String(scalar.value, radix: 16, uppercase: true))}", length)
        default:
            return (String(scalar), length)
        }
    }

    private static func hex(_ b: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "\\x\(digits[Int(b >> 4)])\(digits[Int(b & 0xF)])"
    }

    /// The scalar of the well-formed UTF-8 sequence at `i` (RFC 3629: no
    /// overlong forms, no surrogates, nothing past U+10FFFF), or nil.
    private static func decode(_ bytes: [UInt8], at i: Int) -> (Unicode.Scalar, Int)? {
        let b0 = bytes[i]
        let length: Int, lowest: UInt32
        var value: UInt32
        switch b0 {
        case 0xC2...0xDF: (length, lowest, value) = (2, 0x80, UInt32(b0 & 0x1F))
        case 0xE0...0xEF: (length, lowest, value) = (3, 0x800, UInt32(b0 & 0x0F))
        case 0xF0...0xF4: (length, lowest, value) = (4, 0x10000, UInt32(b0 & 0x07))
        default: return nil
        }
        guard i + length <= bytes.count else { return nil }
        for k in 1..<length {
            let c = bytes[i + k]
            guard c & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(c & 0x3F)
        }
        guard value >= lowest, let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, length)
    }
}

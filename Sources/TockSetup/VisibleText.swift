/// A value from a setup file as the log quotes it: every character a
/// reader of the log could not see, or could mistake for another, is named
/// (`<byte order mark U+FEFF>`, `<tab>`, `<no-break space U+00A0>`), a byte
/// that is not UTF-8 is shown as `<byte 0xFF>`, and the text is cut after
/// `limit` characters. "unknown setting "hostname"" with an invisible mark
/// in front of it says nothing; "unknown setting "<byte order mark
/// U+FEFF>hostname"" says what to delete.
public enum VisibleText {
    public static let limit = 80

    static let names: [Unicode.Scalar: String] = [
        "\u{FEFF}": "byte order mark U+FEFF", "\t": "tab", "\u{A0}": "no-break space U+00A0",
        "\u{200B}": "zero-width space U+200B", "\u{200C}": "zero-width non-joiner U+200C",
        "\u{200D}": "zero-width joiner U+200D", "\u{2060}": "word joiner U+2060",
        "\u{202F}": "narrow no-break space U+202F", "\u{2007}": "figure space U+2007",
        "\u{00AD}": "soft hyphen U+00AD", "\r": "carriage return", "\0": "NUL byte",
        "\u{3000}": "ideographic space U+3000", "\u{2028}": "line separator U+2028", "\u{2029}": "paragraph separator U+2029",
    ]

    /// The name of an invisible or confusable character, if it is one.
    static func name(of s: Unicode.Scalar) -> String? {
        if let n = names[s] { return n }
        let v = s.value
        if v < 0x20 || v == 0x7F || (0x80...0x9F).contains(v) || (0x2000...0x200F).contains(v) || (0x202A...0x202E).contains(v)
            || (0x2066...0x2069).contains(v) {
            return "U+" + hex(v)
        }
        return nil
    }

    public static func quoted(_ bytes: some Collection<UInt8>, limit: Int = limit) -> String {
        "\"" + visible(bytes, limit: limit) + "\""
    }

    public static func visible(_ bytes: some Collection<UInt8>, limit: Int = limit) -> String {
        var out = ""
        var shown = 0
        var it = bytes.makeIterator()
        var decoder = UTF8()
        var rest = bytes.count
        // Decoded scalar by scalar; an invalid sequence is shown byte by byte.
        var pending: [UInt8] = []
        while true {
            if shown >= limit {
                out += "…(+\(rest) bytes)"
                break
            }
            var one = pending.isEmpty ? nil : pending.removeFirst()
            if one == nil { one = it.next() }
            guard let first = one else { break }
            var seq = [first]
            let need = first < 0x80 ? 1 : first >> 5 == 0b110 ? 2 : first >> 4 == 0b1110 ? 3 : first >> 3 == 0b11110 ? 4 : 0
            while seq.count < need {
                guard let b = pending.isEmpty ? it.next() : pending.removeFirst() else { break }
                seq.append(b)
            }
            var seqIt = seq.makeIterator()
            if need > 0, seq.count == need, case .scalarValue(let s) = decoder.decode(&seqIt), seqIt.next() == nil {
                rest -= seq.count
                if let n = name(of: s) { out += "<\(n)>" } else { out.unicodeScalars.append(s) }
            } else {
                rest -= 1
                out += "<byte 0x\(hex(UInt32(seq[0]), width: 2))>"
                pending = Array(seq.dropFirst()) + pending
                decoder = UTF8()
            }
            shown += 1
        }
        return out
    }

    static func hex(_ v: UInt32, width: Int = 4) -> String {
        let s = String(v, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - s.count)) + s
    }
}

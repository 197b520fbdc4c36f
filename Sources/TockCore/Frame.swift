/// What a display shows: one glyph per digit, decimal points, the colon
/// and the brightness. Every display kind (TM1637, HT16K33, MAX7219, the
/// terminal) is driven from a frame; a display is just "these segments lit".
///
/// Kept as segment bits, one byte per digit (bit 7 the point), in one
/// word: a frame is a plain value that is made, compared and copied on
/// every tick without allocating. Its text is built only when asked for.
public struct Frame: Equatable, Sendable {
    /// Byte `i` is digit `i`'s segments (see `SevenSegmentFont`).
    private var bits: UInt64
    /// Digits on the display (at most 8).
    public let digits: Int
    public var colon: Bool
    /// 0 (dimmest lit) ... 7 (brightest).
    public var brightness: Int

    /// A frame of segment bytes, digit 0 first.
    private init(bits: UInt64, digits: Int, colon: Bool, brightness: Int) {
        precondition((0...8).contains(digits), "a frame has 0 to 8 digits, not \(digits)")
        self.bits = bits
        self.digits = digits
        self.colon = colon
        self.brightness = brightness
    }

    /// Parse display text: one character per digit; `.` lights the point of
    /// the digit before it; `:` lights the colon (it sits after the second
    /// digit of a 4-digit display). Text shorter than the display is right
    /// aligned.
    public init(text: String, digits: Int, brightness: Int = 7) {
        var bytes: UInt64 = 0
        var count = 0
        var colon = false
        var fast = true
        for b in text.utf8 {
            switch b {
            case UInt8(ascii: "."):
                if count == 0 { count = 1 }
                bytes |= UInt64(SevenSegmentFont.dp) << (8 * UInt64(count - 1))
            case UInt8(ascii: ":"):
                colon = true
            default:
                guard count < 8, let seg = SevenSegmentFont.segments(ascii: b) else { fast = false; break }
                bytes |= UInt64(seg) << (8 * UInt64(count))
                count += 1
            }
            if !fast { break }
        }
        if !fast {
            (bytes, count) = Self.parseSlowly(text)
            colon = text.contains(":")
        }
        precondition(count <= digits, "display text \"\(text)\" is wider than \(digits) digits")
        // Right aligned: the cells parsed so far move to the end.
        self.init(bits: digits == count ? bytes : bytes << (8 * UInt64(digits - count)), digits: digits,
                  colon: colon, brightness: brightness)
    }

    /// Text the quick parse stopped at (more than eight cells, or a
    /// character that is no glyph), parsed by characters: the width is
    /// checked first, then each glyph (an unknown glyph is a programming
    /// error in the renderer, and traps).
    private static func parseSlowly(_ text: String) -> (UInt64, Int) {
        var cells: [UInt8] = []
        for ch in text {
            switch ch {
            case ".":
                if cells.isEmpty { cells.append(0) }
                cells[cells.count - 1] |= SevenSegmentFont.dp
            case ":":
                break
            default:
                cells.append(0)
            }
        }
        precondition(cells.count <= 8, "display text \"\(text)\" is wider than 8 digits")
        var bytes: UInt64 = 0
        var i = 0
        for ch in text where ch != "." && ch != ":" {
            bytes |= UInt64(SevenSegmentFont.segments(for: ch) | cells[i]) << (8 * UInt64(i))
            i += 1
        }
        return (bytes, cells.count)
    }

    public static func blank(digits: Int, brightness: Int = 7) -> Frame {
        Frame(bits: 0, digits: digits, colon: false, brightness: brightness)
    }

    /// A frame of raw segment bits per digit (bit 7 is the point). Its
    /// text shows each digit as the glyph those bits make, `?` if none.
    public static func segments(_ bits: [UInt8], colon: Bool = false, brightness: Int = 7) -> Frame {
        var word: UInt64 = 0
        for (i, b) in bits.enumerated() { word |= UInt64(b) << (8 * UInt64(i)) }
        return Frame(bits: word, digits: bits.count, colon: colon, brightness: brightness)
    }

    /// A count as `MM:SS` on four digits (colon lit) or `MM.SS` right
    /// aligned on eight: the frame `Frame(text:)` makes of that text,
    /// without the text.
    static func clock(_ high: Int64, _ low: Int64, digits: Int, brightness: Int) -> Frame {
        let d = SevenSegmentFont.digitSegments
        let four = UInt64(d[Int(high / 10)]) | UInt64(d[Int(high % 10)]) << 8
            | UInt64(d[Int(low / 10)]) << 16 | UInt64(d[Int(low % 10)]) << 24
        if digits == 4 { return Frame(bits: four, digits: 4, colon: true, brightness: brightness) }
        let pointed = four | UInt64(SevenSegmentFont.dp) << 8
        return Frame(bits: pointed << (8 * UInt64(digits - 4)), digits: digits, colon: false, brightness: brightness)
    }

    /// Light the last digit's point (a quiet mark: more than one count is
    /// in progress).
    public mutating func lightLastPoint() {
        guard digits > 0 else { return }
        bits |= UInt64(SevenSegmentFont.dp) << (8 * UInt64(digits - 1))
    }

    /// Segment bits of digit `i`, point included (see `SevenSegmentFont`).
    @inline(__always)
    public func segments(at i: Int) -> UInt8 {
        precondition(i >= 0 && i < digits, "digit \(i) of a \(digits)-digit frame")
        return UInt8(truncatingIfNeeded: bits >> (8 * UInt64(i)))
    }

    /// Each digit's glyph, `?` for a pattern that is none.
    public var cells: [Character] { (0..<digits).map { SevenSegmentFont.glyph(for: segments(at: $0)) } }
    /// Each digit's point.
    public var points: [Bool] { (0..<digits).map { segments(at: $0) & SevenSegmentFont.dp != 0 } }

    /// The trace notation: one character per digit (space when blank), `.`
    /// after a digit whose point is lit, `:` where the colon is lit.
    public var text: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits * 2 + 1)
        for i in 0..<digits {
            let seg = segments(at: i)
            bytes.append(SevenSegmentFont.ascii(for: seg))
            if seg & SevenSegmentFont.dp != 0 { bytes.append(UInt8(ascii: ".")) }
            if colon, i == 1 { bytes.append(UInt8(ascii: ":")) }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The same frame with every segment, point and the colon dark.
    public var dark: Frame { .blank(digits: digits, brightness: brightness) }
}
// MARK: - The font

/// Glyphs for a 7-segment digit, as segment bits.
///
/// Bit order is the one TM1637, HT16K33 (Adafruit backpack) and most
/// datasheets draw: bit 0 = a (top), 1 = b (top right), 2 = c (bottom
/// right), 3 = d (bottom), 4 = e (bottom left), 5 = f (top left), 6 = g
/// (middle), 7 = dp. Drivers whose chip orders bits otherwise (MAX7219
/// no-decode mode: DP A B C D E F G) map from this one order.
///
///      a
///     ---
///  f |   | b
///     -g-
///  e |   | c
///     ---  . dp
///      d
public enum SevenSegmentFont {
    public static let dp: UInt8 = 0x80

    /// Every glyph maps to a distinct pattern, so what a wire carries can
    /// be decoded back to text. Letters that would collide with a digit
    /// (`S`/5, `O`/0, `B`/8) are left out on purpose. Made from
    /// `segments(ascii:)`, the font's one table, when first asked for.
    public static let glyphs: [Character: UInt8] = Dictionary(uniqueKeysWithValues: (0..<128).compactMap { code in
        segments(ascii: UInt8(code)).map { (Character(Unicode.Scalar(UInt8(code))), $0) }
    })

    /// The font: segment bits by ASCII code (every glyph is ASCII), nil
    /// for none. A switch, so nothing is built at start-up.
    static func segments(ascii code: UInt8) -> UInt8? {
        switch code {
        case UInt8(ascii: " "): 0x00
        case UInt8(ascii: "0"): 0x3F
        case UInt8(ascii: "1"): 0x06
        case UInt8(ascii: "2"): 0x5B
        case UInt8(ascii: "3"): 0x4F
        case UInt8(ascii: "4"): 0x66
        case UInt8(ascii: "5"): 0x6D
        case UInt8(ascii: "6"): 0x7D
        case UInt8(ascii: "7"): 0x07
        case UInt8(ascii: "8"): 0x7F
        case UInt8(ascii: "9"): 0x6F
        case UInt8(ascii: "A"): 0x77
        case UInt8(ascii: "b"): 0x7C
        case UInt8(ascii: "C"): 0x39
        case UInt8(ascii: "c"): 0x58
        case UInt8(ascii: "d"): 0x5E
        case UInt8(ascii: "E"): 0x79
        case UInt8(ascii: "e"): 0x7B
        case UInt8(ascii: "F"): 0x71
        case UInt8(ascii: "H"): 0x76
        case UInt8(ascii: "h"): 0x74
        case UInt8(ascii: "J"): 0x1E
        case UInt8(ascii: "L"): 0x38
        case UInt8(ascii: "n"): 0x54
        case UInt8(ascii: "o"): 0x5C
        case UInt8(ascii: "P"): 0x73
        case UInt8(ascii: "r"): 0x50
        case UInt8(ascii: "t"): 0x78
        case UInt8(ascii: "U"): 0x3E
        case UInt8(ascii: "v"): 0x1C
        case UInt8(ascii: "y"): 0x6E
        case UInt8(ascii: "-"): 0x40
        case UInt8(ascii: "_"): 0x08
        default: nil
        }
    }

    /// The ASCII code of the glyph a pattern (without the point) shows, `?`
    /// if none: `segments(ascii:)` turned round, as a switch for the
    /// frame's text on every tick (FrameTests holds the two together).
    static func ascii(for segments: UInt8) -> UInt8 {
        switch segments & 0x7F {
        case 0x00: UInt8(ascii: " ")
        case 0x3F: UInt8(ascii: "0")
        case 0x06: UInt8(ascii: "1")
        case 0x5B: UInt8(ascii: "2")
        case 0x4F: UInt8(ascii: "3")
        case 0x66: UInt8(ascii: "4")
        case 0x6D: UInt8(ascii: "5")
        case 0x7D: UInt8(ascii: "6")
        case 0x07: UInt8(ascii: "7")
        case 0x7F: UInt8(ascii: "8")
        case 0x6F: UInt8(ascii: "9")
        case 0x77: UInt8(ascii: "A")
        case 0x7C: UInt8(ascii: "b")
        case 0x39: UInt8(ascii: "C")
        case 0x58: UInt8(ascii: "c")
        case 0x5E: UInt8(ascii: "d")
        case 0x79: UInt8(ascii: "E")
        case 0x7B: UInt8(ascii: "e")
        case 0x71: UInt8(ascii: "F")
        case 0x76: UInt8(ascii: "H")
        case 0x74: UInt8(ascii: "h")
        case 0x1E: UInt8(ascii: "J")
        case 0x38: UInt8(ascii: "L")
        case 0x54: UInt8(ascii: "n")
        case 0x5C: UInt8(ascii: "o")
        case 0x73: UInt8(ascii: "P")
        case 0x50: UInt8(ascii: "r")
        case 0x78: UInt8(ascii: "t")
        case 0x3E: UInt8(ascii: "U")
        case 0x1C: UInt8(ascii: "v")
        case 0x6E: UInt8(ascii: "y")
        case 0x40: UInt8(ascii: "-")
        case 0x08: UInt8(ascii: "_")
        default: UInt8(ascii: "?")
        }
    }

    /// The digits 0-9.
    static let digitSegments: [UInt8] = (0...9).map { segments(ascii: UInt8(ascii: "0") + $0)! }

    /// Segment bits for a glyph (without the point). An unknown glyph is a
    /// programming error in the renderer.
    public static func segments(for glyph: Character) -> UInt8 {
        guard let bits = glyphs[glyph] else { preconditionFailure("no 7-segment glyph for \(glyph)") }
        return bits
    }

    /// The glyph a pattern shows (without the point), `?` if none.
    public static func glyph(for segments: UInt8) -> Character {
        Character(Unicode.Scalar(ascii(for: segments)))
    }
}

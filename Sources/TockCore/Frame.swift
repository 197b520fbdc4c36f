/// What a display shows: one glyph per digit, decimal points, the colon
/// and the brightness. Every display kind (TM1637, HT16K33, MAX7219, the
/// terminal) is driven from a frame; a display is just "these segments lit".
public struct Frame: Equatable, Sendable {
    public var cells: [Character]
    public var points: [Bool]
    public var colon: Bool
    /// 0 (dimmest lit) ... 7 (brightest).
    public var brightness: Int
    /// Segment bits given directly (the wiring check lights one segment
    /// at a time, which no glyph does); nil for frames made from text.
    private var raw: [UInt8]? = nil

    /// Parse display text: one character per digit; `.` lights the point of
    /// the digit before it; `:` lights the colon (it sits after the second
    /// digit of a 4-digit display). Text shorter than the display is right
    /// aligned.
    public init(text: String, digits: Int, brightness: Int = 7) {
        var cells: [Character] = []
        var points: [Bool] = []
        var colon = false
        for ch in text {
            switch ch {
            case ".":
                if points.isEmpty { cells.append(" "); points.append(false) }
                points[points.count - 1] = true
            case ":":
                colon = true
            default:
                cells.append(ch)
                points.append(false)
            }
        }
        precondition(cells.count <= digits, "display text \"\(text)\" is wider than \(digits) digits")
        let pad = digits - cells.count
        self.cells = Array(repeating: " ", count: pad) + cells
        self.points = Array(repeating: false, count: pad) + points
        self.colon = colon
        self.brightness = brightness
    }

    public static func blank(digits: Int, brightness: Int = 7) -> Frame {
        Frame(text: "", digits: digits, brightness: brightness)
    }

    /// A frame of raw segment bits per digit (bit 7 is the point). Its
    /// text shows each digit as the glyph those bits make, `?` if none.
    public static func segments(_ bits: [UInt8], colon: Bool = false, brightness: Int = 7) -> Frame {
        var f = Frame.blank(digits: bits.count, brightness: brightness)
        f.cells = bits.map { SevenSegmentFont.glyph(for: $0) }
        f.points = bits.map { $0 & SevenSegmentFont.dp != 0 }
        f.colon = colon
        f.raw = bits
        return f
    }

    public var digits: Int { cells.count }

    /// Segment bits of digit `i`, point included (see `SevenSegmentFont`).
    public func segments(at i: Int) -> UInt8 {
        if let raw { return raw[i] }
        return SevenSegmentFont.segments(for: cells[i]) | (points[i] ? SevenSegmentFont.dp : 0)
    }

    /// The trace notation: one character per digit (space when blank), `.`
    /// after a digit whose point is lit, `:` where the colon is lit.
    public var text: String {
        var s = ""
        for i in cells.indices {
            s.append(cells[i])
            if points[i] { s.append(".") }
            if colon, i == 1 { s.append(":") }
        }
        return s
    }

    /// The same frame with every segment, point and the colon dark.
    public var dark: Frame {
        var f = Frame.blank(digits: digits, brightness: brightness)
        f.brightness = brightness
        return f
    }
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
    /// (`S`/5, `O`/0, `B`/8) are left out on purpose.
    public static let glyphs: [Character: UInt8] = [
        " ": 0x00,
        "0": 0x3F, "1": 0x06, "2": 0x5B, "3": 0x4F, "4": 0x66,
        "5": 0x6D, "6": 0x7D, "7": 0x07, "8": 0x7F, "9": 0x6F,
        "A": 0x77, "b": 0x7C, "C": 0x39, "c": 0x58, "d": 0x5E,
        "E": 0x79, "e": 0x7B, "F": 0x71, "H": 0x76, "h": 0x74,
        "J": 0x1E, "L": 0x38, "n": 0x54, "o": 0x5C, "P": 0x73,
        "r": 0x50, "t": 0x78, "U": 0x3E, "v": 0x1C, "y": 0x6E,
        "-": 0x40, "_": 0x08,
    ]

    private static let reverse: [UInt8: Character] = Dictionary(uniqueKeysWithValues: glyphs.map { ($0.value, $0.key) })

    /// Segment bits for a glyph (without the point). An unknown glyph is a
    /// programming error in the renderer.
    public static func segments(for glyph: Character) -> UInt8 {
        guard let bits = glyphs[glyph] else { preconditionFailure("no 7-segment glyph for \(glyph)") }
        return bits
    }

    /// The glyph a pattern shows (without the point), `?` if none.
    public static func glyph(for segments: UInt8) -> Character {
        reverse[segments & 0x7F] ?? "?"
    }
}

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

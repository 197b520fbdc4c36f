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

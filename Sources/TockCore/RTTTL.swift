/// A melody in RTTTL, the ring-tone text format of Nokia phones that AWTRIX
/// and many buzzer projects play: `name:d=4,o=5,b=120:8c,8e,g,2c6`.
///
/// The defaults section gives the note length `d` (1, 2, 4, 8, 16 or 32:
/// a whole note, a half, ...), the octave `o` (4 to 7) and the tempo `b`
/// in beats (quarter notes) per minute. Each note is `[length]note[#][.][octave]`
/// (`p` is a rest; a dot makes it half as long again, before or after the
/// octave). Pitches are equal-tempered with A4 = 440 Hz, rounded to the Hz.
/// Each note sounds for 7/8 of its length and is silent for the rest, so
/// repeated notes are heard apart, as phone players did.
public enum RTTTL {
    public struct Note: Equatable, Sendable {
        /// nil for a rest.
        public var tone: Tone?
        public var length: Duration
    }

    public struct Invalid: Error, Equatable, CustomStringConvertible {
        public var description: String
        init(_ d: String) { description = d }
    }

    /// At most this many notes (a tune is a ring tone, not a symphony).
    public static let maxNotes = 256

    public static func parse(_ text: String) throws(Invalid) -> [Note] {
        let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw Invalid("write name:d=4,o=5,b=120:notes (three parts separated by colons)") }
        var d = 4, o = 6, b = 63  // the format's own defaults
        for item in parts[1].split(separator: ",") {
            let kv = item.split(separator: "=").map { $0.trimmingSpaces }
            guard kv.count == 2, let v = Int(kv[1]) else { throw Invalid("\"\(item)\" in the defaults is not key=number (d, o or b)") }
            switch kv[0].lowercased() {
            case "d": guard lengths.contains(v) else { throw Invalid("d=\(v): a length is 1, 2, 4, 8, 16 or 32") }; d = v
            case "o": guard (4...7).contains(v) else { throw Invalid("o=\(v): the octave is 4 to 7") }; o = v
            case "b": guard (25...900).contains(v) else { throw Invalid("b=\(v): the tempo is 25 to 900 beats per minute") }; b = v
            default: throw Invalid("\"\(kv[0])\" in the defaults is not d, o or b")
            }
        }
        let items = parts[2].split(separator: ",").map { $0.trimmingSpaces.lowercased() }
        guard !items.isEmpty, !(items.count == 1 && items[0].isEmpty) else { throw Invalid("no notes after the second colon") }
        guard items.count <= maxNotes else { throw Invalid("\(items.count) notes; at most \(maxNotes)") }
        var notes: [Note] = []
        for (i, item) in items.enumerated() {
            do throws(Invalid) { notes.append(try note(item, d: d, o: o, b: b)) } catch {
                throw Invalid("note \(i + 1) \"\(item.prefix(12))\": \(error.description)")
            }
        }
        guard notes.contains(where: { $0.tone != nil }) else { throw Invalid("only rests: a tune needs a note") }
        return notes
    }

    static let lengths = [1, 2, 4, 8, 16, 32]
    static let semitones: [Character: Int] = ["c": 0, "d": 2, "e": 4, "f": 5, "g": 7, "a": 9, "b": 11, "h": 11]

    private static func note(_ s: String, d: Int, o: Int, b: Int) throws(Invalid) -> Note {
        var chars = Array(s)
        var digits = ""
        while let c = chars.first, c.isASCII, c.isNumber { digits.append(c); chars.removeFirst() }
        let length = digits.isEmpty ? d : Int(digits) ?? 0
        guard lengths.contains(length) else { throw Invalid("length \(digits) is not 1, 2, 4, 8, 16 or 32") }
        guard let letter = chars.first else { throw Invalid("no note letter (c d e f g a b, or p for a rest)") }
        chars.removeFirst()
        var semitone: Int? = nil
        if letter != "p" {
            guard let s = semitones[letter] else { throw Invalid("\"\(letter)\" is not a note (c d e f g a b, or p for a rest)") }
            semitone = s
        }
        if chars.first == "#" { semitone = semitone.map { $0 + 1 }; chars.removeFirst() }
        var dotted = false
        if chars.first == "." { dotted = true; chars.removeFirst() }
        var octave = o
        if let c = chars.first, c.isASCII, c.isNumber {
            guard let v = c.wholeNumberValue, (4...7).contains(v) else { throw Invalid("octave \(c) is not 4 to 7") }
            octave = v
            chars.removeFirst()
        }
        if chars.first == "." { dotted = true; chars.removeFirst() }
        guard chars.isEmpty else { throw Invalid("\"\(String(chars))\" left over") }
        // A whole note is four beats: 240 s / (b × length).
        var ns = 240_000_000_000 / Int64(b * length)
        if dotted { ns = ns * 3 / 2 }
        return Note(tone: semitone.map { Tone(hertz: hertz(octave: octave, semitone: $0)) }, length: .nanoseconds(ns))
    }

    /// Equal temperament from A4 = 440 Hz, rounded to the Hz.
    static func hertz(octave: Int, semitone: Int) -> Int {
        let fromA4 = Double((octave - 4) * 12 + semitone - 9)
        return Int((440 * pow2(fromA4 / 12)).rounded())
    }

    /// 2^x without Foundation (the core imports nothing).
    private static func pow2(_ x: Double) -> Double {
        let whole = x.rounded(.down)
        var r = 1.0
        for _ in 0..<Int(abs(whole)) { r = whole < 0 ? r / 2 : r * 2 }
        let f = x - whole
        // e^(f ln 2) by its series: f is in [0, 1), 20 terms are exact to a double.
        let y = f * 0.693_147_180_559_945_3
        var term = 1.0, sum = 1.0
        for k in 1...20 { term *= y / Double(k); sum += term }
        return r * sum
    }

    /// The tune as a buzzer pattern that repeats (for the alarm).
    public static func pattern(_ notes: [Note]) -> BuzzerPattern {
        var steps: [BuzzerPattern.Step] = []
        for n in notes {
            guard let tone = n.tone else { steps.append(.init(nil, n.length)); continue }
            let sounding = n.length * 7 / 8
            steps.append(.init(tone, sounding))
            steps.append(.init(nil, n.length - sounding))
        }
        return BuzzerPattern(steps: steps, repeats: true)
    }
}

extension Substring {
    fileprivate var trimmingSpaces: String { String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()) }
}

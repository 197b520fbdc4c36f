/// A named interval program (`interval.programs`): what it is called on
/// the display and how its time is laid out.
public struct NamedProgram: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        /// Work and rest for a number of rounds, in sets with a longer rest
        /// between sets (Tabata is 20 s / 10 s × 8 in one set).
        case intervals(work: Duration, rest: Duration, rounds: Int, sets: Int, setRest: Duration)
        /// Every minute on the minute (or any period): a new round on each
        /// period boundary, counting down within it.
        case emom(every: Duration, rounds: Int)
        /// As many rounds as possible: a count-down of `cap`; Start while
        /// running counts a round.
        case amrap(cap: Duration)
        /// A count-up that rings at `cap`; Stop records the finish time.
        case forTime(cap: Duration)

        public static func tabata(work: Duration = .seconds(20), rest: Duration = .seconds(10), rounds: Int = 8) -> Kind {
            .intervals(work: work, rest: rest, rounds: rounds, sets: 1, setRest: .zero)
        }

        /// The name of the kind in the configuration and the status.
        public var label: String {
            switch self {
            case .intervals: "intervals"
            case .emom: "emom"
            case .amrap: "amrap"
            case .forTime: "for_time"
            }
        }
    }

    /// As the configuration gives it; `label` is what the display draws.
    public var name: String
    public var kind: Kind

    public init(name: String, kind: Kind) {
        self.name = name
        self.kind = kind
    }

    /// The name in display notation: letters without a 7-segment glyph of
    /// their own drawn by the nearest one (`S` as 5, `O` as o, `i` as 1),
    /// nil when a character cannot be drawn at all.
    public static func label(_ name: String) -> String? {
        var out = ""
        for ch in name {
            if SevenSegmentFont.glyphs[ch] != nil { out.append(ch); continue }
            let near: [Character: Character] = ["a": "A", "B": "b", "D": "d", "f": "F", "G": "9", "g": "9", "I": "1", "i": "1",
                                                "j": "J", "l": "L", "N": "n", "O": "o", "p": "P", "R": "r", "S": "5", "s": "5",
                                                "T": "t", "u": "U", "V": "v", "Y": "y"]
            guard let n = near[ch] else { return nil }
            out.append(n)
        }
        return out
    }
}

/// One stretch of a program's time line.
public struct ProgramSegment: Equatable, Sendable {
    /// Elapsed time at which it starts, and its length.
    public var start: Duration
    public var length: Duration
    public var round: Int
    public var set: Int
    public var resting: Bool
    public var end: Duration { start + length }
}

/// A program laid out as segments on the elapsed time, once: the phase at
/// any elapsed time is a lookup, so an EMOM's hundredth round starts on
/// its boundary to the nanosecond and a late wake-up skips nothing.
public struct ProgramPlan: Equatable, Sendable {
    public let kind: NamedProgram.Kind
    public let segments: [ProgramSegment]
    public let rounds: Int
    public let sets: Int

    public init(_ kind: NamedProgram.Kind) {
        self.kind = kind
        var segs: [ProgramSegment] = []
        var t = Duration.zero
        func add(_ length: Duration, _ round: Int, _ set: Int, _ resting: Bool) {
            guard length > .zero else { return }
            segs.append(ProgramSegment(start: t, length: length, round: round, set: set, resting: resting))
            t = t + length
        }
        switch kind {
        case .intervals(let work, let rest, let rounds, let sets, let setRest):
            for s in 1...sets {
                for r in 1...rounds {
                    add(work, r, s, false)
                    if r < rounds { add(rest, r, s, true) } else if s < sets { add(setRest, r, s, true) }
                }
            }
            (self.rounds, self.sets) = (rounds, sets)
        case .emom(let every, let rounds):
            for r in 1...rounds { add(every, r, 1, false) }
            (self.rounds, self.sets) = (rounds, 1)
        case .amrap(let cap), .forTime(let cap):
            add(cap, 1, 1, false)
            (self.rounds, self.sets) = (0, 1)
        }
        segments = segs
    }

    public var total: Duration { segments.last?.end ?? .zero }

    /// The segment at an elapsed time (the last one at or after the end).
    public func segment(atElapsed e: Duration) -> ProgramSegment {
        var lo = 0, hi = segments.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if segments[mid].start <= e { lo = mid } else { hi = mid - 1 }
        }
        return segments[lo]
    }

    /// Whether the count shows time left (or, for time, time elapsed).
    public var countsUp: Bool { if case .forTime = kind { true } else { false } }
    public var isAmrap: Bool { if case .amrap = kind { true } else { false } }
}

#if canImport(TockCore)
import TockCore  // `make fuzz-state` compiles the files it needs into one module instead
import TockJSON
#endif

/// The box's count (`Snapshot.Count`) as the state file's version 4 and a
/// fleet group's message of format 2 spell it: the program's own saved
/// case under its mode's name, each program writing only the fields it
/// has, and the box's presets.
///
///     "program": {"timer": {"phase": {"running": {"since": …, "before": 0}},
///                           "direction": "down", "leadIn": …, "overrunSince": …}},
///     "presets": {"list": [300000000000, …], "index": 0}
///
/// `timer` and `stopwatch` have {phase, direction, leadIn, overrunSince,
/// length},
/// `interval` {phase, leadIn, program, rounds, finish}, `countdown`
/// {phase}, a run toward its date spelt `{"counting": {"target": …}}`.
public enum CountJSON {
    /// The object under `program`.
    public static func program(_ p: Program.Saved) -> JSON {
        let fields: JSON = switch p {
        case .count(let c):
            .fields([("phase", SnapshotJSON.value(c.phase)), ("direction", .string(c.direction.rawValue)),
                     ("leadIn", c.leadIn.map { .int($0) }), ("overrunSince", c.overrunSince.map { .int($0) }),
                     ("length", c.length.map { .int($0) })])
        case .calendar(let c):
            .fields([("phase", phase(c.phase))])
        case .interval(let i):
            .fields([("phase", SnapshotJSON.value(i.phase)), ("leadIn", i.leadIn.map { .int($0) }),
                     ("program", i.program.map { .int(Int64($0)) }), ("rounds", i.roundsCounted.map { .int(Int64($0)) }),
                     ("finish", i.finish.map { .int($0) })])
        }
        return .fields([(p.mode.rawValue, fields)])
    }

    /// The object under `presets`.
    public static func presets(_ c: Snapshot.Count) -> JSON {
        .fields([("list", .ints(c.presets)), ("index", .int(Int64(c.presetIndex)))])
    }

    /// `{"program": …, "presets": …}`: a group message's `state` (format 2).
    public static func value(_ c: Snapshot.Count) -> JSON {
        .fields([("program", program(c.program)), ("presets", presets(c))])
    }

    /// A countdown's run toward its instant is written as that instant.
    static func phase(_ p: Snapshot.Phase) -> JSON {
        if case .running(let target, 0) = p {
            return .fields([("counting", .fields([("target", .int(target))]))])
        }
        return SnapshotJSON.value(p)
    }

    enum Key: String, CodingKey { case program, presets }
    enum Field: String, CodingKey { case mode, phase, direction, leadIn, overrunSince, length, program, rounds, finish }
    enum Presets: String, CodingKey { case list, index }
    struct Mode: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// A count read from an object with `program` and `presets` (other
    /// keys are the reader's own), checked by the core.
    public struct Read: Decodable {
        public var count: Snapshot.Count

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Key.self)
            let named = try c.nestedContainer(keyedBy: Mode.self, forKey: .program)
            guard named.allKeys.count == 1, let key = named.allKeys.first else {
                throw DecodingError.dataCorruptedError(forKey: .program, in: c, debugDescription: "not one mode's program")
            }
            guard let mode = Settings.Mode(rawValue: key.stringValue) else {
                throw DecodingError.dataCorruptedError(forKey: .program, in: c, debugDescription: "unknown mode \"\(key.stringValue.prefix(32))\"")
            }
            let f = try named.nestedContainer(keyedBy: Field.self, forKey: key)
            // Only a timer or a stopwatch has a direction.
            let direction = f.contains(.direction) ? try f.direction(.direction) : SwitchPosition.down
            let presets = try c.nestedContainer(keyedBy: Presets.self, forKey: .presets)
            count = .init(program: try CountJSON.program(mode, f, direction: direction),
                          presets: try presets.decode([Int64].self, forKey: .list), presetIndex: try presets.decode(Int.self, forKey: .index))
            do { try count.check() } catch {
                throw DecodingError.dataCorrupted(.init(codingPath: c.codingPath, debugDescription: error.description))
            }
        }
    }

    /// `mode`'s saved case from the fields it has (version 4's object, or
    /// version 3's shared `count` object).
    static func program(_ mode: Settings.Mode, _ f: KeyedDecodingContainer<Field>, direction: SwitchPosition) throws -> Program.Saved {
        let phase = try f.decode(SnapshotJSON.PhaseRead.self, forKey: .phase)
        guard !phase.counting || mode == .countdown else { throw f.refusal(.phase, "counting toward an instant is a countdown's") }
        return Program.Saved(mode: mode, phase: phase.phase, direction: direction,
                             leadIn: try f.decodeIfPresent(Int64.self, forKey: .leadIn),
                             overrunSince: try f.decodeIfPresent(Int64.self, forKey: .overrunSince),
                             length: try f.decodeIfPresent(Int64.self, forKey: .length),
                             program: try f.decodeIfPresent(Int.self, forKey: .program),
                             rounds: try f.decodeIfPresent(Int.self, forKey: .rounds),
                             finish: try f.decodeIfPresent(Int64.self, forKey: .finish))
    }
}

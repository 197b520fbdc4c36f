#if canImport(TockCore)
import TockCore  // `make fuzz-state` compiles the files it needs into one module instead
import TockJSON
#endif

/// The state file's format, version 4: the box's count as its program's
/// own saved case under the mode's name (`Program.Saved`: each program
/// writes only the fields it has), the box's preset list, the
/// configuration file's mode and presets when it was saved, the alarms,
/// the dimming and the edits set aside, each in its own object. A
/// countdown to an instant spells its target (`{"counting": {"target": …}}`)
/// rather than a run since it.
///
///     {"version": 4,
///      "program": {"timer": {"phase": {"running": {"since": …, "before": 0}},
///                            "direction": "down", "leadIn": …, "overrunSince": …}},
///      "presets": {"list": [300000000000, …], "index": 0},
///      "file": {"mode": "timer", "presets": […]},
///      "alarms": {…}, "dimming": {…}, "setAside": {…}, "timers": […],
///      "clock": "unverified"}
///
/// `program` holds one key, the mode: `timer` and `stopwatch` {phase,
/// direction, leadIn, overrunSince}, `interval` {phase, leadIn, program,
/// rounds, finish}, `countdown` {phase}. `clock` (absent: verified) says
/// the wall instants were written while the clock was not synchronised: a
/// restore corrects only instants that a trusted clock wrote
/// (Machine+Provisional.swift). `timers` are the extra timers, absent when
/// there are none (docs/timers.md).
///
/// Versions 1 to 3 are read too, so a box updated mid-count keeps its
/// count: 1 and 2 are the flat `SnapshotJSON` shape (2 added the daily
/// alarms), 3 had every mode's fields side by side in one `count` object
/// (`{"count": {"mode": "timer", "phase": …, "direction": …, "leadIn": …,
/// "overrunSince": …, "program": …, "rounds": …, "finish": …}}`); each
/// program takes its own fields from them. The next save writes version 4.
/// A tock older than version 4 refuses a version-4 file by its number and
/// starts from the configuration (docs/upgrades.md).
/// Written with `JSON` (style `.encoder`), read through `Decodable` over
/// `JSON`, checked whole by the core (`Snapshot.check`).
enum StateFile {
    static let version = 4
    /// 1 and 2 are `SnapshotJSON`'s flat shape (2 added the daily alarms).
    static let readable = 1...version

    static func encode(_ s: Snapshot) -> [UInt8] {
        let file: JSON? = s.fileMode == nil && s.filePresets == nil ? nil
            : .fields([("mode", s.fileMode.map { .string($0.rawValue) }), ("presets", s.filePresets.map(JSON.ints))])
        let fields: [(String, JSON?)] = [
            ("version", .int(Int64(version))),
            ("program", CountJSON.program(s.count.program)),
            ("presets", CountJSON.presets(s.count)),
            ("file", file),
            ("alarms", s.alarms.map(SnapshotJSON.value)),
            ("dimming", s.dimming.map(SnapshotJSON.value)),
            ("setAside", s.setAside.map(SnapshotJSON.value)),
            ("timers", s.timers.map { .array($0.map(timer)) }),
            ("clock", s.wallUnverified ? .string("unverified") : nil),
        ]
        return JSON.fields(fields).bytes(.encoder)
    }

    /// An extra timer: `{"name": "EGG", "duration": …, "state": {"running": {"ends": …}}}`
    /// (or `{"paused": {"left": …}}`, `{"ringing": {"ended": …, "since": …}}`, `{"done": {}}`).
    static func timer(_ t: TimerRecord) -> JSON {
        let state: JSON = switch t.state {
        case .running(let e): .fields([("running", .fields([("ends", .int(e))]))])
        case .paused(let l): .fields([("paused", .fields([("left", .int(l))]))])
        case .ringing(let e, let since): .fields([("ringing", .fields([("ended", .int(e)), ("since", since.map { .int($0) })]))])
        case .done: .fields([("done", .fields([]))])
        }
        return .fields([("name", .string(t.name)), ("duration", .int(t.duration)), ("state", state)])
    }

    /// A version this tock does not read (a newer tock wrote it, or it is
    /// not one).
    struct UnknownVersion: Error {
        var version: Int
    }

    /// The snapshot a file holds, and the version it was written in.
    static func decode(_ bytes: [UInt8]) throws -> (snapshot: Snapshot, version: Int) {
        let version = try JSON.decode(Version.self, from: bytes).version
        guard readable.contains(version) else { throw UnknownVersion(version: version) }
        if version < 3 { return (try JSON.decode(Flat.self, from: bytes).snapshot.snapshot, version) }
        return (try JSON.decode(Read.self, from: bytes).snapshot, version)
    }

    private struct TimerRead: Decodable {
        var record: TimerRecord

        enum Key: String, CodingKey { case name, duration, state }
        enum State: String, CodingKey { case running, paused, ringing, done }
        enum Field: String, CodingKey { case ends, left, ended, since }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Key.self)
            let s = try c.nestedContainer(keyedBy: State.self, forKey: .state)
            guard s.allKeys.count == 1, let key = s.allKeys.first else {
                throw DecodingError.dataCorrupted(.init(codingPath: s.codingPath, debugDescription: "not one of running, paused, ringing, done"))
            }
            let f = try s.nestedContainer(keyedBy: Field.self, forKey: key)
            let state: TimerRecord.State = switch key {
            case .running: .running(ends: try f.decode(Int64.self, forKey: .ends))
            case .paused: .paused(left: try f.decode(Int64.self, forKey: .left))
            case .ringing: .ringing(ended: try f.decode(Int64.self, forKey: .ended), since: try f.decodeIfPresent(Int64.self, forKey: .since))
            case .done: .done
            }
            record = TimerRecord(name: try c.decode(String.self, forKey: .name), duration: try c.decode(Int64.self, forKey: .duration), state: state)
        }
    }

    private struct Version: Decodable {
        var version: Int
    }

    private struct Flat: Decodable {
        var snapshot: SnapshotJSON.Read
    }

    /// Versions 3 and 4: the count (one object with every mode's fields in
    /// 3, the program's own case under its mode's name in 4), then the
    /// box's objects, the same in both.
    private struct Read: Decodable {
        var snapshot: Snapshot

        enum Key: String, CodingKey { case version, count, presets, file, alarms, dimming, setAside, timers, clock }
        enum File: String, CodingKey { case mode, presets }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Key.self)
            let count: Snapshot.Count
            if try c.decode(Int.self, forKey: .version) >= 4 {
                count = try CountJSON.Read(from: decoder).count
            } else {
                let f = try c.nestedContainer(keyedBy: CountJSON.Field.self, forKey: .count)
                let presets = try c.nestedContainer(keyedBy: CountJSON.Presets.self, forKey: .presets)
                count = .init(program: try CountJSON.program(try f.mode(.mode), f, direction: try f.direction(.direction)),
                              presets: try presets.decode([Int64].self, forKey: .list), presetIndex: try presets.decode(Int.self, forKey: .index))
            }
            var s = Snapshot(count: count)
            if c.contains(.file) {
                let file = try c.nestedContainer(keyedBy: File.self, forKey: .file)
                s.fileMode = try file.modeIfPresent(.mode)
                s.filePresets = try file.decodeIfPresent([Int64].self, forKey: .presets)
            }
            s.alarms = try c.decodeIfPresent(SnapshotJSON.AlarmsRead.self, forKey: .alarms)?.alarms
            s.dimming = try c.decodeIfPresent(SnapshotJSON.DimmingRead.self, forKey: .dimming)?.dimming
            s.setAside = try c.decodeIfPresent(SnapshotJSON.SetAsideRead.self, forKey: .setAside)?.edits
            s.timers = try c.decodeIfPresent([TimerRead].self, forKey: .timers)?.map(\.record)
            if let clock = try c.decodeIfPresent(String.self, forKey: .clock) {
                guard clock == "unverified" else { throw DecodingError.dataCorruptedError(forKey: .clock, in: c, debugDescription: "\"clock\" is \"unverified\" or absent") }
                s.wallUnverified = true
            }
            try s.checked(in: c)
            snapshot = s
        }
    }
}

#if canImport(TockCore)
import TockCore  // `make fuzz-state` compiles the files it needs into one module instead
import TockJSON
#endif

/// The state file's format, version 3: what the shown mode is doing
/// (`count`), the box's preset list, the configuration file's mode and
/// presets when it was saved, the alarms, the dimming and the edits set
/// aside, each in its own object. A countdown to an instant spells its
/// target (`{"counting": {"target": …}}`) rather than a run since it.
///
///     {"version": 3,
///      "count": {"mode": "timer", "phase": {"running": {"since": …, "before": 0}},
///                "direction": "down", "leadIn": …, "overrunSince": …,
///                "program": …, "rounds": …, "finish": …},
///      "presets": {"list": [300000000000, …], "index": 0},
///      "file": {"mode": "timer", "presets": […]},
///      "alarms": {…}, "dimming": {…}, "setAside": {…}, "timers": […],
///      "clock": "unverified"}
///
/// `clock` (absent: verified) says the wall instants were written while
/// the clock was not synchronised: a restore corrects only instants that a
/// trusted clock wrote (Machine+Provisional.swift). It came within version
/// 3; a tock from before it ignores it.
/// Versions 1 and 2 (the flat `SnapshotJSON` shape) are read too, so a box
/// updated mid-count keeps its count; the next save writes version 3.
/// `timers` (the extra timers, absent when there are none) came within
/// version 3: a tock from before them reads such a file and leaves the
/// extra timers out (docs/timers.md).
/// Written with `JSON` (style `.encoder`), read through `Decodable` over `JSON`, checked whole by the
/// core (`Snapshot.check`).
enum StateFile {
    static let version = 3
    /// 1 and 2 are `SnapshotJSON`'s flat shape (2 added the daily alarms).
    static let readable = 1...version

    static func encode(_ s: Snapshot) -> [UInt8] {
        var count: [(String, JSON?)] = [
            ("mode", .string(s.mode.rawValue)),
            ("phase", phase(s)),
            ("direction", .string(s.direction.rawValue)),
            ("leadIn", s.leadIn.map { .int($0) }),
            ("overrunSince", s.overrunSince.map { .int($0) }),
        ]
        count += [
            ("program", s.program.map { .int(Int64($0)) }),
            ("rounds", s.roundsCounted.map { .int(Int64($0)) }),
            ("finish", s.finish.map { .int($0) }),
        ]
        let file: JSON? = s.fileMode == nil && s.filePresets == nil ? nil
            : .fields([("mode", s.fileMode.map { .string($0.rawValue) }), ("presets", s.filePresets.map(JSON.ints))])
        let fields: [(String, JSON?)] = [
            ("version", .int(Int64(version))),
            ("count", .fields(count)),
            ("presets", .fields([("list", .ints(s.presets)), ("index", .int(Int64(s.presetIndex)))])),
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

    /// A countdown's run toward its instant is written as that instant.
    static func phase(_ s: Snapshot) -> JSON {
        if s.mode == .countdown, case .running(let target, 0) = s.phase {
            return .fields([("counting", .fields([("target", .int(target))]))])
        }
        return SnapshotJSON.value(s.phase)
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

    private struct Read: Decodable {
        var snapshot: Snapshot

        enum Key: String, CodingKey { case count, presets, file, alarms, dimming, setAside, timers, clock }
        enum Count: String, CodingKey { case mode, phase, direction, leadIn, overrunSince, program, rounds, finish }
        enum Presets: String, CodingKey { case list, index }
        enum File: String, CodingKey { case mode, presets }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Key.self)
            let count = try c.nestedContainer(keyedBy: Count.self, forKey: .count)
            let presets = try c.nestedContainer(keyedBy: Presets.self, forKey: .presets)
            let mode = try count.mode(.mode)
            let phase = try count.decode(SnapshotJSON.PhaseRead.self, forKey: .phase)
            guard !phase.counting || mode == .countdown else { throw count.refusal(.phase, "counting toward an instant is a countdown's") }
            var s = Snapshot(mode: mode, phase: phase.phase, presets: try presets.decode([Int64].self, forKey: .list),
                             presetIndex: try presets.decode(Int.self, forKey: .index), direction: try count.direction(.direction))
            s.leadIn = try count.decodeIfPresent(Int64.self, forKey: .leadIn)
            s.overrunSince = try count.decodeIfPresent(Int64.self, forKey: .overrunSince)
            s.program = try count.decodeIfPresent(Int.self, forKey: .program)
            s.roundsCounted = try count.decodeIfPresent(Int.self, forKey: .rounds)
            s.finish = try count.decodeIfPresent(Int64.self, forKey: .finish)
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

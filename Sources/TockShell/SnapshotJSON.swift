#if canImport(TockCore)
import TockCore  // `make fuzz-state` compiles the files it needs into one module instead
import TockJSON
#endif

/// A snapshot in the flat shape of the state file's versions 1 and 2, which
/// is also the `state` of a fleet group's message (format 1, TockMQTT): the
/// mode's fields and the box's side by side, optional fields absent. Frozen:
/// a version-2 file must always load, and a group's members running older
/// versions read what this writes. The state file moved on to its own
/// shapes (`StateFile`, versions 3 and 4).
///
/// Written with `JSON` in its `.encoder` style (byte for byte what Foundation's encoder gave
/// for the snapshot's synthesized `Codable` when the core still held it;
/// `SnapshotJSONTests` checks it against files written then), read through
/// `Decodable` here, checked whole by the core (`Snapshot.check`).
public enum SnapshotJSON {
    public static func value(_ s: Snapshot) -> JSON {
        let f = s.count.program.flat
        return .fields([
            ("mode", .string(s.mode.rawValue)),
            ("phase", value(s.count.program.phase)),
            ("presets", .ints(s.count.presets)),
            ("presetIndex", .int(Int64(s.count.presetIndex))),
            ("direction", .string(f.direction.rawValue)),
            ("fileMode", s.fileMode.map { .string($0.rawValue) }),
            ("alarms", s.alarms.map(value)),
            ("filePresets", s.filePresets.map(JSON.ints)),
            ("leadIn", f.leadIn.map { .int($0) }),
            ("overrunSince", f.overrunSince.map { .int($0) }),
            ("program", f.program.map { .int(Int64($0)) }),
            ("roundsCounted", f.rounds.map { .int(Int64($0)) }),
            ("finish", f.finish.map { .int($0) }),
            ("dimming", s.dimming.map(value)),
            ("setAside", s.setAside.map(value)),
        ])
    }

    /// A fleet group's count in the flat shape (format 1's `state`).
    public static func value(_ c: Snapshot.Count) -> JSON { value(Snapshot(count: c)) }

    /// An enum case as Swift's synthesized coding wrote it: an object with
    /// the case's name as its one key, its labelled values inside.
    static func value(_ p: Snapshot.Phase) -> JSON {
        switch p {
        case .ready: .fields([("ready", .fields([]))])
        case .running(let since, let before): .fields([("running", .fields([("since", .int(since)), ("before", .int(before))]))])
        case .paused(let elapsed): .fields([("paused", .fields([("elapsed", .int(elapsed))]))])
        case .ringing(let since): .fields([("ringing", .fields([("since", .int(since))]))])
        case .done: .fields([("done", .fields([]))])
        case .over: .fields([("over", .fields([]))])
        }
    }

    static func value(_ a: SetAsideEdits) -> JSON {
        .fields([
            ("presets", .array(a.presets.map { .fields([("file", .ints($0.file)), ("presets", .ints($0.presets)), ("index", .int(Int64($0.index)))]) })),
            ("alarms", .array(a.alarms.map(value))),
        ])
    }

    static func value(_ d: DimmingSnapshot) -> JSON {
        .fields([("brightness", .int(Int64(d.brightness))), ("night", d.night.map { .ints($0.map(Int64.init)) }),
                 ("file", .string(d.file))])
    }

    static func value(_ a: AlarmsSnapshot) -> JSON {
        .fields([
            ("items", .array(a.items.map(value))),
            ("file", .strings(a.file)),
            ("minute", a.minute.map { .int(Int64($0)) }),
            ("labels", a.labels.map(JSON.strings)),
            ("ringing", a.ringing.map { .int($0) }),
            ("snoozedUntil", a.snoozedUntil.map { .int($0) }),
        ])
    }

    static func value(_ i: AlarmsSnapshot.Item) -> JSON {
        .fields([("at", .string(i.at)), ("days", .string(i.days)), ("label", .string(i.label)),
                 ("enabled", .bool(i.enabled)), ("handled", .int(i.handled))])
    }

    /// A snapshot read in the flat shape and checked whole.
    public struct Read: Decodable {
        public var snapshot: Snapshot

        enum Key: String, CodingKey {
            case mode, phase, presets, presetIndex, direction, fileMode, alarms, filePresets, leadIn, overrunSince
            case program, roundsCounted, finish, dimming, setAside
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Key.self)
            let program = Program.Saved(mode: try c.mode(.mode), phase: try c.decode(PhaseRead.self, forKey: .phase).phase,
                                        direction: try c.direction(.direction),
                                        leadIn: try c.decodeIfPresent(Int64.self, forKey: .leadIn),
                                        overrunSince: try c.decodeIfPresent(Int64.self, forKey: .overrunSince),
                                        program: try c.decodeIfPresent(Int.self, forKey: .program),
                                        rounds: try c.decodeIfPresent(Int.self, forKey: .roundsCounted),
                                        finish: try c.decodeIfPresent(Int64.self, forKey: .finish))
            var s = Snapshot(count: .init(program: program, presets: try c.decode([Int64].self, forKey: .presets),
                                          presetIndex: try c.decode(Int.self, forKey: .presetIndex)))
            s.fileMode = try c.modeIfPresent(.fileMode)
            s.alarms = try c.decodeIfPresent(AlarmsRead.self, forKey: .alarms)?.alarms
            s.filePresets = try c.decodeIfPresent([Int64].self, forKey: .filePresets)
            s.dimming = try c.decodeIfPresent(DimmingRead.self, forKey: .dimming)?.dimming
            s.setAside = try c.decodeIfPresent(SetAsideRead.self, forKey: .setAside)?.edits
            try s.checked(in: c)
            snapshot = s
        }
    }

    /// A phase as an object with the case's name as its one key;
    /// `counting` (the state file's version 3 spelling of a countdown's
    /// target) only where `countdown` allows it.
    struct PhaseRead: Decodable {
        var phase: Snapshot.Phase
        /// Read as `counting`: a countdown to the instant `since`.
        var counting = false

        enum Key: String, CodingKey { case ready, running, paused, ringing, done, over, counting }
        enum Field: String, CodingKey { case since, before, elapsed, target }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Key.self)
            guard c.allKeys.count == 1, let key = c.allKeys.first else {
                throw DecodingError.dataCorrupted(.init(codingPath: c.codingPath, debugDescription: "not one of ready, running, paused, ringing, done, over"))
            }
            let f = try c.nestedContainer(keyedBy: Field.self, forKey: key)
            switch key {
            case .ready: phase = .ready
            case .running: phase = .running(since: try f.decode(Int64.self, forKey: .since), before: try f.decode(Int64.self, forKey: .before))
            case .paused: phase = .paused(elapsed: try f.decode(Int64.self, forKey: .elapsed))
            case .ringing: phase = .ringing(since: try f.decode(Int64.self, forKey: .since))
            case .done: phase = .done
            case .over: phase = .over
            case .counting:
                phase = .running(since: try f.decode(Int64.self, forKey: .target), before: 0)
                counting = true
            }
        }
    }

    struct AlarmsRead: Decodable {
        var alarms: AlarmsSnapshot

        enum Key: String, CodingKey { case items, file, minute, labels, ringing, snoozedUntil }
        struct Item: Decodable {
            var at: String, days: String, label: String, enabled: Bool, handled: Int64
        }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Key.self)
            let items = try c.decode([Item].self, forKey: .items)
            alarms = AlarmsSnapshot(items: items.map { .init(at: $0.at, days: $0.days, label: $0.label, enabled: $0.enabled, handled: $0.handled) },
                                    file: try c.decode([String].self, forKey: .file))
            alarms.minute = try c.decodeIfPresent(Int.self, forKey: .minute)
            alarms.labels = try c.decodeIfPresent([String].self, forKey: .labels)
            alarms.ringing = try c.decodeIfPresent(Int64.self, forKey: .ringing)
            alarms.snoozedUntil = try c.decodeIfPresent(Int64.self, forKey: .snoozedUntil)
        }
    }

    struct DimmingRead: Decodable {
        var dimming: DimmingSnapshot

        enum Key: String, CodingKey { case brightness, night, file }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Key.self)
            dimming = DimmingSnapshot(brightness: try c.decode(Int.self, forKey: .brightness), night: try c.decodeIfPresent([Int].self, forKey: .night),
                                      file: try c.decode(String.self, forKey: .file))
        }
    }

    struct SetAsideRead: Decodable {
        var edits: SetAsideEdits

        enum Key: String, CodingKey { case presets, alarms }
        struct Presets: Decodable {
            var file: [Int64], presets: [Int64], index: Int
        }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Key.self)
            edits = SetAsideEdits(presets: try c.decode([Presets].self, forKey: .presets).map { .init(file: $0.file, presets: $0.presets, index: $0.index) },
                                  alarms: try c.decode([AlarmsRead].self, forKey: .alarms).map(\.alarms))
        }
    }
}

extension KeyedDecodingContainer {
    /// A mode by its name; an unknown one is refused with it.
    func mode(_ key: Key) throws -> Settings.Mode {
        let text = try decode(String.self, forKey: key)
        guard let mode = Settings.Mode(rawValue: text) else { throw refusal(key, "unknown mode \"\(text.prefix(32))\"") }
        return mode
    }

    func modeIfPresent(_ key: Key) throws -> Settings.Mode? {
        try decodeIfPresent(String.self, forKey: key) == nil ? nil : try mode(key)
    }

    func direction(_ key: Key) throws -> SwitchPosition {
        let text = try decode(String.self, forKey: key)
        guard let direction = SwitchPosition(rawValue: text) else { throw refusal(key, "unknown direction \"\(text.prefix(32))\"") }
        return direction
    }

    /// The error for a value at `key` that decodes but is refused, and why.
    func refusal(_ key: Key, _ why: String) -> DecodingError {
        .dataCorruptedError(forKey: key, in: self, debugDescription: why)
    }
}

extension Snapshot {
    /// Checked by the core (`check`); a refusal is a decoding error at the
    /// container being read, naming the field.
    func checked<K>(in c: KeyedDecodingContainer<K>) throws {
        do { try check() } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: c.codingPath, debugDescription: error.description))
        }
    }
}

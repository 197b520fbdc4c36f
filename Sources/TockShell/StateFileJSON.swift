import TockCore

/// The state file's JSON written directly: the bytes `JSONEncoder` with
/// `.sortedKeys` gives for `StateStore.File` (keys in byte order, `/`
/// escaped as `\/`, control characters as `\n`-style or `\u00XX` escapes,
/// everything else as UTF-8), without its generic machinery: its first use
/// looks up at run time which of a dozen Foundation types each value is,
/// and those lookups were 3 M instructions, an eighth of the service's
/// start-up (Benchmarks/README.md, start-up). `StateFileJSONTests` checks
/// the bytes against `JSONEncoder` and that every stored property of the
/// snapshot is written; the reader is still `JSONDecoder`.
enum StateFileJSON {
    indirect enum Value {
        case int(Int64)
        case bool(Bool)
        case string(String)
        case array([Value])
        /// Keys with nil values are left out, as `encodeIfPresent` does.
        case object([(String, Value?)])
    }

    static func encode(version: Int, snapshot: Snapshot) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(512)
        write(.object([("version", .int(Int64(version))), ("snapshot", value(snapshot))]), to: &out)
        return out
    }

    static func value(_ s: Snapshot) -> Value {
        .object([
            ("mode", .string(s.mode.rawValue)),
            ("phase", value(s.phase)),
            ("presets", ints(s.presets)),
            ("presetIndex", .int(Int64(s.presetIndex))),
            ("direction", .string(s.direction.rawValue)),
            ("fileMode", s.fileMode.map { .string($0.rawValue) }),
            ("alarms", s.alarms.map(value)),
            ("filePresets", s.filePresets.map(ints)),
            ("leadIn", s.leadIn.map { .int($0) }),
            ("overrunSince", s.overrunSince.map { .int($0) }),
            ("program", s.program.map { .int(Int64($0)) }),
            ("roundsCounted", s.roundsCounted.map { .int(Int64($0)) }),
            ("finish", s.finish.map { .int($0) }),
            ("dimming", s.dimming.map(value)),
            ("setAside", s.setAside.map(value)),
        ])
    }

    static func value(_ a: SetAsideEdits) -> Value {
        .object([
            ("presets", .array(a.presets.map { .object([("file", ints($0.file)), ("presets", ints($0.presets)), ("index", .int(Int64($0.index)))]) })),
            ("alarms", .array(a.alarms.map(value))),
        ])
    }

    static func value(_ d: DimmingSnapshot) -> Value {
        .object([("brightness", .int(Int64(d.brightness))), ("night", d.night.map { ints($0.map(Int64.init)) }),
                 ("file", .string(d.file))])
    }

    /// An enum case as Swift's synthesized coding writes it: an object with
    /// the case's name as its one key, its labelled values inside.
    static func value(_ p: Snapshot.Phase) -> Value {
        switch p {
        case .ready: .object([("ready", .object([]))])
        case .running(let since, let before): .object([("running", .object([("since", .int(since)), ("before", .int(before))]))])
        case .paused(let elapsed): .object([("paused", .object([("elapsed", .int(elapsed))]))])
        case .ringing(let since): .object([("ringing", .object([("since", .int(since))]))])
        case .done: .object([("done", .object([]))])
        case .over: .object([("over", .object([]))])
        }
    }

    static func value(_ a: AlarmsSnapshot) -> Value {
        .object([
            ("items", .array(a.items.map(value))),
            ("file", strings(a.file)),
            ("minute", a.minute.map { .int(Int64($0)) }),
            ("labels", a.labels.map(strings)),
            ("ringing", a.ringing.map { .int($0) }),
            ("snoozedUntil", a.snoozedUntil.map { .int($0) }),
        ])
    }

    static func value(_ i: AlarmsSnapshot.Item) -> Value {
        .object([("at", .string(i.at)), ("days", .string(i.days)), ("label", .string(i.label)),
                 ("enabled", .bool(i.enabled)), ("handled", .int(i.handled))])
    }

    static func ints(_ v: [Int64]) -> Value { .array(v.map { .int($0) }) }
    static func strings(_ v: [String]) -> Value { .array(v.map { .string($0) }) }

    static func write(_ v: Value, to out: inout [UInt8]) {
        switch v {
        case .int(let n): out.append(contentsOf: String(n).utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .string(let s): write(s, to: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (k, item) in items.enumerated() {
                if k > 0 { out.append(UInt8(ascii: ",")) }
                write(item, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let fields):
            out.append(UInt8(ascii: "{"))
            let present = fields.compactMap { key, value in value.map { (key, $0) } }
            for (k, field) in present.sorted(by: { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }).enumerated() {
                if k > 0 { out.append(UInt8(ascii: ",")) }
                write(field.0, to: &out)
                out.append(UInt8(ascii: ":"))
                write(field.1, to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    static func write(_ s: String, to out: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        out.append(UInt8(ascii: "\""))
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out += [UInt8(ascii: "\\"), byte]
            case 0x08: out += Array("\\b".utf8)
            case 0x09: out += Array("\\t".utf8)
            case 0x0A: out += Array("\\n".utf8)
            case 0x0C: out += Array("\\f".utf8)
            case 0x0D: out += Array("\\r".utf8)
            case 0..<0x20: out += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}

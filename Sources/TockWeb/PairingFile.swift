import Glibc
import TockCore
import TockJSON
import TockLinux

/// The pairing guard on disk (`pairing.json` beside the tokens), so that a
/// restart of tock-web (a crash, `Restart=always`, a reboot) gives a
/// guesser nothing: version 1, times in nanoseconds since 1970 (the wall
/// clock, which outlives a reboot; `Pairing.restored` cuts a lockout that
/// a clock set back would stretch). Written with `DurableFile` (fsync,
/// rename) at each change, which is at most a few times a minute: wrong
/// guesses lock out after five, codes are limited to three per ten minutes.
public struct PairingFile: Sendable {
    public let path: String

    public init(path: String) { self.path = path }

    struct Record: Equatable {
        var version: Int
        var wrong: Int
        var rounds: Int
        var lockedUntil: Int64?
        var codesAsked: [Int64]

        var json: JSON {
            .fields([("version", version.json), ("wrong", wrong.json), ("rounds", rounds.json),
                     ("locked_until_ns", lockedUntil.map(JSON.int)), ("codes_asked_ns", .ints(codesAsked))])
        }

        /// Every field of its kind (`locked_until_ns` may be absent or null);
        /// fields this version does not know are passed over.
        init(_ v: JSON) throws(Failure) {
            func field<T>(_ key: String, _ read: (JSON) -> T?, _ kind: String) throws(Failure) -> T {
                guard let value = v[key].flatMap(read) else { throw Failure(description: "\"\(key)\" must be \(kind)") }
                return value
            }
            guard v.object != nil else { throw Failure(description: "\(v.kind), not an object") }
            version = try field("version", \.int, "a whole number")
            wrong = try field("wrong", \.int, "a whole number")
            rounds = try field("rounds", \.int, "a whole number")
            lockedUntil = nil
            if let t = v["locked_until_ns"], !t.isNull { lockedUntil = try field("locked_until_ns", \.int64, "a whole number or null") }
            let asked = try field("codes_asked_ns", \.array, "a list of whole numbers")
            codesAsked = asked.compactMap(\.int64)
            guard codesAsked.count == asked.count else { throw Failure(description: "\"codes_asked_ns\" must be a list of whole numbers") }
        }

        init(version: Int, wrong: Int, rounds: Int, lockedUntil: Int64?, codesAsked: [Int64]) {
            (self.version, self.wrong, self.rounds, self.lockedUntil, self.codesAsked) = (version, wrong, rounds, lockedUntil, codesAsked)
        }
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// The guard kept at `path`, or a fresh one if there is no file. A file
    /// that cannot be read is an error: the caller locks rather than
    /// forgets.
    public func load() throws(Failure) -> Pairing.Guard {
        guard FileSystem.exists(path) else { return Pairing.Guard() }
        guard let data = FileSystem.contents(path) else { throw Failure(description: "\(path): cannot be read") }
        let r: Record
        do { r = try Record(try JSON.parse(Array(data), limits: JSON.Limits(maxBytes: 64 * 1024, maxDepth: 4))) } catch {
            throw Failure(description: "\(path): not a pairing record (\(error)); remove it to start again")
        }
        guard r.version == 1 else { throw Failure(description: "\(path): version \(r.version), this tock-web reads version 1") }
        return Pairing.Guard(wrong: max(0, r.wrong), rounds: max(0, r.rounds),
                             lockedUntil: r.lockedUntil.map { Instant(nanoseconds: $0) },
                             codesAsked: r.codesAsked.map { Instant(nanoseconds: $0) })
    }

    public func save(_ g: Pairing.Guard) throws(Failure) {
        let r = Record(version: 1, wrong: g.wrong, rounds: g.rounds, lockedUntil: g.lockedUntil?.nanoseconds,
                       codesAsked: g.codesAsked.map(\.nanoseconds))
        do { try DurableFile.replace(path, with: r.json.bytes(.encoder) + [0x0A]) } catch { throw Failure(description: "\(error)") }
    }
}

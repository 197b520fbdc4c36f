import Foundation
import TockCore
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

    struct Record: Codable, Equatable {
        var version: Int
        var wrong: Int
        var rounds: Int
        var lockedUntil: Int64?
        var codesAsked: [Int64]

        enum CodingKeys: String, CodingKey {
            case version, wrong, rounds
            case lockedUntil = "locked_until_ns"
            case codesAsked = "codes_asked_ns"
        }
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// The guard kept at `path`, or a fresh one if there is no file. A file
    /// that cannot be read is an error: the caller locks rather than
    /// forgets.
    public func load() throws(Failure) -> Pairing.Guard {
        guard FileManager.default.fileExists(atPath: path) else { return Pairing.Guard() }
        guard let data = FileManager.default.contents(atPath: path) else { throw Failure(description: "\(path): cannot be read") }
        let r: Record
        do { r = try JSONDecoder().decode(Record.self, from: data) } catch {
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
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let bytes: [UInt8]
        do { bytes = Array(try encoder.encode(r)) } catch { throw Failure(description: "\(path): \(error)") }
        do { try DurableFile.replace(path, with: bytes + [0x0A]) } catch { throw Failure(description: "\(error)") }
    }
}

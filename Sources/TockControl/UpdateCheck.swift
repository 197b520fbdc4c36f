import TockJSON
/// What the daily check of the apt repository found: the file
/// `deploy/update/tock-update-check` writes (`/var/lib/tock/update-check.json`,
/// docs/updates.md) and the box reads, never writes. Its format 1 is one
/// flat JSON object:
///
///     {"v":1,"checked":"2026-11-27T03:12:09Z","result":"available",
///      "installed":"0.1.0","latest":"0.1.1","reason":"..."}
///
/// The box does not compare versions itself: the check asked dpkg
/// (`dpkg --compare-versions`, epochs and `~` as Debian orders them), and
/// `result` says what it answered. Every field is bounded here, so a file
/// that is not the check's (too long, a version that is not a Debian one,
/// an unknown result) is refused with what is wrong, never shown.
public struct UpdateCheck: Sendable, Equatable {
    public enum Result: String, CaseIterable, Sendable {
        /// `latest` is newer than `installed`.
        case available
        /// The repository offers nothing newer than `installed`.
        case current
        /// No sources entry, or the image's placeholder address.
        case noRepository = "no_repository"
        /// apt refused the repository: another key, no signature, a
        /// Release dated after the box's clock.
        case refused
        /// No answer within the check's time, or no tock in it.
        case unreachable
        /// The repository offered a version that is not a Debian version
        /// of at most `maxVersion` characters.
        case invalid
    }

    /// When the check ran, `YYYY-MM-DDTHH:MM:SSZ`.
    public var checked: String
    public var result: Result
    /// The package's version as dpkg has it installed (nil: tock is not
    /// installed as a package).
    public var installed: String?
    /// The newest version the repository offers (with `available` and
    /// `current`).
    public var latest: String?
    /// Why, for a person (with every result but `available` and `current`).
    public var reason: String?

    public init(checked: String, result: Result, installed: String?, latest: String?, reason: String? = nil) {
        (self.checked, self.result, self.installed, self.latest, self.reason) = (checked, result, installed, latest, reason)
    }

    /// The check writes a few hundred bytes; a larger file is not its.
    public static let maxBytes = 1024
    /// A version, as the check bounds it (Debian's own have no limit).
    public static let maxVersion = 64
    /// The reason, as the check cuts it.
    public static let maxReason = 240
    /// The file's name in the state directory.
    public static let fileName = "update-check.json"
    public static let format = 1

    public struct Invalid: Error, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// The check's file, read strictly: every field named, bounded, and
    /// of its kind.
    public static func parse(_ bytes: [UInt8]) throws(Invalid) -> UpdateCheck {
        func invalid(_ what: String) -> Invalid { Invalid(description: "\(fileName): \(what)") }
        guard bytes.count <= maxBytes else {
            throw invalid("\(bytes.count) bytes, more than the check's \(maxBytes); it is not the check's (run tock-update-check again)")
        }
        let f: JSONObject
        do { f = try JSON.object(bytes, limits: JSON.Limits(maxBytes: maxBytes, maxDepth: 1)) } catch { throw invalid("not a JSON object (\(error.description))") }
        if let unknown = f.keys.sorted().first(where: { !["v", "checked", "result", "installed", "latest", "reason"].contains($0) }) {
            throw invalid("an unknown field \"\(unknown.prefix(32))\"")
        }
        guard f["v"]?.int == format else {
            throw invalid("\"v\" must be \(format), the format this tock reads (is tock-update-check newer than tock?)")
        }
        guard let checked = f["checked"]?.string, isTimestamp(checked) else {
            throw invalid("\"checked\" must be a time as YYYY-MM-DDTHH:MM:SSZ")
        }
        guard let text = f["result"]?.string, let result = Result(rawValue: text) else {
            throw invalid("\"result\" must be one of \(Result.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        func version(_ key: String) throws(Invalid) -> String? {
            guard let v = f[key] else { return nil }
            guard let s = v.string, isDebianVersion(s) else {
                throw invalid("\"\(key)\" must be a Debian version of at most \(maxVersion) characters")
            }
            return s
        }
        let installed = try version("installed")
        let latest = try version("latest")
        var reason: String?
        if let r = f["reason"] {
            guard let s = r.string, s.unicodeScalars.count <= maxReason, !s.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
                throw invalid("\"reason\" must be one line of at most \(maxReason) characters")
            }
            reason = s
        }
        if result == .available || result == .current, latest == nil {
            throw invalid("\"\(result.rawValue)\" needs \"latest\"")
        }
        return UpdateCheck(checked: checked, result: result, installed: installed, latest: latest, reason: reason)
    }

    /// Debian policy 5.6.12, as far as the box needs it: `[epoch:]upstream[-revision]`,
    /// the epoch digits, the upstream starting with a digit, only letters,
    /// digits and `.+~-` after it (`:` only for the epoch).
    public static func isDebianVersion(_ s: String) -> Bool {
        guard !s.isEmpty, s.utf8.count <= maxVersion else { return false }
        var rest = Substring(s)
        if let colon = s.firstIndex(of: ":") {
            let epoch = s[..<colon]
            guard !epoch.isEmpty, epoch.allSatisfy({ $0.isASCII && $0.isNumber }) else { return false }
            rest = s[s.index(after: colon)...]
        }
        guard let first = rest.first, first.isASCII, first.isNumber, !rest.hasSuffix("-") else { return false }
        return rest.allSatisfy { c in c.isASCII && (c.isLetter || c.isNumber || ".+~-".contains(c)) }
    }

    static func isTimestamp(_ s: String) -> Bool {
        let u = Array(s.utf8)
        guard u.count == 20 else { return false }
        for (i, c) in u.enumerated() {
            let want: UInt8? = [4: UInt8(ascii: "-"), 7: UInt8(ascii: "-"), 10: UInt8(ascii: "T"), 13: UInt8(ascii: ":"),
                                16: UInt8(ascii: ":"), 19: UInt8(ascii: "Z")][i]
            if let want { guard c == want else { return false } } else { guard c >= 0x30 && c <= 0x39 else { return false } }
        }
        return true
    }

    /// The status's `update` field (`tock status --json`).
    public var json: JSONObject {
        var o: JSONObject = ["result": .string(result.rawValue), "checked": .string(checked)]
        o.set("installed", installed)
        o.set("latest", latest)
        o.set("reason", reason)
        return o
    }

    /// Read back from the status's `update` field.
    public init?(json o: JSONObject) {
        guard let r = o["result"]?.string.flatMap(Result.init(rawValue:)), let checked = o["checked"]?.string else { return nil }
        self.init(checked: checked, result: r, installed: o["installed"]?.string, latest: o["latest"]?.string, reason: o["reason"]?.string)
    }

    /// One line for `tock status`.
    public var line: String {
        switch result {
        case .available: "update: tock \(latest ?? "?") available (installed \(installed ?? "?")): run tock-update on the box as root"
        case .current: "update: up to date (\(installed ?? "?"); the repository offers \(latest ?? "?"))"
        case .noRepository: "update: no repository configured (\(reason ?? ""))"
        case .refused: "update: the repository was refused (\(reason ?? ""))"
        case .unreachable: "update: the repository did not answer (\(reason ?? ""))"
        case .invalid: "update: the repository's version was refused (\(reason ?? ""))"
        }
    }
}

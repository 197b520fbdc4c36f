import Glibc
import TockCore
import TockLinux

/// Finds a zone's rules in the tz database the system ships (tzdata):
/// `/usr/share/zoneinfo/NAME` (or `$TZDIR/NAME`), the `TZ` variable, or
/// `/etc/localtime`, as the C library does.
public enum ZoneFile {
    static func directory(_ environment: Environment.Variables) -> String { environment["TZDIR"] ?? "/usr/share/zoneinfo" }

    /// The zone a name such as `Europe/Berlin` stands for.
    public static func named(_ name: String, environment: Environment.Variables = Environment.variables("TZ", "TZDIR")) throws(ZoneRules.Invalid) -> ZoneRules {
        guard !name.isEmpty, !name.hasPrefix("/"), !name.split(separator: "/").contains("..") else {
            throw ZoneRules.Invalid("\"\(name)\" is not a zone name; use a tz database name such as Europe/Berlin")
        }
        let dir = directory(environment)
        return try read("\(dir)/\(name)", name: name, directory: dir)
    }

    /// The system's zone: `TZ` if set (a name, a file, or a POSIX rule such
    /// as `CET-1CEST,M3.5.0,M10.5.0/3`), else `/etc/localtime`, else UTC.
    public static func system(environment: Environment.Variables = Environment.variables("TZ", "TZDIR")) throws(ZoneRules.Invalid) -> ZoneRules {
        if var tz = environment["TZ"], !tz.isEmpty {
            if tz.hasPrefix(":") { tz.removeFirst() }
            if tz.hasPrefix("/") { return try read(tz, name: tz, directory: directory(environment)) }
            if FileSystem.exists("\(directory(environment))/\(tz)") { return try named(tz, environment: environment) }
            // TZ=UTC without tzdata: not a POSIX rule (no offset), but the C
            // library reads it as UTC, and so does Tock.
            if utcNames.contains(tz) { return .utc }
            return try ZoneRules(posix: tz)
        }
        guard FileSystem.exists("/etc/localtime") else { return .utc }
        let target = FileSystem.linkTarget("/etc/localtime") ?? ""
        let tail = afterLastZoneinfo(target)
        let name = tail.isEmpty ? "localtime" : tail
        return try read("/etc/localtime", name: name, directory: directory(environment))
    }

    /// What follows the last "zoneinfo/" in a link's target (the zone's
    /// name), or the whole target. Byte by byte: the standard library's
    /// generic `ranges(of:)` cost start-up half a million instructions.
    static func afterLastZoneinfo(_ target: String) -> String {
        let bytes = Array(target.utf8), marker = Array("zoneinfo/".utf8)
        var i = bytes.count - marker.count
        while i >= 0 {
            if bytes[i..<i + marker.count].elementsEqual(marker) { return String(decoding: bytes[(i + marker.count)...], as: UTF8.self) }
            i -= 1
        }
        return target
    }

    static let utcNames: Set<String> = ["UTC", "UCT", "GMT", "Zulu", "Universal", "Etc/UTC", "Etc/UCT", "Etc/GMT", "Etc/Zulu", "Etc/Universal"]

    private static func read(_ path: String, name: String, directory: String) throws(ZoneRules.Invalid) -> ZoneRules {
        guard let data = FileSystem.contents(path) else {
            throw ZoneRules.Invalid("no zone \"\(name)\": cannot read \(path) (is tzdata installed? `ls \(directory)` lists the names)")
        }
        return try ZoneRules(tzif: [UInt8](data), name: name)
    }
}

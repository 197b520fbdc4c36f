/// A time zone's rules, as the tz database gives them: the offset from UTC
/// in force at any instant, and the instant a local time of day falls on.
///
/// Built from a TZif file's bytes (RFC 8536; the appliance reads
/// `/usr/share/zoneinfo/NAME` or `/etc/localtime`) or from a POSIX `TZ`
/// string; the core stays free of I/O and of the C library's global zone.
/// Times after the file's last transition follow its footer rule, so a
/// "slim" file (transitions only while the rules changed) works as well as
/// a "fat" one.
public struct ZoneRules: Equatable, Sendable {
    public struct Invalid: Error, Equatable, CustomStringConvertible {
        public var description: String
        public init(_ d: String) { description = d }
    }

    struct Transition: Equatable, Sendable {
        /// UTC seconds at which `offset` (seconds east of UTC) begins.
        var at: Int64
        var offset: Int
    }

    /// A tz database name (`Europe/Berlin`) or the POSIX string it came from.
    public var name: String
    var transitions: [Transition]
    /// The offset before the first transition.
    var initial: Int
    /// The rule after the last transition (TZif footer).
    var rule: PosixZoneRule?

    public static let utc = ZoneRules(name: "UTC", transitions: [], initial: 0, rule: nil)

    /// The offsets a zone may have, in seconds east of UTC: RFC 8536
    /// section 3.2 says a UT offset SHOULD lie in [-89999, 93599]
    /// (-24:59:59 to +25:59:59); POSIX allows 0 to 24 hours either way.
    /// Within this bound the local time `l` is read only by instants in
    /// `l - upperBound ... l - lowerBound`, which `instant(of:second:)`
    /// searches; a zone outside it is refused where it is read.
    public static let offsets = -89_999...93_599

    init(name: String, transitions: [Transition], initial: Int, rule: PosixZoneRule?) {
        self.name = name
        self.transitions = transitions
        self.initial = initial
        self.rule = rule
    }

    /// A POSIX TZ string such as `CET-1CEST,M3.5.0,M10.5.0/3`.
    public init(posix: String) throws(Invalid) {
        let r = try PosixZoneRule(posix)
        self.init(name: posix, transitions: [], initial: r.standard, rule: r)
    }

    // MARK: - TZif (RFC 8536)

    /// Parse a TZif file. Version 1 files have 32-bit times only; later
    /// versions repeat the data with 64-bit times and end with the footer
    /// rule, which is what is used here.
    public init(tzif bytes: [UInt8], name: String) throws(Invalid) {
        var reader = ByteReader(bytes: bytes)
        func header() throws(Invalid) -> (version: UInt8, counts: [Int]) {
            guard Array(reader.take(4)) == Array("TZif".utf8) else { throw Invalid("\(name) is not a TZif zone file (no TZif magic)") }
            let version = reader.take(1).first ?? 0
            _ = reader.take(15)
            var counts: [Int] = []
            for _ in 0..<6 { counts.append(Int(try reader.int32(name))) }
            guard counts.allSatisfy({ $0 >= 0 }) else { throw Invalid("\(name): negative counts in the TZif header") }
            return (version, counts)
        }
        var (version, c) = try header()
        var timeSize = 4
        if version >= UInt8(ascii: "2") {
            // Skip the version 1 block; the 64-bit block follows.
            let skip = c[3] * 4 + c[3] + c[4] * 6 + c[5] + c[2] * 8 + c[1] + c[0]
            guard reader.skip(skip) else { throw Invalid("\(name): TZif file is truncated") }
            (version, c) = try header()
            timeSize = 8
        }
        let (isut, isstd, leap, timecnt, typecnt, charcnt) = (c[0], c[1], c[2], c[3], c[4], c[5])
        guard typecnt > 0 else { throw Invalid("\(name): TZif file has no local time types") }
        var times: [Int64] = []
        for _ in 0..<timecnt { times.append(timeSize == 8 ? try reader.int64(name) : Int64(try reader.int32(name))) }
        var indices: [Int] = []
        for _ in 0..<timecnt {
            guard let i = reader.take(1).first, Int(i) < typecnt else { throw Invalid("\(name): TZif transition names a missing type") }
            indices.append(Int(i))
        }
        var offsets: [Int] = []
        for _ in 0..<typecnt {
            let offset = Int(try reader.int32(name))
            guard Self.offsets.contains(offset) else {
                throw Invalid("\(name): a local time type is \(offset) s from UTC, beyond the -24:59:59 to +25:59:59 a zone may have (RFC 8536)")
            }
            offsets.append(offset)
            _ = reader.take(2)  // isdst, abbreviation index
        }
        guard reader.skip(charcnt + leap * (timeSize + 4) + isstd + isut) else { throw Invalid("\(name): TZif file is truncated") }
        var rule: PosixZoneRule? = nil
        if version >= UInt8(ascii: "2") {
            let rest = reader.rest
            if rest.first == 0x0A, let end = rest.dropFirst().firstIndex(of: 0x0A) {
                let text = String(decoding: rest[rest.index(after: rest.startIndex)..<end], as: UTF8.self)
                if !text.isEmpty { rule = try PosixZoneRule(text) }
            }
        }
        self.init(name: name, transitions: zip(times, indices).map { Transition(at: $0, offset: offsets[$1]) },
                  initial: offsets[0], rule: rule)
    }

    // MARK: - Lookups

    /// Seconds east of UTC in force at `utc` (seconds since 1970).
    public func offset(at utc: Int64) -> Int {
        if let last = transitions.last, utc >= last.at, let rule { return rule.offset(at: utc) }
        if transitions.isEmpty { return rule?.offset(at: utc) ?? initial }
        // The last transition at or before `utc`.
        var lo = 0, hi = transitions.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if transitions[mid].at <= utc { lo = mid + 1 } else { hi = mid }
        }
        return lo == 0 ? initial : transitions[lo - 1].offset
    }

    public func offset(at w: WallTime) -> Int { offset(at: w.nanoseconds.floorDivided(by: 1_000_000_000)) }

    /// The local date and the second of that day at `w`.
    public func local(at w: WallTime) -> (date: CivilDate, second: Int) {
        let s = w.nanoseconds.floorDivided(by: 1_000_000_000)
        let l = s + Int64(offset(at: s))
        let days = l.floorDivided(by: 86_400)
        return (CivilDate(days: days), Int(l - days * 86_400))
    }

    /// The UTC instant (seconds) a local time of day falls on. A time that
    /// occurs twice (clocks going back) gives the first; a time that does
    /// not occur (clocks going forward) gives the first instant after the
    /// gap, which is the transition itself.
    ///
    /// Exact for every zone within `offsets`, however far its clocks jump:
    /// each stretch of one offset in the window that can read `l` is tried.
    public func instant(of date: CivilDate, second: Int) -> Int64 {
        let l = date.days * 86_400 + Int64(second)
        let window = (l - Int64(Self.offsets.upperBound))...(l - Int64(Self.offsets.lowerBound))
        let starts = [window.lowerBound] + offsetChanges(in: window).filter { $0 > window.lowerBound }
        var first: Int64? = nil, afterGap: Int64? = nil
        for (i, start) in starts.enumerated() {
            let end = i + 1 < starts.count ? starts[i + 1] : window.upperBound + 1
            let offset = Int64(offset(at: start))
            let u = l - offset
            if u >= start, u < end { first = min(first ?? u, u) }
            if start + offset > l { afterGap = min(afterGap ?? start, start) }
        }
        // Local time runs from at most `l` at the window's start to at least
        // `l` at its end, so it reads `l` or jumps over it: one of the two
        // is found. The last fallback only keeps the function total.
        return first ?? afterGap ?? l - Int64(offset(at: l))
    }

    /// The instants in `range` (UTC seconds, ascending) at which the offset
    /// may change: the file's transitions and the footer rule's changes.
    /// A listed instant may keep the offset; none that changes it is missed.
    public func offsetChanges(in range: ClosedRange<Int64>) -> [Int64] {
        var changes: [Int64] = []
        // The first transition after the range's start.
        var lo = 0, hi = transitions.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if transitions[mid].at < range.lowerBound { lo = mid + 1 } else { hi = mid }
        }
        for t in transitions[lo...] {
            guard t.at <= range.upperBound else { break }
            changes.append(t.at)
        }
        if let rule, range.upperBound >= transitions.last?.at ?? .min {
            let from = max(range.lowerBound, transitions.last?.at ?? .min)
            changes += rule.changes(in: from...range.upperBound)
        }
        return changes.sorted()
    }

    /// The first instant after `utc` at which the offset may change, if the
    /// zone has one within `horizon` seconds.
    public func nextOffsetChange(after utc: Int64, within horizon: Int64) -> Int64? {
        offsetChanges(in: (utc + 1)...(utc + horizon)).first
    }

    public static func == (a: ZoneRules, b: ZoneRules) -> Bool {
        a.name == b.name && a.transitions == b.transitions && a.initial == b.initial && a.rule == b.rule
    }
}

/// Reads big-endian fields from a byte array, never past its end.
struct ByteReader {
    let bytes: [UInt8]
    var at = 0

    mutating func take(_ n: Int) -> ArraySlice<UInt8> {
        let end = min(at + n, bytes.count)
        defer { at = end }
        return bytes[at..<end]
    }

    mutating func skip(_ n: Int) -> Bool {
        guard at + n <= bytes.count else { return false }
        at += n
        return true
    }

    var rest: ArraySlice<UInt8> { bytes[at...] }

    mutating func int32(_ name: String) throws(ZoneRules.Invalid) -> Int32 {
        let b = take(4)
        guard b.count == 4 else { throw ZoneRules.Invalid("\(name): TZif file is truncated") }
        return Int32(bitPattern: b.reduce(0) { $0 << 8 | UInt32($1) })
    }

    mutating func int64(_ name: String) throws(ZoneRules.Invalid) -> Int64 {
        let b = take(8)
        guard b.count == 8 else { throw ZoneRules.Invalid("\(name): TZif file is truncated") }
        return Int64(bitPattern: b.reduce(0) { $0 << 8 | UInt64($1) })
    }
}

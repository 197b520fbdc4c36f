import TockCore

/// Calendar instants as the configuration and `--epoch` take them: ISO 8601
/// with an explicit offset (`2026-12-24T18:00:00+01:00`, `...Z`), or a
/// local time with a named zone in brackets (`2026-12-24T18:00[Europe/Berlin]`,
/// as RFC 9557 writes it). A time without a zone is refused: a countdown to
/// a fixed instant must read the same on every box, whatever its own zone.
public enum CalendarText {
    public struct Invalid: Error, CustomStringConvertible {
        public var description: String
    }

    public static func parse(_ text: String) throws(Invalid) -> WallTime {
        var s = text.trimmingSpaces
        var zone: ZoneRules? = nil
        if s.hasSuffix("]"), let open = s.lastIndex(of: "[") {
            let name = String(s[s.index(after: open)..<s.index(before: s.endIndex)])
            guard let z = zoneNamed(name) else {
                throw Invalid(description: "\"\(text)\": unknown time zone \"\(name)\" (use a tz database name such as Europe/Berlin)")
            }
            zone = z
            s = String(s[..<open])
        }
        // Split date, time and offset by hand: the grammar is small and
        // an ISO 8601 parser accepts less (no zone names).
        guard s.count >= 16, let t = s.firstIndex(where: { $0 == "T" || $0 == " " }) else { throw malformed(text) }
        let date = s[..<t].split(separator: "-")
        var clock = Substring(s[s.index(after: t)...])
        var offsetSeconds: Int? = nil
        if clock.hasSuffix("Z") {
            offsetSeconds = 0
            clock = clock.dropLast()
        } else if let sign = clock.lastIndex(where: { $0 == "+" || $0 == "-" }) {
            let off = String(clock[clock.index(after: sign)...].filter { $0 != ":" })
            guard off.count == 4 || off.count == 2, let v = Int(off) else { throw malformed(text) }
            let hhmm = off.count == 2 ? v * 100 : v
            guard hhmm / 100 <= 18, hhmm % 100 < 60 else { throw malformed(text) }
            offsetSeconds = (clock[sign] == "-" ? -1 : 1) * (hhmm / 100 * 3600 + hhmm % 100 * 60)
            clock = clock[..<sign]
        }
        guard offsetSeconds != nil || zone != nil else {
            throw Invalid(description: "\"\(text)\" has no zone or offset; write e.g. \(text)+01:00, \(text)Z or \(text)[Europe/Berlin]")
        }
        guard offsetSeconds == nil || zone == nil else {
            throw Invalid(description: "\"\(text)\": give an offset or a zone name, not both")
        }
        let hms = clock.split(separator: ":")
        let digitsOnly = (date + hms).allSatisfy { $0.allSatisfy { $0.isASCII && ($0.isWholeNumber || $0 == ".") } }
        guard digitsOnly, date.count == 3, hms.count == 2 || hms.count == 3,
              let y = Int(date[0]), let mo = Int(date[1]), let d = Int(date[2]),
              let h = Int(hms[0]), let mi = Int(hms[1]) else { throw malformed(text) }
        var nanos: Int64 = 0
        var sec = 0
        if hms.count == 3 {
            let sp = hms[2].split(separator: ".", omittingEmptySubsequences: false)
            guard let s0 = Int(sp[0]), sp.count <= 2 else { throw malformed(text) }
            sec = s0
            if sp.count == 2 {
                let frac = String(sp[1].prefix(9)) + String(repeating: "0", count: max(0, 9 - sp[1].prefix(9).count))
                guard let f = Int64(frac) else { throw malformed(text) }
                nanos = f
            }
        }
        guard (1...12).contains(mo), (1...31).contains(d), (0...23).contains(h), (0...59).contains(mi), (0...60).contains(sec) else {
            throw Invalid(description: "\"\(text)\": a field is out of range")
        }
        // The instants Tock keeps (`TimeBounds`); a year beyond would not fit
        // its nanosecond arithmetic.
        guard (1970...2199).contains(y) else {
            throw Invalid(description: "\"\(text)\": the year must be from 1970 to 2199")
        }
        // Days and seconds past their month or minute carry over, and the
        // carried date is then refused; a local time in a zone's gap (clocks
        // going forward) reads with the offset before the gap, a time that
        // occurs twice is the first.
        let date0 = CivilDate(year: y, month: mo, day: d)
        let local = date0.days * 86_400 + Int64(h * 3600 + mi * 60 + sec)
        var when: Int64
        if let zone {
            when = zone.instant(of: date0, second: h * 3600 + mi * 60 + sec)
            if when + Int64(zone.offset(at: when)) != local { when = local - Int64(zone.offset(at: when - 1)) }
        } else {
            when = local - Int64(offsetSeconds!)
        }
        let localNow = when + Int64(zone?.offset(at: when) ?? offsetSeconds!)
        guard CivilDate(days: localNow.floorDivided(by: 86_400)).day == d else {
            throw Invalid(description: "\"\(text)\": no such date")
        }
        // An offset can still carry the first or last day of the range over
        // its edge: the one check for a wall instant decides.
        do { return try WallTime(checked: when * 1_000_000_000 + nanos) } catch {
            throw Invalid(description: "\"\(text)\": \(error.description)")
        }
    }

    private static func malformed(_ text: String) -> Invalid {
        Invalid(description: "\"\(text)\" is not a date-time; write e.g. 2026-12-24T18:00:00+01:00 or 2026-12-24T18:00[Europe/Berlin]")
    }

    /// A zone in brackets: a tz database name read from tzdata, or a name
    /// for UTC that needs no file.
    static func zoneNamed(_ name: String) -> ZoneRules? {
        if let rules = try? ZoneFile.named(name) { return rules }
        return ZoneFile.utcNames.contains(name) ? .utc : nil
    }

    /// `2026-12-24T17:00:00Z`, for logs and status (whole seconds, the
    /// fraction dropped toward zero).
    public static func format(_ w: WallTime) -> String {
        let s = w.nanoseconds / 1_000_000_000
        let days = s.floorDivided(by: 86_400)
        let date = CivilDate(days: days)
        let second = Int(s - days * 86_400)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let year = date.year < 0 ? "-" + pad4(-date.year) : pad4(date.year)
        return "\(year)-\(two(date.month))-\(two(date.day))T\(two(second / 3600)):\(two(second / 60 % 60)):\(two(second % 60))Z"
    }

    private static func pad4(_ n: Int) -> String {
        let t = String(n)
        return String(repeating: "0", count: max(0, 4 - t.count)) + t
    }
}

/// A day of the proleptic Gregorian calendar, with the arithmetic the
/// alarms need (no Foundation in the core).
///
/// Day numbers count from 1970-01-01 (day 0), so `days * 86_400` plus a
/// second of the day is a local time on the same axis as Unix time.
public struct CivilDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// The date `days` after 1970-01-01 (Howard Hinnant's `civil_from_days`).
    public init(days: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        self.init(year: Int(yoe + era * 400 + (m <= 2 ? 1 : 0)), month: Int(m), day: Int(d))
    }

    /// Days after 1970-01-01 (`days_from_civil`).
    public var days: Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = Int64((month + 9) % 12)
        let doy = (153 * mp + 2) / 5 + Int64(day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The day of the week: 1970-01-01 was a Thursday.
    public var weekday: Weekday { Weekday(rawValue: Int(((days + 4) % 7 + 7) % 7))! }

    public func adding(days n: Int64) -> CivilDate { CivilDate(days: days + n) }

    public static func isLeap(_ y: Int) -> Bool { y % 4 == 0 && (y % 100 != 0 || y % 400 == 0) }

    public static func daysIn(month m: Int, year y: Int) -> Int {
        switch m {
        case 2: isLeap(y) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    public static func < (a: CivilDate, b: CivilDate) -> Bool { (a.year, a.month, a.day) < (b.year, b.month, b.day) }

    public var description: String {
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(year)-\(two(month))-\(two(day))"
    }
}

/// Days of the week, Sunday first as in `struct tm` and POSIX TZ rules.
public enum Weekday: Int, CaseIterable, Sendable, Comparable {
    case sunday, monday, tuesday, wednesday, thursday, friday, saturday

    /// The three-letter name the configuration uses (`mon`).
    public var short: String { ["sun", "mon", "tue", "wed", "thu", "fri", "sat"][rawValue] }

    public init?(short: some StringProtocol) {
        guard let i = Weekday.allCases.firstIndex(where: { $0.short == short.lowercased() }) else { return nil }
        self = Weekday.allCases[i]
    }

    public static func < (a: Weekday, b: Weekday) -> Bool { a.rawValue < b.rawValue }
}

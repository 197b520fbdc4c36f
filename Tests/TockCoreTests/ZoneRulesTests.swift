import Foundation
import Testing
@testable import TockCore

/// A zone from the system's tz database (tzdata is a required package on Debian).
func zone(_ name: String) throws -> ZoneRules {
    let bytes = try #require(FileManager.default.contents(atPath: "/usr/share/zoneinfo/\(name)"), "tzdata has \(name)")
    return try ZoneRules(tzif: [UInt8](bytes), name: name)
}

/// UTC seconds of a UTC date-time.
func utc(_ y: Int, _ m: Int, _ d: Int, _ h: Int, _ mi: Int = 0) -> Int64 {
    CivilDate(year: y, month: m, day: d).days * 86_400 + Int64(h * 3600 + mi * 60)
}

@Suite struct CivilDateTests {
    @Test func daysAndDatesRoundTripAcrossCenturies() {
        #expect(CivilDate(year: 1970, month: 1, day: 1).days == 0)
        #expect(CivilDate(year: 2000, month: 3, day: 1).days == 11_017)
        #expect(CivilDate(days: -1) == CivilDate(year: 1969, month: 12, day: 31))
        for d in stride(from: Int64(-800_000), through: 800_000, by: 997) {
            #expect(CivilDate(days: d).days == d)
        }
    }

    @Test func weekdays() {
        #expect(CivilDate(year: 2026, month: 11, day: 23).weekday == .monday)
        #expect(CivilDate(year: 1970, month: 1, day: 1).weekday == .thursday)
        #expect(CivilDate(year: 2000, month: 2, day: 29).weekday == .tuesday)
    }
}

@Suite struct ZoneRulesTests {
    @Test func berlinOffsetsWinterSummerAndHistory() throws {
        let z = try zone("Europe/Berlin")
        #expect(z.offset(at: utc(2026, 1, 15, 12)) == 3600)
        #expect(z.offset(at: utc(2026, 7, 15, 12)) == 7200)
        #expect(z.offset(at: utc(1990, 7, 1, 12)) == 7200)
        // The 2026 changes, to the second (01:00 UTC both times).
        #expect(z.offset(at: utc(2026, 3, 29, 1) - 1) == 3600)
        #expect(z.offset(at: utc(2026, 3, 29, 1)) == 7200)
        #expect(z.offset(at: utc(2026, 10, 25, 1) - 1) == 7200)
        #expect(z.offset(at: utc(2026, 10, 25, 1)) == 3600)
    }

    @Test func aTimeInTheSpringGapFallsOnTheFirstInstantAfterIt() throws {
        let z = try zone("Europe/Berlin")
        // 02:30 does not exist on 2026-03-29: 02:00 CET became 03:00 CEST at 01:00 UTC.
        #expect(z.instant(of: CivilDate(year: 2026, month: 3, day: 29), second: 2 * 3600 + 1800) == utc(2026, 3, 29, 1))
        #expect(z.instant(of: CivilDate(year: 2026, month: 3, day: 29), second: 3 * 3600) == utc(2026, 3, 29, 1))
        #expect(z.instant(of: CivilDate(year: 2026, month: 3, day: 29), second: 1 * 3600 + 1800) == utc(2026, 3, 29, 0, 30))
    }

    @Test func aTimeThatOccursTwiceGivesTheFirst() throws {
        let z = try zone("Europe/Berlin")
        // 02:30 on 2026-10-25 is 00:30 UTC (CEST) and again 01:30 UTC (CET).
        #expect(z.instant(of: CivilDate(year: 2026, month: 10, day: 25), second: 2 * 3600 + 1800) == utc(2026, 10, 25, 0, 30))
        #expect(z.local(at: WallTime(secondsSince1970: utc(2026, 10, 25, 1, 30))).second == 2 * 3600 + 1800)
    }

    @Test func localTimeRoundTripsOutsideTheChanges() throws {
        for name in ["Europe/Berlin", "America/New_York", "Australia/Sydney", "Asia/Kolkata", "America/Nuuk"] {
            let z = try zone(name)
            for s in stride(from: utc(2024, 1, 1, 0), to: utc(2040, 1, 1, 0), by: 86_400 * 7 + 3_671) {
                let (date, second) = z.local(at: WallTime(secondsSince1970: s))
                let back = z.instant(of: date, second: second)
                // Equal, or the first of two readings of the same local time.
                #expect(back == s || (back < s && s - back <= 3600), "\(name) at \(s)")
            }
        }
    }

    /// After a file's last transition its footer rule decides: the POSIX
    /// rule alone must agree with the whole file hour by hour.
    @Test(arguments: [
        ("Europe/Berlin", "CET-1CEST,M3.5.0,M10.5.0/3"),
        ("America/New_York", "EST5EDT,M3.2.0,M11.1.0"),
        ("Australia/Sydney", "AEST-10AEDT,M10.1.0,M4.1.0/3"),
        ("Asia/Kolkata", "IST-5:30"),
    ])
    func posixRulesAgreeWithTheTzDatabase(name: String, rule: String) throws {
        let file = try zone(name), posix = try ZoneRules(posix: rule)
        for s in stride(from: utc(2027, 1, 1, 0), to: utc(2045, 1, 1, 0), by: 3600) {
            #expect(file.offset(at: s) == posix.offset(at: s), "\(name) at \(s)")
        }
    }

    @Test func badRulesAndFilesAreRefusedWithAReason() {
        #expect(throws: ZoneRules.Invalid.self) { try ZoneRules(posix: "") }
        #expect(throws: ZoneRules.Invalid.self) { try ZoneRules(posix: "CET-1CEST,M13.5.0,M10.5.0") }
        #expect(throws: ZoneRules.Invalid.self) { try ZoneRules(posix: "CET-1CEST,M3.5.0") }
        #expect(throws: ZoneRules.Invalid.self) { try ZoneRules(tzif: Array("not a zone".utf8), name: "x") }
        let real = (try? zone("Europe/Berlin")).map { _ in [UInt8](FileManager.default.contents(atPath: "/usr/share/zoneinfo/Europe/Berlin")!) } ?? []
        #expect(throws: ZoneRules.Invalid.self) { try ZoneRules(tzif: Array(real.prefix(60)), name: "cut") }
    }
}

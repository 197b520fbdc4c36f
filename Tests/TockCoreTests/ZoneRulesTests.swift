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

    /// The local time of day a zone gives back from `instant(of:)` is the
    /// first instant that reads it, even where the clocks jump by two days.
    @Test func instantsAreTheFirstReadingEvenAcrossAJumpOfTwoDays() throws {
        let z = try ZoneRules(posix: "<+25>-24:59:59<-25>24:59:59,J100/0,J200/0")
        let back = CivilDate(year: 2027, month: 1, day: 1).days * 86_400 + 99 * 86_400 - 89_999
        for date in (-3...3).map({ CivilDate(days: back / 86_400 + Int64($0)) }) {
            for second in [0, 7 * 3600, 22 * 3600 + 59] {
                let l = date.days * 86_400 + Int64(second)
                // The zone has two offsets, so an instant reading l is l - 89_999 or l + 89_999.
                let readings = [l - 89_999, l + 89_999].filter { $0 + Int64(z.offset(at: $0)) == l }
                let u = z.instant(of: date, second: second)
                if let first = readings.first {
                    #expect(u == first, "\(date) \(second)")
                } else {
                    // In a gap: the first instant after it reads later.
                    #expect(u + Int64(z.offset(at: u)) > l && u - 1 + Int64(z.offset(at: u - 1)) < l, "\(date) \(second)")
                }
            }
        }
    }

    /// RFC 8536 section 3.2: a UT offset SHOULD lie within -24:59:59 and
    /// +25:59:59; POSIX allows hours 0 to 24. Anything beyond is refused.
    @Test func offsetsBeyondADayAreRefused() throws {
        #expect(throws: ZoneRules.Invalid.self) { try ZoneRules(posix: "<+48>-48") }
        // Numbers too long for any field, up to past Int64: refused, not trapped.
        for digits in [3, 19, 20, 40] {
            #expect(throws: ZoneRules.Invalid.self) { try ZoneRules(posix: "<+01>-" + String(repeating: "9", count: digits)) }
            #expect(throws: ZoneRules.Invalid.self) { try ZoneRules(posix: "CET-1CEST,M3.5.0,M10.5." + String(repeating: "9", count: digits)) }
        }
        #expect(try ZoneRules(posix: "<+01>-01").offset(at: WallTime(nanoseconds: 0)) == 3600)
        #expect(throws: ZoneRules.Invalid.self) { try ZoneRules(posix: "<+01>-1<-30>30,J100,J200") }
        #expect(throws: ZoneRules.Invalid.self) { try ZoneRules(tzif: tzif(offsets: [3600, -172_800], at: [1_800_000_000]), name: "crafted") }
        #expect((try? ZoneRules(tzif: tzif(offsets: [93_599, -89_999], at: [1_800_000_000]), name: "edge")) != nil)
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

/// A version 1 TZif file (RFC 8536) with these local time types, the first
/// in force before `at[0]`, type i + 1 from `at[i]`.
func tzif(offsets: [Int32], at times: [Int32]) -> [UInt8] {
    func be(_ v: Int32) -> [UInt8] { withUnsafeBytes(of: v.bigEndian, Array.init) }
    var b = Array("TZif".utf8) + [0] + [UInt8](repeating: 0, count: 15)
    // isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt
    for c in [0, 0, 0, Int32(times.count), Int32(offsets.count), 4] { b += be(c) }
    for t in times { b += be(t) }
    b += times.indices.map { UInt8($0 + 1) }
    for o in offsets { b += be(o) + [0, 0] }
    b += Array("ZZZ\0".utf8)
    return b
}

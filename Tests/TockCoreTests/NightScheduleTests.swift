import Testing
@testable import TockCore

@Suite struct NightScheduleTests {
    /// 22:00-07:00 local time, brightness 1.
    let night = NightSchedule(from: 22 * 3600, to: 7 * 3600, brightness: 1)
    /// A zone one hour east of UTC, without daylight time.
    let plusOne = try! ZoneRules(posix: "<+01>-1")

    /// A `Now` at a local time of day in `plusOne`.
    func at(hour: Int, minute: Int = 0) -> Now {
        let midnightUTC = WallTime(secondsSince1970: 1_800_000_000 / 86_400 * 86_400)
        let local = Int64(hour * 3600 + minute * 60)
        return Now(monotonic: .zero, wall: midnightUTC + .seconds(local - 3600))
    }

    @Test func spansMidnight() {
        #expect(night.isNight(at: at(hour: 23).wall, zone: plusOne))
        #expect(night.isNight(at: at(hour: 3).wall, zone: plusOne))
        #expect(!night.isNight(at: at(hour: 7).wall, zone: plusOne))
        #expect(!night.isNight(at: at(hour: 21, minute: 59).wall, zone: plusOne))
        #expect(night.isNight(at: at(hour: 22).wall, zone: plusOne))
    }

    @Test func nextChangeIsTheNearestBoundary() {
        #expect(night.nextChange(after: at(hour: 20).wall, zone: plusOne) == at(hour: 22).wall)
        #expect(night.nextChange(after: at(hour: 23).wall, zone: plusOne) == at(hour: 23).wall + .seconds(8 * 3600))
    }

    @Test func aNightThatChangesTheClocksStillEndsAtSevenOnTheWall() throws {
        let berlin = try zone("Europe/Berlin")
        // 2026-03-29: the night is an hour shorter; it ends at 07:00 CEST, 05:00 UTC.
        let evening = WallTime(secondsSince1970: utc(2026, 3, 28, 22))  // 23:00 CET
        #expect(night.nextChange(after: evening, zone: berlin) == WallTime(secondsSince1970: utc(2026, 3, 29, 5)))
        let autumn = WallTime(secondsSince1970: utc(2026, 10, 24, 21))  // 23:00 CEST
        #expect(night.nextChange(after: autumn, zone: berlin) == WallTime(secondsSince1970: utc(2026, 10, 25, 6)))
    }

    @Test func theDisplayDimsAtNightAndWakesForIt() {
        var s = Settings.timer()
        s.display.night = night
        s.clock.zone = plusOne
        let evening = at(hour: 21, minute: 59)
        var a = Machine(settings: s, switchPosition: .down, at: evening)
        let out = a.handle(.powerOn, at: evening).commands
        #expect(out.contains { if case .render(let f) = $0 { f.brightness == 7 } else { false } })
        // Idle, but it wakes once, at 22:00, to dim.
        #expect(out.contains { if case .wake(nil, let w?) = $0 { w == at(hour: 22).wall } else { false } })
        let dimmed = a.handle(.wake, at: evening.at(evening.monotonic + .seconds(60))).commands
        #expect(dimmed.contains { if case .render(let f) = $0 { f.brightness == 1 } else { false } })
    }
}

/// Zones whose clocks jump by more than two days: nothing in the tz
/// database does, but a crafted file or `TZ` rule within the offsets RFC
/// 8536 allows can, and the schedule must still answer.
@Suite struct NightScheduleExtremeZoneTests {
    let night = NightSchedule(from: 22 * 3600, to: 7 * 3600, brightness: 1)
    /// +24:59:59 most of the year; on day 100 the clocks go back to
    /// -24:59:59 (49:59:58 back, more than two days), on day 200 forward again.
    let leap = try! ZoneRules(posix: "<+25>-24:59:59<-25>24:59:59,J100/0,J200/0")

    /// UTC seconds when the clocks go back in 2027 (day 100, 00:00 local, +24:59:59).
    var back: Int64 { CivilDate(year: 2027, month: 1, day: 1).days * 86_400 + 99 * 86_400 - 89_999 }

    @Test func theNextChangeIsFoundAroundAJumpOfTwoDays() {
        for s in stride(from: back - 3 * 86_400, to: back + 3 * 86_400, by: 3_600 + 17) {
            let w = WallTime(secondsSince1970: s)
            let next = night.nextChange(after: w, zone: leap)
            #expect(next > w, "at \(s)")
            #expect(next <= w + .seconds(86_400), "at \(s)")
            // Nothing switches on the way: the answer is the first change.
            let before = night.isNight(at: w, zone: leap)
            let firstSwitch = stride(from: s + 60, to: next.nanoseconds / 1_000_000_000, by: 60)
                .first { night.isNight(at: WallTime(secondsSince1970: $0), zone: leap) != before }
            #expect(firstSwitch == nil, "at \(s): the schedule switches at \(firstSwitch ?? 0), before \(next)")
        }
    }

    /// A TZif file whose clocks go back 51 hours at `back`: +25:59:59, then -24:59:59.
    var leapFile: ZoneRules { try! ZoneRules(tzif: tzif(offsets: [93_599, -89_999], at: [Int32(back)]), name: "crafted") }

    @Test(arguments: [0, 1])
    func anApplianceStartsInSuchAZone(file: Int) {
        var s = Settings.timer()
        s.display.night = night
        s.clock.zone = file == 1 ? leapFile : leap
        for t in stride(from: back - 2 * 86_400, to: back + 86_400, by: 7_200) {
            let now = Now(monotonic: .zero, wall: WallTime(secondsSince1970: t))
            var a = Machine(settings: s, switchPosition: .down, at: now)
            let out = a.handle(.powerOn, at: now).commands
            #expect(out.contains { if case .wake(_, let w?) = $0 { w > now.wall } else { false } }, "at \(t)")
        }
    }
}

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
        var a = Appliance(settings: s, switchPosition: .down, at: evening)
        let out = a.start(at: evening)
        #expect(out.contains { if case .render(let f) = $0 { f.brightness == 7 } else { false } })
        // Idle, but it wakes once, at 22:00, to dim.
        #expect(out.contains { if case .wake(nil, let w?) = $0 { w == at(hour: 22).wall } else { false } })
        let dimmed = a.handle(.tick, at: evening.at(evening.monotonic + .seconds(60)))
        #expect(dimmed.contains { if case .render(let f) = $0 { f.brightness == 1 } else { false } })
    }
}

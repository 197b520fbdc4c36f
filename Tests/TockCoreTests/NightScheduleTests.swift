import Testing
@testable import TockCore

@Suite struct NightScheduleTests {
    /// 22:00-07:00 local time, brightness 1.
    let night = NightSchedule(from: 22 * 3600, to: 7 * 3600, brightness: 1)

    /// A `Now` at a local time of day, in a zone one hour east of UTC.
    func at(hour: Int, minute: Int = 0) -> Now {
        let midnightUTC = WallTime(secondsSince1970: 1_800_000_000 / 86_400 * 86_400)
        let local = Int64(hour * 3600 + minute * 60)
        return Now(monotonic: .zero, wall: midnightUTC + .seconds(local - 3600), localOffset: .seconds(3600))
    }

    @Test func spansMidnight() {
        #expect(night.isNight(at: at(hour: 23)))
        #expect(night.isNight(at: at(hour: 3)))
        #expect(!night.isNight(at: at(hour: 7)))
        #expect(!night.isNight(at: at(hour: 21, minute: 59)))
        #expect(night.isNight(at: at(hour: 22)))
    }

    @Test func nextChangeIsTheNearestBoundary() {
        #expect(night.nextChange(after: at(hour: 20)) == at(hour: 22).wall)
        #expect(night.nextChange(after: at(hour: 23)) == at(hour: 23).wall + .seconds(8 * 3600))
    }

    @Test func theDisplayDimsAtNightAndWakesForIt() {
        var s = Settings.timer()
        s.display.night = night
        let evening = at(hour: 21, minute: 59)
        var a = Appliance(settings: s, switchPosition: .down, at: evening)
        let out = a.start(at: evening)
        #expect(out.contains { if case .render(let f) = $0 { f.brightness == 7 } else { false } })
        // Idle, but it wakes once, at 22:00, to dim.
        #expect(out.contains { if case .wake(nil, let w?) = $0 { w == at(hour: 22).wall } else { false } })
        var ten = evening.at(evening.monotonic + .seconds(60))
        ten.localOffset = .seconds(3600)
        let dimmed = a.handle(.tick, at: ten)
        #expect(dimmed.contains { if case .render(let f) = $0 { f.brightness == 1 } else { false } })
    }
}

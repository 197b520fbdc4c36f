import Testing
@testable import TockCore

/// The room's light as a brightness: the curve, hysteresis, smoothing,
/// floor and ceiling, and the rule with the brightness set by hand and the
/// night schedule.
@Suite struct AmbientLightTests {
    func sec(_ s: Int) -> Instant { Instant(nanoseconds: Int64(s) * 1_000_000_000) }

    func light(_ edit: (inout LightSettings) -> Void = { _ in }) -> AmbientLight {
        var s = LightSettings()
        s.smoothing = .zero
        edit(&s)
        return AmbientLight(s)
    }

    @Test func theCurveGivesALevelPerThreshold() {
        var a = light()
        let levels = [0.0, 0.5, 1, 4, 5, 20, 40, 99, 100, 300, 600, 50_000].map { lux -> Int in
            var fresh = a
            fresh.lost()
            fresh.read(lux, at: .zero)
            return fresh.level!
        }
        #expect(levels == [0, 0, 1, 1, 2, 3, 4, 4, 5, 6, 7, 7])
        a.read(10, at: .zero)
        #expect(a.level == 2)
    }

    @Test func hysteresisKeepsALevelAroundAThreshold() {
        var a = light()
        var seen: [Int] = []
        // Flickering around 15 lx (level 3 begins): 13 ... 18 lx.
        for (i, lux) in [14.0, 16, 13, 18, 14, 17, 15, 13].enumerated() {
            a.read(lux, at: Instant(nanoseconds: Int64(i) * 2_000_000_000))
            seen.append(a.level!)
        }
        #expect(seen == [2, 2, 2, 2, 2, 2, 2, 2])
        a.read(19, at: sec(20))  // 25 % past 15
        #expect(a.level == 3)
        a.read(13, at: sec(22))  // not 25 % below
        #expect(a.level == 3)
        a.read(11.9, at: sec(24))
        #expect(a.level == 2)
    }

    @Test func smoothingLetsAPassingShadowGo() {
        var a = light { $0.smoothing = .seconds(4) }
        a.read(500, at: .zero)
        #expect(a.level == 6)
        a.read(2, at: sec(2))  // a hand over the sensor for one reading
        #expect(a.level == 6)  // smoothed: 500 - (2/6) * 498 = 334 lx
        a.read(500, at: sec(4))
        #expect(a.level == 6)
        // The lights go out: down to level 0 within 40 s of readings.
        var t = 4
        while a.level! > 0, t < 60 { t += 2; a.read(0.2, at: sec(t)) }
        #expect(t <= 44)
    }

    @Test func floorAndCeilingBoundTheLevel() {
        var a = light { $0.floor = 1; $0.ceiling = 5 }
        a.read(0, at: .zero)
        #expect(a.level == 1)
        a.lost()
        a.read(10_000, at: .zero)
        #expect(a.level == 5)
        a.lost()
        #expect(a.level == nil)
    }

    @Test func theLowestOfTheRoomTheHandAndTheNightWins() throws {
        var s = Settings.timer()
        s.clock.zone = try zone("Europe/Berlin")
        s.display.brightness = 5
        s.display.night = NightSchedule(from: 22 * 3600, to: 7 * 3600, brightness: 2)
        var l = LightSettings()
        l.smoothing = .zero
        s.light = l
        // 2026-11-26 12:00 in Berlin (11:00 UTC).
        var v = VirtualMachine(s, epoch: WallTime(secondsSince1970: 1_795_690_800))
        #expect(v.lastFrame?.brightness == 5)  // no reading yet: the hand's
        v.take(v.core.handle(.ambientLight(2), at: v.clock))
        #expect(v.lastFrame?.brightness == 1)  // a dim room
        v.take(v.core.handle(.ambientLight(5000), at: v.clock))
        #expect(v.lastFrame?.brightness == 5)  // a bright room: no brighter than set by hand
        v.run(to: 11 * 3600)  // 23:00: the night's 2
        #expect(v.lastFrame?.brightness == 2)
        v.take(v.core.handle(.ambientLight(nil), at: v.clock))  // the sensor is gone
        #expect(v.lastFrame?.brightness == 2)
        v.run(to: 20 * 3600)  // 08:00
        #expect(v.lastFrame?.brightness == 5)
    }
}

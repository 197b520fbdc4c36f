import Testing
import TockTestSupport
@testable import TockConfig
import TockCore
import TockLinux

@Suite struct ConfigTests {
    func problems(_ yaml: String) -> [ConfigProblem] { configProblems(yaml, file: "/etc/tock/config.yaml") }

    @Test func aFullFileParses() throws {
        let c = try Configuration.parse(yaml: """
            mode: interval
            switch: up
            timer:
              presets: [10s, 5m, 12m30s, "1:30", 1h]
            countdown:
              until: 2026-12-24T18:00:00+01:00
            interval: {work: 40s, rest: 20s, rounds: 5}
            alarm: {ring_for: 2m, escalate_after: 30s, warn_last: 3, chirp: false}
            input: {debounce: 10ms, long_press: 1.5s}
            display: {digits: 8, brightness: 3, kind: max7219, i2c_address: 0x71}
            leds: [running, ringing]
            scheduling: {policy: fifo, priority: 10}
            """, file: "c.yaml")
        #expect(c.settings.mode == .interval && c.switchPosition == .up)
        #expect(c.settings.presets == [.seconds(10), .seconds(300), .seconds(750), .seconds(90), .seconds(3600)])
        #expect(c.settings.countdownUntil == WallTime(secondsSince1970: 1_798_131_600))  // 17:00Z
        #expect(c.settings.interval.rounds == 5 && c.settings.interval.rest == .seconds(20))
        #expect(c.settings.alarm.ringFor == .seconds(120) && !c.settings.alarm.chirp && c.settings.alarm.warnLast == 3)
        #expect(c.settings.input.debounce == .milliseconds(10) && c.settings.input.longPress == .milliseconds(1500))
        #expect(c.settings.display.digits == 8 && c.settings.display.brightness == 3)
        #expect(c.hardware.display == .max7219 && c.hardware.i2cAddress == 0x71)
        #expect(c.leds == ["running", "ringing"])
        #expect(c.scheduling == Scheduling(policy: .fifo, priority: 10))
    }

    @Test func anEmptyFileMeansDefaultsInTheSystemsZone() throws {
        var expected = Configuration()
        expected.settings.clock.zone = try ZoneFile.system()
        expected.file = "c.yaml"
        #expect(try Configuration.parse(yaml: "", file: "c.yaml") == expected)
    }

    @Test func clockAlarmsAndIdleKeys() throws {
        let c = try Configuration.parse(yaml: """
            display: {idle: clock, idle_after: 45s}
            clock: {zone: Europe/Berlin, format: 12h, colon: steady, require_sync: false}
            alarm: {snooze: 5m}
            alarms:
              - {at: "06:45", days: mon-fri, label: work}
              - {at: "9:00", days: [sat, sun]}
              - {at: "22:10", days: fri-mon, enabled: false}
            """, file: "c.yaml")
        let s = c.settings
        #expect(s.display.idleClock && s.display.idleAfter == .seconds(45))
        #expect(s.clock.zone.name == "Europe/Berlin" && s.clock.format == .h12 && !s.clock.blinkColon && !s.clock.requireSync)
        #expect(s.alarm.snooze == .seconds(300))
        #expect(s.alarms.map(\.timeText) == ["06:45", "09:00", "22:10"])
        #expect(s.alarms.map(\.daysText) == ["weekdays", "weekends", "mon,fri-sun"])
        #expect(s.alarms.map(\.label) == ["work", "", ""])
        #expect(s.alarms.map(\.enabled) == [true, true, false])
    }

    @Test func badClockAndAlarmValuesNameTheLineAndKey() {
        let yaml = """
            clock: {zone: Europe/Berlinn}
            alarms:
              - {at: "25:00"}
              - {at: "06:45", days: [mon, funday]}
              - {days: daily}
            """
        let error = #expect(throws: ConfigError.self) { try Configuration.parse(yaml: yaml, file: "c.yaml") }
        let problems = error?.problems.map(\.description) ?? []
        #expect(problems.contains { $0.hasPrefix("c.yaml:1: clock.zone: no zone \"Europe/Berlinn\"") })
        #expect(problems.contains { $0.hasPrefix("c.yaml:3: alarms[0].at: \"25:00\" is not a time of day") })
        #expect(problems.contains { $0.hasPrefix("c.yaml:4: alarms[1].days: \"funday\" is not a day") })
        #expect(problems.contains { $0.hasPrefix("c.yaml:5: alarms[2].at: needed") })
        let eleven = "alarms:\n" + String(repeating: "  - {at: \"06:00\"}\n", count: 11)
        #expect(throws: ConfigError.self) { try Configuration.parse(yaml: eleven, file: "c.yaml") }
    }

    @Test func aLineUsedTwiceNamesTheFirstPartThatUsesIt() {
        let p = problems("pins: {start: GPIO17, stop: GPIO17, reset: GPIO17}\nbuzzer: {kind: active, pin: GPIO22}\ndisplay: {clk: GPIO22}\n")
        #expect(p.map(\.key) == ["pins.stop", "pins.reset", "display.clk"])
        #expect(p.map(\.message) == ["GPIO17 is already used by pins.start; every part needs its own line",
                                     "GPIO17 is already used by pins.start; every part needs its own line",
                                     "GPIO22 is already used by buzzer.pin; every part needs its own line"])
        #expect(p.map(\.line) == [1, 1, 3])
    }

    @Test func aRepeatedKeyIsFoundAmongThousands() {
        // Past 32 keys the lines are indexed by name; a repeat is found the same way.
        for count in [3, 33, 40, 300] {
            let yaml = (1...count).map { "k\($0): 1\n" }.joined() + "k2: 2\nmode: timer\nmode: timer\n"
            let p = problems(yaml).filter { $0.message.hasPrefix("appears twice") }
            #expect(p.map(\.key) == ["k2", "mode"], "\(count) keys")
            #expect(p.map(\.message) == ["appears twice (first on line 2); keep one", "appears twice (first on line \(count + 2)); keep one"])
        }
    }

    @Test func aTypoedKeyIsRefusedWithLineKeyAndSuggestion() {
        let p = problems("mode: timer\nalarm:\n  ring_fro: 30s\n")
        #expect(p.count == 1)
        #expect(p.first?.line == 3 && p.first?.key == "alarm.ring_fro")
        #expect(p.first?.description.contains("did you mean ring_for?") == true)
        #expect(p.first?.description.hasPrefix("/etc/tock/config.yaml:3: alarm.ring_fro: unknown key") == true)
    }

    @Test func everyProblemIsReportedAtOnce() {
        let p = problems("""
            mode: egg
            timer:
              presets: [5m, 0.5s, 7 minutes]
            input:
              debounce: 20
            display:
              brightness: high
            """)
        #expect(p.map(\.key) == ["mode", "timer.presets[1]", "timer.presets[2]", "input.debounce", "display.brightness"])
        #expect(p.map(\.line) == [1, 3, 3, 5, 7])
        #expect(p[1].message.contains("too short"))
        #expect(p[3].message.contains("needs a unit"))
    }

    @Test func aCountdownNeedsAnInstantWithAZone() {
        #expect(problems("mode: countdown\n").first?.key == "countdown.until")
        let p = problems("mode: countdown\ncountdown:\n  until: 2026-12-24T18:00:00\n")
        #expect(p.count == 1 && p[0].line == 3 && p[0].message.contains("no zone or offset"))
    }

    @Test func namedZonesFollowDaylightSaving() throws {
        // Berlin is UTC+1 in December and UTC+2 in June.
        #expect(try CalendarText.parse("2026-12-24T18:00[Europe/Berlin]") == WallTime(secondsSince1970: 1_798_131_600))
        #expect(try CalendarText.parse("2026-06-24T18:00:00[Europe/Berlin]") == WallTime(secondsSince1970: 1_782_316_800))
        #expect(try CalendarText.parse("2026-06-24T16:00:00Z") == WallTime(secondsSince1970: 1_782_316_800))
        #expect(try CalendarText.parse("2026-06-24T12:00:00-04:00") == WallTime(secondsSince1970: 1_782_316_800))
        #expect(throws: CalendarText.Invalid.self) { try CalendarText.parse("2026-02-30T12:00Z") }
        #expect(throws: CalendarText.Invalid.self) { try CalendarText.parse("2026-06-24T12:00[Mars/Olympus]") }
    }

    /// Tock's own calendar reads what Foundation's did: a local time in the
    /// spring-forward gap with the offset before the gap, one that occurs
    /// twice as the first, a 60th second carried into the next minute (and
    /// refused when that is another day), the fraction kept.
    @Test func localTimesAtTheEdgesOfTheCalendar() throws {
        // Berlin, 29 March 2026: 02:00 CET becomes 03:00 CEST; 02:30 does not exist.
        #expect(try CalendarText.parse("2026-03-29T02:30[Europe/Berlin]") == WallTime(secondsSince1970: 1_774_747_800))
        // 25 October 2026: 03:00 CEST becomes 02:00 CET; 02:30 happens twice.
        #expect(try CalendarText.parse("2026-10-25T02:30[Europe/Berlin]") == WallTime(secondsSince1970: 1_792_888_200))
        #expect(try CalendarText.parse("2026-06-24T12:00:60Z") == WallTime(secondsSince1970: 1_782_302_460))
        #expect(throws: CalendarText.Invalid.self) { try CalendarText.parse("2026-12-31T23:59:60Z") }
        #expect(try CalendarText.parse("2026-06-24T12:01:00.25Z").nanoseconds == 1_782_302_460_250_000_000)
        #expect(CalendarText.format(WallTime(secondsSince1970: 1_782_302_460)) == "2026-06-24T12:01:00Z")
        #expect(CalendarText.format(WallTime(secondsSince1970: 0)) == "1970-01-01T00:00:00Z")
    }

    @Test func brokenYAMLNamesTheLine() {
        let p = problems("mode: timer\ntimer:\n  presets: [5m\n")
        #expect(p.count == 1 && p[0].message.contains("not valid YAML"))
        #expect(p[0].line >= 3)
    }

    @Test func durationsAsPeopleWriteThem() throws {
        #expect(try DurationText.parse("12m30s") == .seconds(750))
        #expect(try DurationText.parse("1:30") == .seconds(90))
        #expect(try DurationText.parse("1:00:00") == .seconds(3600))
        #expect(try DurationText.parse("250ms") == .milliseconds(250))
        #expect(try DurationText.parse("0.5s") == .milliseconds(500))
        #expect(try DurationText.parse("1h30m") == .seconds(5400))
        #expect(throws: DurationText.Invalid.self) { try DurationText.parse("1:75") }
        #expect(throws: DurationText.Invalid.self) { try DurationText.parse("5 minutes") }
        #expect(throws: DurationText.Invalid.self) { try DurationText.parse("12") }
        // Found by fuzzing the control socket's parser: these trapped on overflow.
        #expect(throws: DurationText.Invalid.self) { try DurationText.parse("1144444444442.m30s") }
        #expect(throws: DurationText.Invalid.self) { try DurationText.parse("9999999999h9999999999h") }
        #expect(throws: DurationText.Invalid.self) { try DurationText.parse("999999999999:59:59") }
        #expect(throws: DurationText.Invalid.self) { try DurationText.parse("0800000000:00") }
        #expect(DurationText.format(.seconds(750)) == "12m30s")
        #expect(DurationText.format(.milliseconds(250)) == "250ms")
        #expect(DurationText.format(.milliseconds(1_250)) == "1.25s")
        #expect(DurationText.format(.nanoseconds(666_666_666_666)) == "11m6.666666666s")
        #expect(try DurationText.parse("11m6.666666666s") == .nanoseconds(666_666_666_666))
    }

    /// A blank file is every default at start-up (as before); a reload
    /// tells it apart (`Configuration.isBlank`) and keeps what runs.
    @Test func aBlankFileIsEveryDefaultAndIsToldApart() throws {
        for blank in ["", "\n", "  \n \n", "# rewritten\n  # soon\n"] {
            #expect(Configuration.isBlank(Array(blank.utf8)), "\(blank.debugDescription)")
            #expect(try Configuration.decode(Array(blank.utf8), file: "c.yaml").settings == Configuration.defaults().settings)
        }
        for content in ["{}", "mode: timer", "# a comment\ntimer: {presets: [1m]}", "timer:\n  presets:\n    - 10m\n"] {
            #expect(!Configuration.isBlank(Array(content.utf8)), "\(content.debugDescription)")
        }
        #expect(throws: ConfigError.self) { try Configuration.decode([0x6d, 0xff, 0x0a], file: "c.yaml") }
        #expect(throws: ConfigError.self) { try Configuration.contents(path: "/nonexistent/tock.yaml") }
    }
}

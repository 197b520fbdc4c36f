import Foundation
import Testing
@testable import TockSimulator
import TockConfig
import TockControl
import TockCore
import TockLinux

/// Daily alarms and the idle clock through the scripted simulator: the
/// trace's `alarm` lines, wall clock steps from the script, the control
/// requests that edit alarms.
@Suite struct AlarmScenarioTests {
    @Test func theTraceSaysWhichAlarmRangAcrossASpringForwardNight() throws {
        let tr = try Trace(config: "clock: {zone: Europe/Berlin}\nalarms: [{at: \"02:30\"}]",
                           script: "14400 end", epoch: "2026-03-29T00:00:00+01:00")
        #expect(tr.all("alarm", "02:30") == ["7200.000"])  // 03:00 CEST, when the gap ends
        #expect(tr.first("alarm", "silenced") == "7260.000")
    }

    @Test func aScriptedClockStepPastAnAlarmRingsItOnce() throws {
        let tr = try Trace(config: "clock: {zone: Europe/Berlin}\nalarms: [{at: \"06:45\"}]",
                           script: "10 clock +320\n100 clock -600\n2000 end", epoch: "2026-11-23T06:40:00+01:00")
        #expect(tr.all("alarm", "06:45") == ["10.000"])
    }

    @Test func theIdleClockInTheTraceAndTheFirstPressThatOnlyWakes() throws {
        let tr = try Trace(config: "display: {idle: clock}\nclock: {zone: Europe/Berlin, colon: steady}",
                           script: "40 press start\n50 end", epoch: "2026-11-23T06:44:00+01:00")
        #expect(tr.first("display", "06:44") == "30.000")
        #expect(tr.first("display", "05:00") == "0.000")
        #expect(tr.all("display", "05:00") == ["0.000", "40.020"])
        #expect(tr.values("state") == ["ready"])
    }

    @Test func scriptClockLinesAreParsedAndBadOnesNamed() throws {
        #expect(try Script.parse("5 clock +3600\n6 clock -1.5").steps.map(\.action) == [.stepClock(.seconds(3600)), .stepClock(.milliseconds(-1500))])
        let e = #expect(throws: Script.Problem.self) { try Script.parse("5 clock 3600", file: "s") }
        #expect(e?.description == "s:1: write clock +<seconds>, clock -<seconds> (e.g. clock +3600), clock sync or clock unsync")
    }

    @Test func alarmRequestsParseAndRefuseWithReasons() throws {
        func parse(_ s: String) throws(ControlRequest.Invalid) -> ControlRequest { try ControlRequest.parse(Array(s.utf8)) }
        #expect(try parse(#"{"cmd":"alarm","op":"list"}"#) == .alarm(.list))
        #expect(try parse(#"{"cmd":"alarm","op":"skip-next","n":2}"#) == .alarm(.skipNext(2)))
        let add = try parse(#"{"cmd":"alarm","op":"add","at":"06:45","days":"mon-fri","label":"work"}"#)
        #expect(add == .alarm(.add(DailyAlarm(minute: 405, days: try DailyAlarm.parseDays(["weekdays"]), label: "work"))))
        #expect(try parse(add.line) == add)  // the client's line round-trips
        for (bad, why) in [
            (#"{"cmd":"alarm"}"#, "alarm needs \"op\": one of list, add, rm, on, off, skip-next"),
            (#"{"cmd":"alarm","op":"rm"}"#, "alarm rm needs \"n\", the alarm's number from tock alarm list (1-10)"),
            (#"{"cmd":"alarm","op":"on","n":11}"#, "alarm on needs \"n\", the alarm's number from tock alarm list (1-10)"),
            (#"{"cmd":"alarm","op":"add","at":"06:45","days":"someday"}"#, "\"someday\" is not a day; use mon, tue, wed, thu, fri, sat, sun, a range like mon-fri, daily, weekdays or weekends"),
            (#"{"cmd":"alarm","op":"list","n":1}"#, "unknown field \"n\" for alarm list"),
        ] {
            let e = #expect(throws: ControlRequest.Invalid.self) { try parse(bad) }
            #expect(e?.description == why)
        }
    }

    @Test func theSystemZoneFollowsTZ() throws {
        #expect(try ZoneFile.system(environment: ["TZ": "Europe/Berlin"]).name == "Europe/Berlin")
        #expect(try ZoneFile.system(environment: ["TZ": ":America/New_York"]).offset(at: WallTime(secondsSince1970: 1_800_000_000)) == -5 * 3600)
        #expect(try ZoneFile.system(environment: ["TZ": "CET-1CEST,M3.5.0,M10.5.0/3"]).offset(at: WallTime(secondsSince1970: 1_800_000_000)) == 3600)
        #expect(throws: ZoneRules.Invalid.self) { try ZoneFile.named("../../etc/passwd") }
        // TZ=UTC on a system without tzdata (the C library reads it as UTC).
        let noTzdata: Environment.Variables = ["TZ": "UTC", "TZDIR": "/nonexistent"]
        #expect(try ZoneFile.system(environment: noTzdata) == .utc)
        #expect(throws: ZoneRules.Invalid.self) { try ZoneFile.system(environment: ["TZ": "not a zone!"]) }
    }
}

import Foundation
import Logging
import Testing
@testable import TockShell
import TockConfig
import TockControl
import TockCore
import TockJSON

/// Well-formed hostile values, decoded by the one parser for their kind:
/// each is refused with a message, never a trap.
@Suite struct HostileInputTests {
    @Test func durationTextAtTheEdgesOfInt64() throws {
        for text in ["9223372036.9s", "9223372036854775807ms", "9223372036854775807h", "99999999999999999999s",
                     "2561h", "100000000:00:00", "8640001s", "-5s", "+5s", "٣s", "1h1h1h", "5m5m", "1h1h", "30m1h", "5ms1s", ".s", "1.s.5"] {
            #expect(throws: DurationText.Invalid.self, "\(text)") { try DurationText.parse(text) }
        }
        #expect(try DurationText.parse("2400h") == TimeBounds.longest)
        #expect(try DurationText.parse("1h30m5s250ms") == .milliseconds(5_405_250))
        #expect(try DurationText.parse("0.5s") == .milliseconds(500))
        #expect(try DurationText.parse("2400:00:00") == TimeBounds.longest)
    }

    @Test func calendarTextOutsideTheYearsKept() throws {
        for text in ["999999999-12-24T18:00:00Z", "2200-01-01T00:00:00Z", "1969-12-31T23:59:59Z", "1970-01-01T00:30:00+01:00",
                     "2199-12-31T23:59:59-01:00", "+2026-12-24T18:00:00Z", "2026-12-24T18:+0:00Z"] {
            #expect(throws: CalendarText.Invalid.self, "\(text)") { try CalendarText.parse(text) }
        }
        #expect(try CalendarText.parse("2199-12-31T23:59:59Z") == TimeBounds.latestWall)
        #expect(try CalendarText.parse("1970-01-01T00:00:00Z") == TimeBounds.earliestWall)
    }

    @Test func alarmTimesAndLabelsAreStrict() throws {
        for text in ["+6:+5", "-0:00", "6:+5", " 6:45", "٠٦:٤٥"] {
            #expect(throws: DailyAlarm.Invalid.self, "\(text)") { try DailyAlarm.parseTime(text) }
        }
        for label in ["\u{1B}[2J", "a\u{0}b", "two\nlines", "\u{202E}evil", String(repeating: "x", count: 33)] {
            #expect(throws: DailyAlarm.Invalid.self, "\(label.debugDescription)") { try DailyAlarm.parseLabel(label) }
        }
        #expect(try DailyAlarm.parseLabel("Kita 🚸 ü") == "Kita 🚸 ü")
    }

    @Test func controlRequestsRefuseEscapesAndHugeDurations() {
        for line in [#"{"cmd":"alarm","op":"add","at":"06:45","label":"\u001b]0;pwned\u0007"}"#,
                     #"{"cmd":"alarm","op":"add","at":"+6:+5"}"#,
                     #"{"cmd":"set","duration":"9223372036.9s"}"#,
                     #"{"cmd":"set","duration":"1h1h1h"}"#] {
            #expect(throws: ControlRequest.Invalid.self, "\(line)") { try ControlRequest.parse(Array(line.utf8)) }
        }
    }

    @Test func aConfigFileTooLargeOrNotUTF8IsRefusedWithItsLine() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tock-hostile-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let big = dir.appendingPathComponent("big.yaml").path
        _ = FileManager.default.createFile(atPath: big, contents: Data(("mode: timer\n# " + String(repeating: "x", count: 70_000) + "\n").utf8))
        #expect(throws: ConfigError.self) { try Configuration.load(path: big) }
        do { _ = try Configuration.load(path: big) } catch let e as ConfigError {
            #expect(e.description.contains("larger than 64 KiB"))
        }
        let latin = dir.appendingPathComponent("latin.yaml").path
        _ = FileManager.default.createFile(atPath: latin, contents: Data("mode: timer\n\ntimer:\n  presets: [5m] # K\u{E4}se\n".utf8.map { $0 }.replacingUTF8Umlaut()))
        do { _ = try Configuration.load(path: latin); Issue.record("accepted") } catch let e as ConfigError {
            #expect(e.problems.first?.line == 4)
            #expect(e.description.contains("not UTF-8"))
        }
    }

    @Test func configListsHaveLimitsAndLongValuesAreNotEchoedWhole() throws {
        let many = (1...(Settings.maxPresets + 1)).map { "\($0)m" }.joined(separator: ", ")
        #expect(throws: ConfigError.self) { try Configuration.parse(yaml: "timer:\n  presets: [\(many)]\n", file: "c.yaml") }
        let long = String(repeating: "9", count: 10_000)
        do { _ = try Configuration.parse(yaml: "timer:\n  presets: [\(long)s]\n", file: "c.yaml"); Issue.record("accepted") } catch let e as ConfigError {
            #expect(e.description.count < 400)
            #expect(e.description.hasPrefix("c.yaml:2: timer.presets[0]:"))
        }
    }

    @Test func aFileThatIsNoConfigurationIsNotCopiedIntoTheLog() {
        let shadow = "root:$6$abcdefgh$secrethashvalue:19000:0:99999:7:::\nsecret_word: hunter2\n"
        do { _ = try Configuration.parse(yaml: shadow, file: "c.yaml"); Issue.record("accepted") } catch let e as ConfigError {
            #expect(!e.description.contains("secrethash") && !e.description.contains("hunter2"))
            #expect(e.problems.map(\.line) == [1, 2])
        } catch { Issue.record("\(error)") }
    }

    @Test func aRepeatedKeyIsReportedOnItsOwnLine() throws {
        for (yaml, line, first) in [("mode: timer\ntimer:\n  presets: [5m]\nmode: stopwatch\n", 4, 1),
                                    ("mode: timer\nalarm:\n  ring_for: 30s\n  snooze: 5m\n  ring_for: 40s\n", 5, 3)] {
            do { _ = try Configuration.parse(yaml: yaml, file: "c.yaml"); Issue.record("accepted") } catch let e as ConfigError {
                #expect(e.problems.first?.line == line)
                #expect(e.description.contains("appears twice (first on line \(first))"))
            }
        }
    }

    @Test func aStateFileWithInt64EdgesLoadsAsNothing() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tock-state-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("state.json").path
        let json = #"{"snapshot":{"direction":"down","mode":"timer","phase":{"running":{"before":9223372036854775807,"since":-9223372036854775808}},"presetIndex":0,"presets":[300000000000]},"version":2}"#
        _ = FileManager.default.createFile(atPath: path, contents: Data(json.utf8))
        #expect(StateStore(path: path, log: Logger(label: "test")).load() == nil)
    }
}

extension Array where Element == UInt8 {
    /// The UTF-8 `ä` (C3 A4) as Latin-1 (E4): a file saved by an old editor.
    func replacingUTF8Umlaut() -> Data {
        var out: [UInt8] = []
        var i = 0
        while i < count {
            if i + 1 < count, self[i] == 0xC3, self[i + 1] == 0xA4 { out.append(0xE4); i += 2 } else { out.append(self[i]); i += 1 }
        }
        return Data(out)
    }
}

/// The control request's JSON, read strictly.
@Suite struct RequestJSONTests {
    @Test func repeatedKeysAndBooleansAsNumbersAreRefused() throws {
        for line in [#"{"cmd":"alarm","op":"rm","n":true}"#, #"{"cmd":"alarm","op":"rm","n":1.0}"#,
                     #"{"cmd":"status","cmd":"start"}"#, #"{"cmd":"alarm","op":"rm","n":1,"n":2}"#,
                     #"{"cmd":"set","duration":["5m"]}"#, #"{"cmd":"status"} x"#, #"{"cmd":"st\u0000atus"}"#,
                     #"{"cmd":"alarm","op":"rm","n":01}"#, #"{"cmd":"alarm","op":"rm","n":99999999999999999999999}"#] {
            #expect(throws: ControlRequest.Invalid.self, "\(line)") { try ControlRequest.parse(Array(line.utf8)) }
        }
        #expect(try ControlRequest.parse(Array(#" { "cmd" : "alarm", "op":"rm", "n": 2 } "#.utf8)) == .alarm(.remove(2)))
        #expect(try ControlRequest.parse(Array(#"{"cmd":"alarm","op":"add","at":"06:45","label":"Caf\u00e9 \ud83c\udfcb\/"}"#.utf8))
            == .alarm(.add(DailyAlarm(minute: 405, label: "Café 🏋/"))))
    }

    @Test func everyValueKindReadsBack() throws {
        let o = try JSON.object(Array(#"{"a":"x\n\"y\"","b":-12.5e3,"c":false,"d":null,"e":0}"#.utf8))
        #expect(o == ["a": .string("x\n\"y\""), "b": .double(-12.5e3), "c": .bool(false), "d": .null, "e": .int(0)])
        #expect(o["e"]?.int == 0 && o["b"]?.int == nil && o["c"]?.int == nil)
        for bad in ["", "{", "[]", #"{"a"}"#, #"{"a":}"#, #"{"a":1,}"#, #"{"a":"\ud800"}"#, #"{"a":"\x"}"#, #"{"a":-}"#, #"{"a":1.}"#] {
            #expect(throws: JSONError.self, "\(bad)") { try JSON.object(Array(bad.utf8)) }
        }
        #expect(throws: JSONError.self) { try JSON.object([0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D]) }
        #expect(throws: ControlRequest.Invalid.self) { try ControlRequest.parse(Array(#"{"cmd":"status","x":{"y":1}}"#.utf8)) }
    }
}

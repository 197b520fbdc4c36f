import Foundation
import Testing
import TockJSON
@testable import TockShell
@testable import TockCore

/// The flat snapshot shape (the state file's versions 1-2, a group's
/// message) is read as strictly as ever: every value the core refuses
/// (`Snapshot.check`), and every name it does not know, is refused where it
/// is decoded; values at the edge of the accepted range are read.
@Suite struct SnapshotReadTests {
    let longest = TimeBounds.longest.nanoseconds
    let latest = TimeBounds.latestWall.nanoseconds

    func decode(_ json: String) throws -> Snapshot { try JSON.decode(SnapshotJSON.Read.self, from: Array(json.utf8)).snapshot }

    func snapshot(phase: String, presets: String = "[300000000000]", index: Int = 0, mode: String = "timer", direction: String = "down") -> String {
        #"{"mode":"\#(mode)","phase":\#(phase),"presets":\#(presets),"presetIndex":\#(index),"direction":"\#(direction)"}"#
    }

    @Test func aSnapshotWithAnImpossibleValueDoesNotDecode() throws {
        let max = Int64.max, min = Int64.min
        let refused = [
            snapshot(phase: #"{"running":{"since":\#(max),"before":0}}"#),
            snapshot(phase: #"{"running":{"since":\#(min),"before":0}}"#),
            snapshot(phase: #"{"running":{"since":0,"before":\#(max)}}"#),
            snapshot(phase: #"{"running":{"since":0,"before":-1}}"#),
            snapshot(phase: #"{"paused":{"elapsed":\#(min)}}"#),
            snapshot(phase: #"{"paused":{"elapsed":\#(longest + 1)}}"#),
            snapshot(phase: #"{"ringing":{"since":\#(max)}}"#),
            snapshot(phase: #"{"ready":{}}"#, presets: "[\(max)]"),
            snapshot(phase: #"{"ready":{}}"#, presets: "[0]"),
            snapshot(phase: #"{"ready":{}}"#, presets: "[\(min)]"),
            snapshot(phase: #"{"ready":{}}"#, presets: "[" + Array(repeating: "1000000000", count: Settings.maxPresets + 1).joined(separator: ",") + "]"),
            snapshot(phase: #"{"ready":{}}"#, index: 1),
            snapshot(phase: #"{"ready":{}}"#, index: -1),
            snapshot(phase: #"{"ready":{}}"#, mode: "warp"),
            snapshot(phase: #"{"ready":{}}"#, direction: "sideways"),
        ]
        for json in refused {
            #expect(throws: DecodingError.self, "\(json)") { try decode(json) }
        }
        #expect(try decode(snapshot(phase: #"{"running":{"since":\#(latest),"before":\#(longest)}}"#)).count.phase
            == .running(since: latest, before: longest))
    }

    @Test func alarmsInTheStateFileAreCheckedToo() throws {
        func alarms(items: [String] = [], _ fields: String = "") -> String {
            snapshot(phase: #"{"ready":{}}"#).dropLast() + #","alarms":{"items":[\#(items.joined(separator: ","))],"file":[]\#(fields)}}"#
        }
        let item = #"{"at":"06:45","days":"daily","label":"x","enabled":true,"handled":0}"#
        #expect(try decode(alarms(items: [item])).alarms?.items.count == 1)
        let refused = [
            alarms(#","ringing":\#(Int64.max)"#), alarms(#","snoozedUntil":-5"#), alarms(#","minute":100000"#),
            alarms(#","labels":["\u001b[2J"]"#),
            alarms(items: [item.replacingOccurrences(of: "\"handled\":0", with: "\"handled\":\(Int64.min)")]),
            alarms(items: [item.replacingOccurrences(of: "\"x\"", with: #""\u0000""#)]),
            alarms(items: Array(repeating: item, count: DailyAlarm.maxCount + 1)),
        ]
        for json in refused {
            #expect(throws: DecodingError.self, "\(json)") { try decode(json) }
        }
    }


    @Test func aStateFileSetAsideOutOfBoundsIsRefused() throws {
        func decode(_ aside: String) throws -> Snapshot {
            let json = #"{"mode":"timer","phase":{"ready":{}},"presets":[60000000000],"presetIndex":0,"direction":"down","setAside":"# + aside + "}"
            return try JSON.decode(SnapshotJSON.Read.self, from: Array(json.utf8)).snapshot
        }
        #expect(try decode(#"{"presets":[{"file":[1],"presets":[2],"index":0}],"alarms":[]}"#).setAside?.presets.count == 1)
        for bad in [#"{"presets":[{"file":[1],"presets":[2],"index":1}],"alarms":[]}"#,
                    #"{"presets":[{"file":[1],"presets":[],"index":0}],"alarms":[]}"#,
                    #"{"presets":[{"file":[0],"presets":[2],"index":0}],"alarms":[]}"#,
                    #"{"presets":[],"alarms":[\#(Array(repeating: #"{"items":[],"file":[]}"#, count: 5).joined(separator: ","))]}"#] {
            #expect(throws: DecodingError.self, "\(bad)") { try decode(bad) }
        }
    }

    /// Mode, direction and file mode are enums in the core and the same
    /// strings in the state file and the group message as ever.
    @Test func theJSONKeepsItsStrings() throws {
        var snap = Snapshot(mode: .stopwatch, phase: .running(since: 5, before: 0), presets: [10_000_000_000], presetIndex: 0, direction: .up)
        snap.fileMode = .timer
        let text = String(decoding: SnapshotJSON.value(snap).bytes(.encoder), as: UTF8.self)
        #expect(text == #"{"direction":"up","fileMode":"timer","mode":"stopwatch","phase":{"running":{"before":0,"since":5}},"presetIndex":0,"presets":[10000000000]}"#)
        #expect(try JSON.decode(SnapshotJSON.Read.self, from: Array(text.utf8)).snapshot == snap)
    }

    func decode(mode: String = "interval", extra: String) -> Snapshot? {
        let json = #"{"direction":"down","mode":"\#(mode)","phase":{"ready":{}},"presetIndex":0,"presets":[]"# + extra + "}"
        return try? JSON.decode(SnapshotJSON.Read.self, from: Array(json.utf8)).snapshot
    }

    @Test func goodValuesLoadAndBadOnesAreRefused() {
        #expect(decode(extra: #","leadIn":10000000000,"program":2,"roundsCounted":3,"finish":5000000000"#)?.count.program.flat.program == 2)
        // An interval program has no overrun: the field is a timer's, and is not taken.
        #expect(decode(extra: #","overrunSince":1800000000000000000"#)?.count.program.flat.overrunSince == nil)
        #expect(decode(extra: #","leadIn":-1"#) == nil)
        #expect(decode(extra: #","leadIn":61000000000"#) == nil)
        #expect(decode(extra: #","program":-1"#) == nil)
        #expect(decode(extra: #","program":9223372036854775807"#) == nil)
        #expect(decode(extra: #","roundsCounted":-5"#) == nil)
        #expect(decode(extra: #","finish":-1"#) == nil)
        #expect(decode(mode: "timer", extra: #","overrunSince":1800000000000000000"#)?.count.program.flat.overrunSince == 1_800_000_000_000_000_000)
        #expect(decode(mode: "timer", extra: #","overrunSince":-9223372036854775808"#) == nil)
    }

    @Test func aSnapshotRoundTripsItsNewFields() throws {
        let interval = Snapshot(count: .init(program: .interval(.init(phase: .paused(elapsed: 4_000_000_000), leadIn: 10_000_000_000,
                                                                       program: 1, roundsCounted: 7, finish: 123))))
        let timer = Snapshot(count: .init(program: .count(.init(mode: .timer, phase: .done, direction: .up, leadIn: 10_000_000_000,
                                                                 overrunSince: 1_800_000_000_000_000_000)), presets: [60_000_000_000]))
        for s in [interval, timer] {
            let back = try JSONDecoder().decode(SnapshotJSON.Read.self, from: Data(SnapshotJSON.value(s).bytes(.encoder))).snapshot
            #expect(back == s)
        }
    }

    @Test func aSnapshotWithoutTheNewFieldsIsWrittenAsBefore() throws {
        let s = Snapshot(mode: .timer, phase: .ready, presets: [300_000_000_000], presetIndex: 0, direction: .down)
        let text = String(decoding: Data(SnapshotJSON.value(s).bytes(.encoder)), as: UTF8.self)
        for key in ["leadIn", "program", "roundsCounted", "finish", "overrunSince"] { #expect(!text.contains(key)) }
    }
}

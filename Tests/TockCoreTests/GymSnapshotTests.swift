import Foundation
import Testing
@testable import TockCore

/// The state file's new fields are read as strictly as the old ones.
@Suite struct GymSnapshotTests {
    func decode(_ extra: String) -> Snapshot? {
        let json = #"{"direction":"down","mode":"interval","phase":{"ready":{}},"presetIndex":0,"presets":[]"# + extra + "}"
        return try? JSONDecoder().decode(Snapshot.self, from: Data(json.utf8))
    }

    @Test func goodValuesLoadAndBadOnesAreRefused() {
        #expect(decode(#","leadIn":10000000000,"program":2,"roundsCounted":3,"finish":5000000000"#)?.program == 2)
        #expect(decode(#","overrunSince":1800000000000000000"#)?.overrunSince == 1_800_000_000_000_000_000)
        #expect(decode(#","leadIn":-1"#) == nil)
        #expect(decode(#","leadIn":61000000000"#) == nil)
        #expect(decode(#","program":-1"#) == nil)
        #expect(decode(#","program":9223372036854775807"#) == nil)
        #expect(decode(#","roundsCounted":-5"#) == nil)
        #expect(decode(#","finish":-1"#) == nil)
        #expect(decode(#","overrunSince":-9223372036854775808"#) == nil)
    }

    @Test func aSnapshotRoundTripsItsNewFields() throws {
        var s = Snapshot(mode: .interval, phase: .paused(elapsed: 4_000_000_000), presets: [], presetIndex: 0, direction: .down)
        s.leadIn = 10_000_000_000
        s.program = 1
        s.roundsCounted = 7
        s.finish = 123
        s.overrunSince = 1_800_000_000_000_000_000
        let back = try JSONDecoder().decode(Snapshot.self, from: JSONEncoder().encode(s))
        #expect(back == s)
    }

    @Test func aSnapshotWithoutTheNewFieldsIsWrittenAsBefore() throws {
        let s = Snapshot(mode: .timer, phase: .ready, presets: [300_000_000_000], presetIndex: 0, direction: .down)
        let text = String(decoding: try JSONEncoder().encode(s), as: UTF8.self)
        for key in ["leadIn", "program", "roundsCounted", "finish", "overrunSince"] { #expect(!text.contains(key)) }
    }
}

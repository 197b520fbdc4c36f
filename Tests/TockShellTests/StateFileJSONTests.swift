import Foundation
import Testing
@testable import TockShell
@testable import TockCore

/// The state file's direct writer gives JSONEncoder's bytes, and writes
/// every stored property the snapshot has (a property added later and not
/// written fails here rather than vanishing from the file).
@Suite struct StateFileJSONTests {
    func encoderBytes(_ s: Snapshot) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return [UInt8](try encoder.encode(StateStore.File(version: StateStore.version, snapshot: s)))
    }

    /// Every optional set, labels with every character JSON escapes.
    var full: Snapshot {
        var s = Snapshot(mode: .interval, phase: .paused(elapsed: 12_000_000_000), presets: [60_000_000_000, 1],
                         presetIndex: 1, direction: .up)
        s.fileMode = .stopwatch
        let awkward = "a\"b\\c/d\u{0}\u{1}\u{7}\u{8}\t\n\u{b}\u{c}\r\u{1f} \u{7f}é€\u{1F3CB}\u{2028}"
        var alarms = AlarmsSnapshot(items: [AlarmsSnapshot.Item(at: "07:30", days: "mon-fri", label: awkward, enabled: false, handled: -5),
                                            AlarmsSnapshot.Item(at: "23:59", days: "", label: "", enabled: true, handled: Int64.max)],
                                    file: ["07:30 mon-fri " + awkward, "/"])
        alarms.minute = 0
        alarms.labels = [awkward, ""]
        alarms.ringing = Int64.min
        alarms.snoozedUntil = 42
        s.alarms = alarms
        s.filePresets = []
        s.leadIn = 3_000_000_000
        s.overrunSince = 1_700_000_000_000_000_000
        s.program = 2
        s.roundsCounted = 9_999
        s.finish = 0
        s.dimming = DimmingSnapshot(Dimming(brightness: 2, night: NightSchedule(from: 79_200, to: 25_200, brightness: 0)),
                                    file: Dimming(brightness: 7))
        let tea = AlarmsSnapshot.Item(at: "16:00", days: "daily", label: "tea", enabled: true, handled: 1_700_000_000_000_000_000)
        s.setAside = SetAsideEdits(presets: [.init(file: [60_000_000_000], presets: [120_000_000_000, 1], index: 1)],
                                   alarms: [AlarmsSnapshot(items: [tea], file: [])])
        return s
    }

    @Test func everyPhaseAndEveryOptionalGiveJSONEncodersBytes() throws {
        let phases: [Snapshot.Phase] = [.ready, .running(since: 1_700_000_000_000_000_000, before: 5), .paused(elapsed: 0),
                                        .ringing(since: -1), .done, .over]
        var snapshots = phases.map { Snapshot(mode: .timer, phase: $0, presets: [], presetIndex: 0, direction: .down) }
        for phase in phases {
            var s = full
            s.phase = phase
            snapshots.append(s)
        }
        var empty = full
        empty.alarms = AlarmsSnapshot(items: [], file: [])
        snapshots.append(empty)
        for s in snapshots {
            let mine = StateFileJSON.encode(version: StateStore.version, snapshot: s)
            let theirs = try encoderBytes(s)
            #expect(mine == theirs, "\(String(decoding: mine, as: UTF8.self))\n\(String(decoding: theirs, as: UTF8.self))")
        }
    }

    @Test func everyStoredPropertyIsWritten() throws {
        let s = full
        let json = try JSONSerialization.jsonObject(with: Data(StateFileJSON.encode(version: StateStore.version, snapshot: s))) as! [String: Any]
        let snapshot = json["snapshot"] as! [String: Any]
        let alarms = snapshot["alarms"] as! [String: Any]
        let item = (alarms["items"] as! [[String: Any]])[0]
        func labels(_ v: Any) -> Set<String> { Set(Mirror(reflecting: v).children.compactMap(\.label)) }
        #expect(labels(s) == Set(snapshot.keys))
        #expect(labels(s.alarms!) == Set(alarms.keys))
        #expect(labels(s.alarms!.items[0]) == Set(item.keys))
        let aside = snapshot["setAside"] as! [String: Any]
        #expect(labels(s.setAside!) == Set(aside.keys))
        #expect(labels(s.setAside!.presets[0]) == Set((aside["presets"] as! [[String: Any]])[0].keys))
        #expect(labels(StateStore.File(version: 0, snapshot: s)) == Set(json.keys))
    }

    /// With values the reader accepts: instants within its bounds, printable labels.
    @Test func whatItWritesReadsBack() throws {
        var s = full
        let label = "a\"b\\c/d é€\u{1F3CB}"
        s.alarms!.items = s.alarms!.items.map { var i = $0; i.label = label; i.handled = 1_700_000_000_000_000_000; return i }
        s.alarms!.labels = [label, ""]
        s.alarms!.ringing = 1_700_000_000_000_000_000
        let bytes = StateFileJSON.encode(version: StateStore.version, snapshot: s)
        #expect(bytes == (try encoderBytes(s)))
        let file = try JSONDecoder().decode(StateStore.File.self, from: Data(bytes))
        #expect(file.snapshot == s)
    }
}

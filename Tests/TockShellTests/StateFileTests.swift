import Foundation
import Testing
import TockJSON
@testable import TockShell
@testable import TockCore

/// The state file's format (version 4) and the flat snapshot shape of
/// versions 1-2 and of a fleet group's message of format 1: what is written
/// reads back as the same snapshot, every stored property is written, the
/// flat shape is byte for byte what tock wrote before the formats left the
/// core, and what the core refuses is refused naming the field.
@Suite struct StateFileTests {
    /// Every optional set, labels with every character JSON escapes.
    var full: Snapshot {
        var s = Snapshot(count: .init(program: .interval(.init(phase: .paused(elapsed: 12_000_000_000), leadIn: 3_000_000_000,
                                                               program: 2, roundsCounted: 9_999, finish: 0)),
                                      presets: [60_000_000_000, 1], presetIndex: 1))
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
        s.dimming = DimmingSnapshot(Dimming(brightness: 2, night: NightSchedule(from: 79_200, to: 25_200, brightness: 0)),
                                    file: Dimming(brightness: 7))
        let tea = AlarmsSnapshot.Item(at: "16:00", days: "daily", label: "tea", enabled: true, handled: 1_700_000_000_000_000_000)
        s.setAside = SetAsideEdits(presets: [.init(file: [60_000_000_000], presets: [120_000_000_000, 1], index: 1)],
                                   alarms: [AlarmsSnapshot(items: [tea], file: [])])
        s.timers = [TimerRecord(name: "EGG", duration: 360_000_000_000, state: .running(ends: 1_700_000_360_000_000_000)),
                    TimerRecord(name: "rICE", duration: 1_200_000_000_000, state: .paused(left: 600_000_000_000)),
                    TimerRecord(name: "oven", duration: 3_600_000_000_000, state: .ringing(ended: 1_700_000_000_000_000_000, since: 1_700_000_001_000_000_000)),
                    TimerRecord(name: "t2", duration: 1_000_000_000, state: .ringing(ended: 1_700_000_000_500_000_000, since: nil)),
                    TimerRecord(name: "PiE", duration: 359_940_000_000_000, state: .done)]
        s.wallUnverified = true
        return s
    }

    /// `full` with values the reader accepts: instants within its bounds,
    /// printable labels.
    var readable: Snapshot {
        var s = full
        let label = "a\"b\\c/d é€\u{1F3CB}"
        s.alarms!.items = s.alarms!.items.map { var i = $0; i.label = label; i.handled = 1_700_000_000_000_000_000; return i }
        s.alarms!.labels = [label, ""]
        s.alarms!.ringing = 1_700_000_000_000_000_000
        return s
    }

    /// Every program's fields set: the interval's (in `full`) and a timer's.
    func program(_ mode: Settings.Mode, _ phase: Snapshot.Phase) -> Program.Saved {
        Program.Saved(mode: mode, phase: phase, direction: .up, leadIn: 3_000_000_000, overrunSince: 1_700_000_000_000_000_000,
                      length: 660_000_000_000, program: 2, rounds: 9_999, finish: 0)
    }

    /// Every case of every phase, in every mode, with nothing optional and
    /// with everything.
    var every: [Snapshot] {
        let full = readable
        let phases: [Snapshot.Phase] = [.ready, .running(since: 1_700_000_000_000_000_000, before: 5), .running(since: 1_800_000_000_000_000_000, before: 0),
                                        .paused(elapsed: 0), .ringing(since: 1), .done, .over]
        var all: [Snapshot] = []
        for mode in Settings.Mode.allCases {
            for phase in phases {
                all.append(Snapshot(mode: mode, phase: phase, presets: [], presetIndex: 0, direction: .down))
                var s = full
                s.count.program = program(mode, phase)
                all.append(s)
            }
        }
        var empty = full
        empty.alarms = AlarmsSnapshot(items: [], file: [])
        empty.fileMode = nil
        return all + [empty]
    }

    @Test func whatVersion4WritesReadsBackAsTheSameSnapshot() throws {
        for s in every {
            let bytes = StateFile.encode(s)
            let (back, version) = try StateFile.decode(bytes)
            #expect(version == 4)
            #expect(back == s, "\(String(decoding: bytes, as: UTF8.self))")
        }
    }

    @Test func whatTheFlatShapeWritesReadsBackAsTheSameSnapshot() throws {
        for var s in every {
            s.timers = nil  // the extra timers are the box's own: neither in v1-2 files nor in a group's message
            s.wallUnverified = false  // nor whether its clock was verified
            // nor time added to a count (such a group message goes out in format 2)
            if case .count(var c) = s.count.program { c.length = nil; s.count.program = .count(c) }
            let bytes = SnapshotJSON.value(s).bytes(.encoder)
            #expect(try JSON.decode(SnapshotJSON.Read.self, from: Array(bytes)).snapshot == s, "\(String(decoding: bytes, as: UTF8.self))")
        }
    }

    /// A property added to the snapshot and not written by both formats
    /// fails here rather than vanishing from the file: the counts are those
    /// both writers cover, and `full` sets every optional one.
    @Test func everyStoredPropertyIsWrittenAndSetInTheFullSnapshot() throws {
        func labels(_ v: Any) -> [String] { Mirror(reflecting: v).children.compactMap(\.label) }
        #expect(labels(full).count == 8)
        #expect(labels(full.count).count == 3)
        guard case .interval(let interval) = full.count.program else { Issue.record("not an interval"); return }
        #expect(labels(interval).count == 5)
        guard case .count(let timer) = program(.timer, .done) else { Issue.record("not a count"); return }
        #expect(labels(timer).count == 6)
        guard case .calendar(let calendar) = program(.countdown, .done) else { Issue.record("not a countdown"); return }
        #expect(labels(calendar).count == 1)
        for p in [interval, timer] as [Any] {
            for child in Mirror(reflecting: p).children {
                let m = Mirror(reflecting: child.value)
                #expect(m.displayStyle != .optional || m.children.count == 1, "\(child.label ?? "?") is nil")
            }
        }
        #expect(labels(full.timers![0]).count == 3)
        #expect(labels(full.alarms!).count == 6)
        #expect(labels(full.alarms!.items[0]).count == 5)
        #expect(labels(full.setAside!).count == 2)
        #expect(labels(full.setAside!.presets[0]).count == 3)
        #expect(labels(full.dimming!).count == 3)
        for child in Mirror(reflecting: full).children {
            let m = Mirror(reflecting: child.value)
            #expect(m.displayStyle != .optional || m.children.count == 1, "\(child.label ?? "?") is nil in `full`")
        }
        // The flat shape: the box's fields, the count's, and every field of
        // the interval's and a timer's but `length` (time added to a count),
        // which it cannot carry: a group message with one goes out in
        // format 2 (`GroupSchedule.Message.format(for:speaking:)`).
        let flat = try JSONSerialization.jsonObject(with: Data(SnapshotJSON.value(full).bytes(.encoder))) as! [String: Any]
        var timerFull = full
        timerFull.count.program = program(.timer, .done)
        let timerFlat = try JSONSerialization.jsonObject(with: Data(SnapshotJSON.value(timerFull).bytes(.encoder))) as! [String: Any]
        let written = Set(flat.keys).union(timerFlat.keys)
        #expect(written == Set(labels(full)).subtracting(["timers", "wallUnverified", "count"])
            .union(labels(full.count)).subtracting(["program"]).union(["mode", "phase"])
            .union(labels(interval)).union(labels(timer)).subtracting(["rounds", "length"]).union(["roundsCounted"]), "\(written.sorted())")
        let v4 = try JSONSerialization.jsonObject(with: Data(StateFile.encode(full))) as! [String: Any]
        #expect((v4["timers"] as? [Any])?.count == 5)
        #expect(v4["clock"] as? String == "unverified")
        let intervalFields = ((v4["program"] as? [String: Any])?["interval"] as? [String: Any]).map { Set($0.keys) }
        #expect(intervalFields == Set(labels(interval)).subtracting(["roundsCounted"]).union(["rounds"]))
        let v4Timer = try JSONSerialization.jsonObject(with: Data(StateFile.encode(timerFull))) as! [String: Any]
        #expect(((v4Timer["program"] as? [String: Any])?["timer"] as? [String: Any]).map { Set($0.keys) } == Set(labels(timer)).subtracting(["mode"]))
    }

    /// The text of version 4, pinned: each program writes its own fields
    /// under its mode's name; a countdown spells its target.
    @Test func version4sText() {
        var s = Snapshot(mode: .countdown, phase: .running(since: 1_955_901_600_000_000_000, before: 0), presets: [300_000_000_000], presetIndex: 0, direction: .down)
        s.fileMode = .countdown
        s.filePresets = [300_000_000_000]
        #expect(String(decoding: StateFile.encode(s), as: UTF8.self) == #"{"file":{"mode":"countdown","presets":[300000000000]},"presets":{"index":0,"list":[300000000000]},"program":{"countdown":{"phase":{"counting":{"target":1955901600000000000}}}},"version":4}"#)
        let t = Snapshot(count: .init(program: .count(.init(mode: .stopwatch, phase: .paused(elapsed: 5), direction: .up)), presets: [60_000_000_000]))
        #expect(String(decoding: StateFile.encode(t), as: UTF8.self) == #"{"presets":{"index":0,"list":[60000000000]},"program":{"stopwatch":{"direction":"up","phase":{"paused":{"elapsed":5}}}},"version":4}"#)
    }

    /// The flat shape is what tock wrote before (the files of c789da3, in
    /// StateFiles.all(version: 2)), so a group's older members read this box's messages
    /// and it reads theirs.
    @Test func theFlatShapeIsByteForByteWhatEarlierVersionsWrote() throws {
        for (name, bytes) in try StateFiles.all(version: 2) {
            let (snapshot, version) = try StateFile.decode(bytes)
            #expect(version == 2, "\(name)")
            let again = JSON.fields([("version", .int(2)), ("snapshot", SnapshotJSON.value(snapshot))]).bytes(.encoder) + [0x0A]
            #expect(again == bytes, "\(name)")
        }
    }

    /// Every version-3 file (58dc149's, StateFilesV3/) reads as version 3,
    /// and what it read is written as version 4 and reads back the same.
    @Test func version3FilesReadAndAreWrittenAsVersion4() throws {
        for (name, bytes) in try StateFiles.all(version: 3) {
            let (snapshot, version) = try StateFile.decode(bytes)
            #expect(version == 3, "\(name)")
            let (again, now) = try StateFile.decode(StateFile.encode(snapshot))
            #expect(now == 4 && again == snapshot, "\(name)")
        }
    }

    @Test func whatTheCoreRefusesIsRefusedNamingTheField() throws {
        func reason(_ text: String) -> String {
            do { _ = try StateFile.decode(Array(text.utf8)); return "accepted" } catch let e as StateFile.UnknownVersion {
                return "version \(e.version)"
            } catch { return "\(error)" }
        }
        let good = String(decoding: StateFile.encode(Snapshot(mode: .timer, phase: .ready, presets: [1_000_000_000], presetIndex: 0, direction: .down)), as: UTF8.self)
        #expect(reason(good) == "accepted")
        #expect(reason(good.replacingOccurrences(of: #""version":4"#, with: #""version":5"#)) == "version 5")
        #expect(reason(good.replacingOccurrences(of: #""version":4"#, with: #""version":0"#)) == "version 0")
        #expect(reason(good.replacingOccurrences(of: "[1000000000]", with: "[0]")).contains("presets: a preset of 0 ns"))
        #expect(reason(good.replacingOccurrences(of: #""index":0"#, with: #""index":1"#)).contains("presetIndex: preset 1 of 1"))
        #expect(reason(good.replacingOccurrences(of: #"{"timer":"#, with: #"{"egg":"#)).contains("unknown mode \"egg\""))
        #expect(reason(good.replacingOccurrences(of: #""direction":"down""#, with: #""direction":"left""#)).contains("unknown direction \"left\""))
        #expect(reason(good.replacingOccurrences(of: #""program":{"#, with: #""program":{"interval":{"phase":{"done":{}}},"#)).contains("not one mode's program"))
        #expect(reason(good.replacingOccurrences(of: #""program":{"timer":"#, with: #""program":{"stopwatch":{},"timer":"#)).contains("not one mode's program"))
        #expect(reason(good.replacingOccurrences(of: #"{"ready":{}}"#, with: #"{"counting":{"target":5}}"#)).contains("a countdown's"))
        #expect(reason(good.replacingOccurrences(of: #"{"ready":{}}"#, with: #"{"ready":{},"done":{}}"#)).contains("not one of"))
    }
}

/// The files earlier versions wrote: StateFilesV2/ as c789da3 wrote them
/// (version 2), StateFilesV3/ as 58dc149 did (version 3).
enum StateFiles {
    static func folder(_ version: Int) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("StateFilesV\(version)")
    }

    static func all(version: Int) throws -> [(String, [UInt8])] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder(version).path).filter { $0.hasSuffix(".json") }.sorted()
        #expect(names.count == [2: 10, 3: 12][version])
        return try names.map { ($0, try bytes(String($0.dropLast(5)), version: version)) }
    }

    static func bytes(_ name: String, version: Int) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: folder(version).appendingPathComponent(name + ".json")))
    }
}

import Foundation
import Glibc
import Logging
import Testing
import TockTestSupport
@testable import TockShell
import TockLinux
@testable import TockCore

/// The state file's writer and reader agree by construction: the largest
/// state the lists' limits allow fits the one size limit both use.
@Suite struct StateStoreTests {
    let dir: URL

    init() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("tock-store-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    func store(_ lines: LogLines = .init()) -> StateStore {
        StateStore(path: dir.appendingPathComponent("state.json").path,
                   log: Logger(label: "test") { _ in LogCapture(lines: lines) })
    }

    /// Every list at its limit, every label and name at its longest in bytes.
    var largest: Snapshot {
        let label = String(repeating: "\u{1F3CB}", count: DailyAlarm.maxLabel)  // 4 bytes each
        var s = Snapshot(mode: .timer, phase: .running(since: TimeBounds.latestWall.nanoseconds, before: TimeBounds.longest.nanoseconds),
                         presets: Array(repeating: Settings.longestPreset.nanoseconds, count: Settings.maxPresets),
                         presetIndex: Settings.maxPresets - 1, direction: .down)
        s.fileMode = .interval
        let item = AlarmsSnapshot.Item(at: "23:59", days: "mon,tue,wed,fri,sun", label: label, enabled: true,
                                       handled: TimeBounds.latestWall.nanoseconds)
        var alarms = AlarmsSnapshot(items: Array(repeating: item, count: DailyAlarm.maxCount),
                                    file: Array(repeating: "23:59 mon,tue,wed,fri,sun off " + label, count: DailyAlarm.maxCount))
        alarms.minute = 1439
        alarms.labels = Array(repeating: label, count: DailyAlarm.maxCount)
        alarms.ringing = TimeBounds.latestWall.nanoseconds
        s.alarms = alarms
        // The lists set aside, each at its limit.
        var aside = alarms
        (aside.minute, aside.labels, aside.ringing) = (nil, nil, nil)
        let presets = SetAsideEdits.Presets(file: s.count.presets, presets: s.count.presets, index: Settings.maxPresets - 1)
        s.setAside = SetAsideEdits(presets: Array(repeating: presets, count: SetAsideEdits.depth),
                                   alarms: Array(repeating: aside, count: SetAsideEdits.depth))
        // Every extra timer, its name as long as an 8-digit display takes.
        let latest = TimeBounds.latestWall.nanoseconds
        s.timers = (0..<ExtraTimers.limit).map { i in
            TimerRecord(name: "8888888\(i)", duration: Settings.longestPreset.nanoseconds, state: .ringing(ended: latest, since: latest))
        }
        return s
    }

    @Test func theLargestStateIsWrittenAndReadBack() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let s = store()
        s.save(largest)
        let file = Array(FileManager.default.contents(atPath: s.path) ?? Data())
        guard case .slot(let payload, _) = SlotFile.parse(file) else { Issue.record("not a slot file"); return }
        #expect(payload.count <= StateStore.maxFileSize * 3 / 4, "\(payload.count) bytes")
        #expect(StateStore.maxFileSize <= SlotFile.capacity, "the largest state fits a slot")
        #expect(s.load() == largest)
    }

    /// A change is written in place: after the file is made, every save is
    /// one slot of the same file, and a new reader takes the newest.
    @Test func changesAreWrittenInPlaceAndTheNewestIsRead() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let s = store()
        func paused(_ n: Int64) -> Snapshot {
            Snapshot(mode: .timer, phase: .paused(elapsed: n), presets: [60_000_000_000], presetIndex: 0, direction: .down)
        }
        var snap = paused(1)
        s.save(snap)
        var st = stat()
        #expect(stat(s.path, &st) == 0)
        let inode = st.st_ino
        for n in 2...5 {
            snap = paused(Int64(n))
            s.save(snap)
        }
        #expect(stat(s.path, &st) == 0 && st.st_ino == inode && st.st_size == off_t(SlotFile.fileSize))
        #expect(s.writes == 5)
        #expect(store().load() == snap)
    }

    /// A file written whole by an earlier version is read, and the next
    /// change turns it into a slot file.
    @Test func aPlainStateFileIsReadAndTheNextChangeMakesSlots() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let s = store()
        let snap = Snapshot(mode: .timer, phase: .paused(elapsed: 7), presets: [60_000_000_000], presetIndex: 0, direction: .down)
        try DurableFile.replace(s.path, with: StateFile.encode(snap) + [0x0A])
        #expect(s.load() == snap)
        let next = Snapshot(mode: .timer, phase: .paused(elapsed: 8), presets: [60_000_000_000], presetIndex: 0, direction: .down)
        s.save(next)
        let file = Array(FileManager.default.contents(atPath: s.path) ?? Data())
        guard case .slot = SlotFile.parse(file) else { Issue.record("still plain"); return }
        #expect(store().load() == next)
    }

    @Test func aFileOverTheLimitOrOfAnUnknownVersionLoadsAsNothingWithAReason() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let lines = LogLines()
        let s = store(lines)
        _ = FileManager.default.createFile(atPath: s.path, contents: Data(repeating: 0x20, count: StateStore.maxFileSize + 1))
        #expect(s.load() == nil)
        #expect(lines.messages.last?.contains("cannot read it") == true)
        for (version, words) in [(0, "not one this tock reads"), (99, "newer than this tock reads")] {
            let json = #"{"snapshot":{"direction":"down","mode":"timer","phase":{"ready":{}},"presetIndex":0,"presets":[1]},"version":\#(version)}"#
            _ = FileManager.default.createFile(atPath: s.path, contents: Data(json.utf8))
            #expect(s.load() == nil)
            #expect(lines.messages.last?.contains(words) == true, "\(lines.messages.last ?? "")")
        }
    }

    /// A flood of changes (a start/stop command flood) is written once a
    /// second after the first ten, and the last state always reaches the
    /// file; changes at a person's pace are written at once.
    @Test func aFloodOfChangesIsWrittenOnceASecond() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let s = store()
        func snap(_ i: Int) -> Snapshot {
            Snapshot(mode: .timer, phase: i % 2 == 0 ? .running(since: Int64(i), before: 0) : .paused(elapsed: Int64(i)),
                     presets: [1_000_000_000], presetIndex: 0, direction: .down)
        }
        for i in 0..<1_000 {  // one change every 2 ms for 2 s
            let t = Instant(nanoseconds: Int64(i) * 2_000_000)
            s.flush(at: t)
            s.save(snap(i), at: t)
        }
        #expect(s.writes == StateStore.burst + 1)  // ten at once, one at 1 s
        #expect(s.deadline == Instant(nanoseconds: 2_000_000_000))
        s.flush(at: Instant(nanoseconds: 1_999_999_999))
        #expect(s.writes == StateStore.burst + 1)
        s.flush(at: Instant(nanoseconds: 2_000_000_000))
        #expect(s.writes == StateStore.burst + 2 && s.deadline == nil)
        #expect(s.load() == snap(999))
        // Ten seconds later the bucket is full again: a change is written at once.
        s.save(snap(1_000), at: Instant(nanoseconds: 12_000_000_000))
        #expect(s.writes == StateStore.burst + 3 && s.load() == snap(1_000))
    }

    /// What is planted at the state path is neither waited on nor followed.
    @Test func aFIFOAtTheStatePathIsRefusedAtOnceWithoutWaitingForAWriter() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let lines = LogLines()
        let s = store(lines)
        #expect(mkfifo(s.path, 0o600) == 0)
        // On another thread, so that a load that waits for a writer fails
        // this test instead of hanging it; a writer opened afterwards lets
        // such a load return.
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var loaded: Snapshot? = Snapshot(mode: .timer, phase: .paused(elapsed: 1), presets: [1_000_000_000], presetIndex: 0, direction: .down)
        nonisolated(unsafe) let unsafeStore = s
        Thread.detachNewThread {
            loaded = unsafeStore.load()
            done.signal()
        }
        let returned = done.wait(timeout: .now() + 10) == .success
        if !returned {
            let writer = open(s.path, O_WRONLY | O_NONBLOCK)
            if writer >= 0 { close(writer) }
            _ = done.wait(timeout: .now() + 10)
        }
        #expect(returned, "load() waited on the FIFO at \(s.path)")
        #expect(loaded == nil)
        #expect(lines.messages.contains { $0.contains(s.path) && $0.contains("named pipe (FIFO), not a regular file") }, "\(lines.messages)")
    }

    @Test func aSymlinkAtTheTemporaryNameIsNotFollowed() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let s = store()
        let victim = dir.appendingPathComponent("victim")
        try Data("precious\n".utf8).write(to: victim)
        #expect(symlink(victim.path, s.path + ".tmp") == 0)
        let state = Snapshot(mode: .timer, phase: .paused(elapsed: 1), presets: [1_000_000_000], presetIndex: 0, direction: .down)
        s.save(state)
        #expect(FileManager.default.contents(atPath: victim.path) == Data("precious\n".utf8))
        #expect(store().load() == state)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["state.json", "victim"])
    }
}

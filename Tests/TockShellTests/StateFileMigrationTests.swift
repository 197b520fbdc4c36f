import Foundation
import Glibc
import Logging
import Testing
import TockConfig
import TockTestSupport
@testable import TockShell
import TockLinux
@testable import TockCore

/// A box updated from a tock that wrote version 2 (c789da3) or version 3
/// (58dc149) keeps what it was doing: each file in StateFilesV2/ and
/// StateFilesV3/ is loaded by today's reader into an
/// appliance configured as the file's writer was (make-state-files.sh), read a
/// minute after it was saved, and written back as version 4, which reads
/// back as the same state.
@Suite struct StateFileMigrationTests {
    let dir: URL

    init() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("tock-migrate-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    /// make-state-files.sh's configuration.
    func settings(mode: String = "timer", switchPosition: String = "down", leadIn: String = "0s", presets: String = "[5m, 10m, 1s]") throws -> Configuration {
        try Configuration.parse(yaml: """
            mode: \(mode)
            switch: \(switchPosition)
            timer:
              presets: \(presets)
              lead_in: \(leadIn)
              overrun: true
            interval:
              programs:
                - {name: tAbA, kind: tabata}
                - {name: A20, kind: amrap, cap: 20m}
            countdown:
              until: 2031-12-24T18:00:00Z
            alarms:
              - {at: "06:45", days: mon-fri, label: work}
              - {at: "09:00", days: [sat, sun]}
            display:
              kind: none
            buzzer:
              kind: none
            """, file: "config.yaml")
    }

    struct Loaded {
        var machine: Machine
        var snapshot: Snapshot
        var now: Now
        var log: [String]
    }

    /// The file loaded through `StateStore` a minute after the instant
    /// `savedAt` (ns) and restored into an appliance; then saved, and the
    /// saved file checked to be version 4 and to read back the same.
    func load(_ name: String, version v: Int, savedAt: Int64, _ config: Configuration) throws -> Loaded {
        let path = dir.appendingPathComponent("\(name).json").path
        try Data(try StateFiles.bytes(name, version: v)).write(to: URL(fileURLWithPath: path))
        let lines = LogLines()
        let store = StateStore(path: path, log: Logger(label: "test") { _ in LogCapture(lines: lines) })
        let now = Now(monotonic: Instant(nanoseconds: 5_000_000_000), wall: WallTime(nanoseconds: savedAt + 60_000_000_000))
        let snapshot = try #require(store.load(at: now))
        var machine = Machine(settings: config.settings, switchPosition: config.switchPosition, restoring: snapshot, at: now)
        _ = machine.handle(.powerOn, at: now)
        store.save(machine.snapshot(at: now))
        let file = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        guard case .slot(let written, _) = SlotFile.parse(file) else { throw SlotsExpected() }
        let (again, version) = try StateFile.decode(written)
        #expect(version == 4)
        #expect(again == machine.snapshot(at: now))
        #expect(lines.messages.contains { $0.contains("format version \(v); read, and written as version 4") })
        return Loaded(machine: machine, snapshot: snapshot, now: now, log: lines.messages)
    }

    /// When a count started or began to ring; nil for a countdown (its
    /// `since` is its target) and for other phases.
    func since(_ s: Snapshot) -> Int64? {
        guard s.mode != .countdown else { return nil }
        switch s.count.phase {
        case .running(let since, _), .ringing(let since): return since
        default: return nil
        }
    }

    /// An extra timer's wall instant in the past when it was saved: when
    /// it ended or began to ring (a running one's end lies ahead).
    static func instant(_ t: TimerRecord) -> Int64? {
        switch t.state {
        case .ringing(let e, let since): since ?? e
        case .running, .paused, .done: nil
        }
    }

    /// Loaded a minute after the file was written: the latest instant in it
    /// (the alarms' marks are set when tock starts, just before it).
    func load(_ name: String, version v: Int, _ config: Configuration) throws -> Loaded {
        let (s, read) = try StateFile.decode(try StateFiles.bytes(name, version: v))
        #expect(read == v)
        let marks: [Int64] = s.alarms?.items.map(\.handled) ?? []
        let counts: [Int64] = [since(s), s.count.program.flat.overrunSince].compactMap { $0 }
        let timers: [Int64] = (s.timers ?? []).compactMap(Self.instant)
        let saved = (marks + counts + timers).max()!
        return try load(name, version: v, savedAt: saved, config)
    }

    @Test(arguments: [2, 3]) func aRunningCountDownKeepsCounting(version: Int) throws {
        let l = try load("timer-running", version: version, try settings())
        #expect(l.machine.stateName == .running)
        // 12m30s set, started at `since`; a minute later 11m30s are left.
        let (s, _) = try StateFile.decode(try StateFiles.bytes("timer-running", version: version))
        guard case .running(let since, 0) = s.count.phase else { Issue.record("\(s.count.phase)"); return }
        let elapsed = l.now.wall.nanoseconds - since
        #expect(l.machine.progress(at: l.now).remaining == .nanoseconds(750_000_000_000 - elapsed))
        #expect(l.snapshot.count.presets == [750_000_000_000, 600_000_000_000, 1_000_000_000])
    }

    @Test(arguments: [2, 3]) func aPausedCountKeepsItsElapsedTime(version: Int) throws {
        let l = try load("timer-paused", version: version, try settings())
        #expect(l.machine.stateName == .paused)
        // Paused after 1.2 s (a second of sleep, and the commands' own time).
        guard case .paused(let elapsed) = l.snapshot.count.phase, (1_200_000_000..<2_000_000_000).contains(elapsed) else { Issue.record("\(l.snapshot.count.phase)"); return }
        #expect(l.machine.progress(at: l.now).elapsed == .nanoseconds(elapsed))
    }

    @Test(arguments: [2, 3]) func aRingingCountDownKeepsItsOverrun(version: Int) throws {
        let l = try load("timer-ringing-overrun", version: version, try settings())
        #expect([.ringing, .done].contains(l.machine.stateName))
        let overrun = try #require(l.machine.progress(at: l.now).overrun)
        #expect(overrun == .nanoseconds(l.now.wall.nanoseconds - l.snapshot.count.program.flat.overrunSince!))
    }

    @Test(arguments: [2, 3]) func aLeadInCarriesOn(version: Int) throws {
        let l = try load("timer-lead-in", version: version, try settings(leadIn: "10s"))
        #expect(l.machine.stateName == .running)
        #expect(l.snapshot.count.program.flat.leadIn == 10_000_000_000)
        // A minute after a start with a 10 s lead-in: 50 s of the 5 min counted.
        let p = l.machine.progress(at: l.now)
        #expect(p.leadIn == nil)
        #expect(p.elapsed == .nanoseconds(l.now.wall.nanoseconds - since(l.snapshot)! - 10_000_000_000))
    }

    @Test(arguments: [2, 3]) func aRunningStopwatchKeepsCountingUp(version: Int) throws {
        let l = try load("stopwatch-running", version: version, try settings(mode: "stopwatch", switchPosition: "up"))
        #expect(l.machine.stateName == .running)
        #expect(l.machine.progress(at: l.now).elapsed == .nanoseconds(l.now.wall.nanoseconds - since(l.snapshot)!))
    }

    @Test(arguments: [2, 3]) func anAMRAPKeepsItsProgramAndRounds(version: Int) throws {
        let l = try load("interval-amrap-rounds", version: version, try settings(mode: "interval"))
        #expect(l.machine.stateName == .running)
        let p = l.machine.progress(at: l.now)
        #expect(p.program == "A20")
        // Two rounds counted: the third is under way.
        #expect(l.snapshot.count.program.flat.rounds == 2)
        #expect(p.round?.round == 3)
    }

    @Test(arguments: [2, 3]) func aPausedTabataKeepsItsProgram(version: Int) throws {
        let l = try load("interval-tabata-paused", version: version, try settings(mode: "interval"))
        #expect(l.machine.stateName == .paused)
        #expect(l.machine.progress(at: l.now).program == "tAbA")
    }

    @Test(arguments: [2, 3]) func aCountdownToAnInstantKeepsItsTarget(version: Int) throws {
        let l = try load("countdown-counting", version: version, try settings(mode: "countdown"))
        #expect(l.machine.stateName == .running)
        #expect(l.machine.progress(at: l.now).remaining == .nanoseconds(1_955_901_600_000_000_000 - l.now.wall.nanoseconds))
    }

    @Test(arguments: [2, 3]) func alarmsDimmingAndEditedPresetsAreKept(version: Int) throws {
        let l = try load("alarms-dimming-edits", version: version, try settings())
        let s = l.machine.snapshot(at: l.now)
        #expect(s.alarms?.items.map(\.label) == ["work", "", "tea"])
        #expect(s.alarms?.items.map(\.enabled) == [false, true, true])
        #expect(s.dimming?.brightness == 3)
        #expect(s.dimming?.night == [79_200, 25_200, 1])
        #expect(s.count.presets.first == 420_000_000_000)
    }

    @Test(arguments: [2, 3]) func aListTheFileReplacedIsTheFilesAfterTheUpdate(version: Int) throws {
        let l = try load("presets-set-aside", version: version, try settings(presets: "[2m, 3m]"))
        #expect(l.machine.snapshot(at: l.now).count.presets == [120_000_000_000, 180_000_000_000])
    }

    /// Version 3 only (extra timers and an interval's lead-in came after
    /// version 2): the kitchen's timers carry on as if the box had stayed
    /// on: EGG (6 min) still running to its end, RICE paused with what it
    /// had left, TEA (1 s) over. Read a minute after the save, as above.
    @Test func theExtraTimersCarryOn() throws {
        let (s, _) = try StateFile.decode(try StateFiles.bytes("timers-kitchen", version: 3))
        let saved = try #require(s.timers)
        #expect(saved.map(\.name) == ["EGG", "RICE", "TEA"])
        let l = try load("timers-kitchen", version: 3, try settings())
        let after = try #require(l.machine.snapshot(at: l.now).timers)
        #expect(after.map(\.name) == ["EGG", "RICE", "TEA"])
        #expect(after[0].state == saved[0].state, "EGG ends when it would have")
        #expect(after[1].state == saved[1].state, "RICE keeps what it had left")
        guard case .ringing = saved[2].state else { Issue.record("TEA saved as \(saved[2].state)"); return }
        if case .running = after[2].state { Issue.record("TEA runs again") }
    }

    @Test func anIntervalStartedWithItsLeadInCarriesOn() throws {
        let l = try load("interval-lead-in", version: 3, try settings(mode: "interval", leadIn: "10s"))
        #expect(l.machine.stateName == .running)
        #expect(l.machine.progress(at: l.now).program == "tAbA")
    }
}

/// The file written after a load is a slot file.
struct SlotsExpected: Error {}

import Foundation
import Glibc
import Logging
import Testing
import TockConfig
import TockTestSupport
@testable import TockShell
@testable import TockCore

/// A box updated from a tock that wrote version 2 (c789da3) keeps what it
/// was doing: each file in StateFilesV2/ is loaded by today's reader into an
/// appliance configured as the file's writer was (make-files.sh), read a
/// minute after it was saved, and written back as version 3, which reads
/// back as the same state.
@Suite struct StateFileMigrationTests {
    let dir: URL

    init() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("tock-migrate-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    /// make-files.sh's configuration.
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
    /// saved file checked to be version 3 and to read back the same.
    func load(_ name: String, savedAt: Int64, _ config: Configuration) throws -> Loaded {
        let path = dir.appendingPathComponent("\(name).json").path
        try Data(try StateFilesV2.bytes(name)).write(to: URL(fileURLWithPath: path))
        let lines = LogLines()
        let store = StateStore(path: path, log: Logger(label: "test") { _ in LogCapture(lines: lines) })
        let now = Now(monotonic: Instant(nanoseconds: 5_000_000_000), wall: WallTime(nanoseconds: savedAt + 60_000_000_000))
        let snapshot = try #require(store.load(at: now))
        var machine = Machine(settings: config.settings, switchPosition: config.switchPosition, restoring: snapshot, at: now)
        _ = machine.handle(.powerOn, at: now)
        store.save(machine.snapshot(at: now))
        let written = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let (again, version) = try StateFile.decode(written)
        #expect(version == 3)
        #expect(again == machine.snapshot(at: now))
        #expect(lines.messages.contains { $0.contains("format version 2; read, and written as version 3") })
        return Loaded(machine: machine, snapshot: snapshot, now: now, log: lines.messages)
    }

    /// When a count started or began to ring; nil for a countdown (its
    /// `since` is its target) and for other phases.
    func since(_ s: Snapshot) -> Int64? {
        guard s.mode != .countdown else { return nil }
        switch s.phase {
        case .running(let since, _), .ringing(let since): return since
        default: return nil
        }
    }

    /// Loaded a minute after the file was written: the latest instant in it
    /// (the alarms' marks are set when tock starts, just before it).
    func load(_ name: String, _ config: Configuration) throws -> Loaded {
        let (s, _) = try StateFile.decode(try StateFilesV2.bytes(name))
        let saved = ((s.alarms?.items.map(\.handled) ?? []) + [since(s), s.overrunSince].compactMap { $0 }).max()!
        return try load(name, savedAt: saved, config)
    }

    @Test func aRunningCountDownKeepsCounting() throws {
        let l = try load("timer-running", try settings())
        #expect(l.machine.stateName == .running)
        // 12m30s set, started at `since`; a minute later 11m30s are left.
        let (s, _) = try StateFile.decode(try StateFilesV2.bytes("timer-running"))
        guard case .running(let since, 0) = s.phase else { Issue.record("\(s.phase)"); return }
        let elapsed = l.now.wall.nanoseconds - since
        #expect(l.machine.progress(at: l.now).remaining == .nanoseconds(750_000_000_000 - elapsed))
        #expect(l.snapshot.presets == [750_000_000_000, 600_000_000_000, 1_000_000_000])
    }

    @Test func aPausedCountKeepsItsElapsedTime() throws {
        let l = try load("timer-paused", try settings())
        #expect(l.machine.stateName == .paused)
        // Paused after 1.2 s (a second of sleep, and the commands' own time).
        guard case .paused(let elapsed) = l.snapshot.phase, (1_200_000_000..<2_000_000_000).contains(elapsed) else { Issue.record("\(l.snapshot.phase)"); return }
        #expect(l.machine.progress(at: l.now).elapsed == .nanoseconds(elapsed))
    }

    @Test func aRingingCountDownKeepsItsOverrun() throws {
        let l = try load("timer-ringing-overrun", try settings())
        #expect([.ringing, .done].contains(l.machine.stateName))
        let overrun = try #require(l.machine.progress(at: l.now).overrun)
        #expect(overrun == .nanoseconds(l.now.wall.nanoseconds - l.snapshot.overrunSince!))
    }

    @Test func aLeadInCarriesOn() throws {
        let l = try load("timer-lead-in", try settings(leadIn: "10s"))
        #expect(l.machine.stateName == .running)
        #expect(l.snapshot.leadIn == 10_000_000_000)
        // A minute after a start with a 10 s lead-in: 50 s of the 5 min counted.
        let p = l.machine.progress(at: l.now)
        #expect(p.leadIn == nil)
        #expect(p.elapsed == .nanoseconds(l.now.wall.nanoseconds - since(l.snapshot)! - 10_000_000_000))
    }

    @Test func aRunningStopwatchKeepsCountingUp() throws {
        let l = try load("stopwatch-running", try settings(mode: "stopwatch", switchPosition: "up"))
        #expect(l.machine.stateName == .running)
        #expect(l.machine.progress(at: l.now).elapsed == .nanoseconds(l.now.wall.nanoseconds - since(l.snapshot)!))
    }

    @Test func anAMRAPKeepsItsProgramAndRounds() throws {
        let l = try load("interval-amrap-rounds", try settings(mode: "interval"))
        #expect(l.machine.stateName == .running)
        let p = l.machine.progress(at: l.now)
        #expect(p.program == "A20")
        // Two rounds counted: the third is under way.
        #expect(l.snapshot.roundsCounted == 2)
        #expect(p.round?.round == 3)
    }

    @Test func aPausedTabataKeepsItsProgram() throws {
        let l = try load("interval-tabata-paused", try settings(mode: "interval"))
        #expect(l.machine.stateName == .paused)
        #expect(l.machine.progress(at: l.now).program == "tAbA")
    }

    @Test func aCountdownToAnInstantKeepsItsTarget() throws {
        let l = try load("countdown-counting", try settings(mode: "countdown"))
        #expect(l.machine.stateName == .running)
        #expect(l.machine.progress(at: l.now).remaining == .nanoseconds(1_955_901_600_000_000_000 - l.now.wall.nanoseconds))
    }

    @Test func alarmsDimmingAndEditedPresetsAreKept() throws {
        let l = try load("alarms-dimming-edits", try settings())
        let s = l.machine.snapshot(at: l.now)
        #expect(s.alarms?.items.map(\.label) == ["work", "", "tea"])
        #expect(s.alarms?.items.map(\.enabled) == [false, true, true])
        #expect(s.dimming?.brightness == 3)
        #expect(s.dimming?.night == [79_200, 25_200, 1])
        #expect(s.presets.first == 420_000_000_000)
    }

    @Test func aListTheFileReplacedIsTheFilesAfterTheUpdate() throws {
        let l = try load("presets-set-aside", try settings(presets: "[2m, 3m]"))
        #expect(l.machine.snapshot(at: l.now).presets == [120_000_000_000, 180_000_000_000])
    }
}

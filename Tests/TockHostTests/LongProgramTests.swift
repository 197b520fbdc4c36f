import Foundation
import Logging
import Testing
import TockCore
import TockLoop
@testable import TockHost
@testable import TockMQTT
@testable import TockShell

/// The longest program the configuration accepts, run to its end on
/// virtual time: its state is saved, shared with a group and taken back
/// after a restart at every point, because the three share one bound.
@Suite struct LongProgramTests {
    let loop = VirtualLoop(epoch: WallTime(secondsSince1970: 1_800_000_000))
    let yaml = { (id: String) in
        """
        mode: interval
        mqtt: {host: h, client_id: \(id), group: gym}
        interval:
          lead_in: 60s
          programs:
            - {name: L, kind: intervals, work: 99h59m, rest: 1m, rounds: 24}
        """
    }

    @Test func pausedNearItsEndItComesBackAfterARestartAndTheGroupStaysTogether() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tock-long-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let statePath = dir.appendingPathComponent("state.json").path
        // Started, saved, and the saved start moved back to 100 days less
        // 4 s ago (ticking 100 days through would take minutes).
        let first = try TestBox(yaml("a"), loop: loop, statePath: statePath)
        loop.advance(by: .seconds(1))
        first.shell.action(.pressed(.start))
        loop.advance(by: .seconds(1))
        first.host.stop()
        let store = StateStore(path: statePath, log: Logger(label: "test"))
        var saved = try #require(store.load())
        guard case .interval(var program) = saved.count.program, case .running(let since, let before) = program.phase else {
            Issue.record("saved \(saved.count.program)"); return
        }
        program.phase = .running(since: since - (TimeBounds.longest - .seconds(5)).nanoseconds, before: before)
        saved.count.program = .interval(program)
        store.save(saved)
        let broker = VirtualBroker(loop: loop)
        let a = try TestBox(yaml("a"), loop: loop, link: broker.link("a"), statePath: statePath)
        let b = try TestBox(yaml("b"), loop: loop, link: broker.link("b"))
        loop.advance(by: .seconds(1))
        #expect(a.state == "running")
        a.shell.action(.pressed(.stop))
        loop.advance(by: .seconds(1))
        // The group message carries 100 days less 2 s of elapsed time.
        #expect(a.state == "paused" && b.state == "paused")  // the group did not split
        #expect(a.shell.progress().remaining == b.shell.progress().remaining)
        let remaining = try #require(a.shell.progress().remaining)
        #expect(remaining > .zero && remaining < .seconds(5))
        a.host.stop()
        // A restart takes the saved state: paused where it was.
        let again = try TestBox(yaml("a"), loop: loop, statePath: statePath)
        #expect(again.state == "paused")
        #expect(again.shell.progress().remaining == remaining)
        again.shell.action(.pressed(.start))
        loop.advance(by: .seconds(5))
        #expect(again.state != "paused" && again.state != "running")  // it reached its end
        withExtendedLifetime(b) {}
    }
}

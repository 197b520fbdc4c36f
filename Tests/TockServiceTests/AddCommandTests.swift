import Foundation
import Glibc
import Testing
import TockJSON

/// `tock add` against the real service: the time a paused count has left grows
/// and shrinks by what is asked, `-- -1m` takes time away, and a refusal
/// exits 1 with the box's reason and changes nothing.
@Suite(.serialized) struct AddCommandTests {
    func remaining(_ svc: ServiceProcessTests.Service) throws -> Int64? {
        let r = try runTock(["status", "--json", "--socket", svc.socket])
        return try JSON.object(Array(r.stdout.utf8))["remaining_ms"]?.int64
    }

    @Test func addAndTakeAwayReachTheServiceAndARefusalSaysWhy() throws {
        let svc = try ServiceProcessTests.Service()
        try svc.start()
        defer { svc.kill(SIGTERM) }
        let ready = try runTock(["add", "2m", "--socket", svc.socket])
        #expect(ready.status == 1 && ready.stderr.contains("nothing is counting"), "\(ready.status) \(ready.stdout) \(ready.stderr)")
        // Paused, so that what is left does not move between the reads.
        #expect(try runTock(["start", "--socket", svc.socket]).status == 0)
        #expect(try runTock(["stop", "--socket", svc.socket]).status == 0)
        let before = try #require(try remaining(svc))
        let added = try runTock(["add", "2m", "--socket", svc.socket])
        #expect(added.status == 0, "\(added.stderr)")
        let after = try #require(try remaining(svc))
        #expect(after - before == 120_000, "\(before) → \(after)")
        let taken = try runTock(["add", "--socket", svc.socket, "--", "-1m", "t1"])
        #expect(taken.status == 0, "\(taken.stderr)")
        let last = try #require(try remaining(svc))
        #expect(after - last == 60_000, "\(after) → \(last)")
        let none = try runTock(["add", "1m", "EGG", "--socket", svc.socket])
        #expect(none.status == 1 && none.stderr.contains("no timer named EGG"), "\(none.stderr)")
        let bad = try runTock(["add", "soon", "--socket", svc.socket])
        #expect(bad.status == 64 && bad.stderr.contains("not a duration"), "\(bad.status) \(bad.stderr)")
    }
}

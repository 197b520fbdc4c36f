import Foundation
import Testing
import TockCore
import TockLinux
import TockLoop
@testable import TockHost

/// `{"cmd":"watch","fps":N}` on the control socket, on virtual time: a
/// running stopwatch changes its display 100 times a second; a capped
/// watcher gets at most N of them a second, always the newest, and every
/// change of state at once, beside an uncapped watcher on the same box.
@Suite struct WatchRateTests {
    let loop = VirtualLoop(epoch: WallTime(secondsSince1970: 1_800_000_000))

    final class Watcher {
        let c: UnixConnection
        var text = ""
        init(_ path: String, _ request: String) throws {
            c = try UnixConnection.connect(to: path)
            try c.writeAll(Array(request.utf8 + [10]))
        }
        /// The event lines that came since the last call (the status excluded).
        func events() -> [[String: Any]] {
            while (try? c.waitForInput(milliseconds: 0)) == true, let chunk = try? c.read(), !chunk.isEmpty { text += String(decoding: chunk, as: UTF8.self) }
            let lines = text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
            text = text.hasSuffix("\n") ? "" : String(lines.last ?? "")
            return (text.isEmpty ? lines : lines.dropLast()).map(reply).filter { $0["ok"] == nil }
        }
    }

    func box() throws -> (TestBox, String) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tock-fps-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent("s").path
        return (try TestBox("mode: stopwatch\nswitch: up", loop: loop, control: try UnixListener(path: path)), path)
    }

    @Test func aCappedWatcherGetsTheNewestDisplayAtMostNTimesASecondAndEveryStateAtOnce() throws {
        let (box, path) = try box()
        let all = try Watcher(path, #"{"cmd":"watch"}"#)
        let capped = try Watcher(path, #"{"cmd":"watch","fps":10}"#)
        loop.advance(by: .milliseconds(1))
        _ = (all.events(), capped.events())
        box.shell.action(.pressed(.start))
        loop.advance(by: .milliseconds(1))
        let started = capped.events()
        #expect(started.first?["state"] as? String == "running")
        // 10 s of hundredths, read each second (the socket's buffer holds a second's worth).
        var allCount = 0, cappedCount = 0
        var lastAll = "", lastCapped = ""
        for _ in 0..<10 {
            loop.advance(by: .seconds(1))
            let a = all.events(), c = capped.events()
            allCount += a.count
            cappedCount += c.count
            lastAll = a.last?["display"] as? String ?? lastAll
            lastCapped = c.last?["display"] as? String ?? lastCapped
            #expect(c.allSatisfy { $0["segments"] != nil })
        }
        #expect(allCount >= 900)
        #expect((95...101).contains(cappedCount), "capped watcher got \(cappedCount) events in 10 s")
        // No held change left behind: 100 ms after the last, both show the same.
        loop.advance(by: .milliseconds(100))
        lastCapped = capped.events().last?["display"] as? String ?? lastCapped
        lastAll = all.events().last?["display"] as? String ?? lastAll
        // The stopwatch went on for 100 ms more on both, so compare after stopping.
        box.shell.action(.pressed(.stop))
        loop.advance(by: .milliseconds(1))
        let stopA = all.events(), stopC = capped.events()
        // The stop comes at once, with the display it froze at, to both.
        #expect(stopC.contains { $0["state"] as? String == "paused" })
        let frozen = box.shell.frame?.text
        #expect((stopC.last(where: { $0["display"] != nil })?["display"] as? String ?? lastCapped) == frozen)
        #expect((stopA.last(where: { $0["display"] != nil })?["display"] as? String ?? lastAll) == frozen)
        // Paused, the display blinks: the frozen value and blank, nothing else.
        loop.advance(by: .seconds(2))
        let blink = capped.events()
        #expect(!blink.isEmpty && blink.count <= 20 && blink.allSatisfy { [frozen, "    "].contains($0["display"] as? String) })
        all.c.close()
        capped.c.close()
        box.host.stop()
    }

    @Test func aHeldChangeIsSentWhenItsTurnComesThoughNothingFollows() throws {
        let (box, path) = try box()
        let capped = try Watcher(path, #"{"cmd":"watch","fps":1}"#)
        loop.advance(by: .milliseconds(1))
        _ = capped.events()
        box.shell.action(.pressed(.start))
        loop.advance(by: .milliseconds(1))
        _ = capped.events()
        // 300 ms: 30 display changes, all held (one a second at most).
        loop.advance(by: .milliseconds(300))
        #expect(capped.events().isEmpty)
        // The count stops by a press whose event carries the held display with it.
        box.shell.action(.pressed(.stop))
        loop.advance(by: .milliseconds(1))
        let e = capped.events()
        #expect(e.count == 1 && e.first?["state"] as? String == "paused" && e.first?["display"] as? String == box.shell.frame?.text)
        // Started again: the state at once, then one display change a
        // second, sent by the cap's timer though nothing else happens.
        box.shell.action(.pressed(.start))
        loop.advance(by: .milliseconds(1001))
        var got = capped.events()
        #expect(got.contains { $0["state"] as? String == "running" })
        #expect(got.filter { $0["state"] == nil }.count <= 1)
        loop.advance(by: .seconds(2))
        got = capped.events()
        #expect((2...3).contains(got.count), "\(got.count) events in 2 s at 1 fps")
        box.host.stop()
    }

    @Test func theCapIsAWholeNumberFrom1To100() throws {
        let (box, path) = try box()
        for bad in [#"{"cmd":"watch","fps":0}"#, #"{"cmd":"watch","fps":101}"#, #"{"cmd":"watch","fps":"10"}"#, #"{"cmd":"watch","fps":2.5}"#] {
            let c = try UnixConnection.connect(to: path)
            try c.writeAll(Array(bad.utf8 + [10]))
            loop.advance(by: .milliseconds(1))
            var text = ""
            while (try? c.waitForInput(milliseconds: 0)) == true, let chunk = try? c.read(), !chunk.isEmpty { text += String(decoding: chunk, as: UTF8.self) }
            #expect(reply(String(text.split(separator: "\n").first ?? ""))["error"] as? String == "watch: \"fps\" is a whole number from 1 to 100", "\(bad)")
            c.close()
        }
        box.host.stop()
    }
}

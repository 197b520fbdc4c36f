import Testing
import TockCore
import TockLinux
import TockLoop

/// The program's read-only pages let go: at once, and once a minute on a
/// loop until stopped.
@Suite struct ImagePagesTests {
    func fileBacked() throws -> Int {
        let status = String(decoding: try #require(try DurableFile.read("/proc/self/status")), as: UTF8.self)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("RssFile:") })
        return try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
    }

    /// This test process has run code from all over its image by now; let
    /// go, its file-backed resident set shrinks (it maps back only what it
    /// runs next).
    @Test func releasingShrinksTheFileBackedResidentSet() throws {
        let before = try fileBacked()
        let released = try #require(ImagePages.releaseStartupPages(), "madvise(2) refused a segment")
        let after = try fileBacked()
        #expect(released > 0)
        #expect(after < before, "RssFile \(before) kB before, \(after) kB after")
    }

    @Test func theTrimComesOnceAMinuteUntilStopped() {
        let loop = VirtualLoop(epoch: WallTime(secondsSince1970: 1_800_000_000))
        let trim = ImagePages.Trim(loop: loop)
        loop.advance(by: ImagePages.every - .milliseconds(1))
        #expect(loop.timers.fired == 0)
        loop.advance(by: .milliseconds(1))
        #expect(loop.timers.fired == 1)
        loop.advance(by: ImagePages.every)
        #expect(loop.timers.fired == 2)
        trim.stop()
        loop.advance(by: ImagePages.every * 3)
        #expect(loop.timers.fired == 2)
    }
}

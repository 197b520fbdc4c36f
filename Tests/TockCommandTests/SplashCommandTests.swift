import ArgumentParser
import Glibc
import Testing
import TockLinux
@testable import tock

/// `tock splash` as the image's unit runs it, on the mock board: its exit
/// status is what the unit's log and the docs say.
@Suite struct SplashCommandTests {
    @Test func mockBackendShowsAndExitsZero() throws {
        let parsed = try Tock.parseAsRoot(["splash", "--backend", "mock"])
        var splash = try #require(parsed as? Splash)
        try splash.run()
    }

    @Test func noChipIsExitOne() throws {
        var splash = try #require(try Tock.parseAsRoot(["splash", "--chips", "/nonexistent-chips"]) as? Splash)
        #expect(throws: ExitCode(1)) { try splash.run() }
    }

    @Test func aConfigurationWithAMistakeIsExitTwo() throws {
        let path = "/tmp/tock-splash-test-\(getpid()).yaml"
        #expect(FileSystem.create(path, Array("display:\n  brightness: 9\n".utf8), mode: 0o600))
        defer { FileSystem.remove(path) }
        var splash = try #require(try Tock.parseAsRoot(["splash", "--config", path]) as? Splash)
        #expect(throws: ExitCode(2)) { try splash.run() }
    }
}

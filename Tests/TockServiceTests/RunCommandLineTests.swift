import Foundation
import Testing

/// `tock run` is parsed by Run's own arguments alone when they are right;
/// anything else goes through the whole command tree as before, so help
/// and mistakes still name `tock run` and exit as they did.
@Suite struct RunCommandLineTests {
    @Test func helpNamesTockRun() throws {
        let r = try runTock(["run", "--help"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("USAGE: tock run"), "\(r.stdout)")
        #expect(r.stdout.contains("--mock-input"))
    }

    @Test func anUnknownOptionIsAMistakeOfTockRun() throws {
        let r = try runTock(["run", "--no-such-option"])
        #expect(r.status == 64)
        #expect(r.stderr.contains("Unknown option '--no-such-option'"), "\(r.stderr)")
        #expect(r.stderr.contains("Usage: tock run"), "\(r.stderr)")
    }

    @Test func runsValidationStillRefuses() throws {
        let r = try runTock(["run", "--mock-input", "/nonexistent", "--backend", "gpiod"])
        #expect(r.status == 64)
        #expect(r.stderr.contains("--mock-input drives mock lines: use it with --backend mock"), "\(r.stderr)")
        #expect(r.stderr.contains("Usage: tock run"), "\(r.stderr)")
    }

    @Test func aBadBackendNamesItsChoices() throws {
        let r = try runTock(["run", "--backend", "serial"])
        #expect(r.status == 64)
        #expect(r.stderr.contains("'serial'"), "\(r.stderr)")
        #expect(r.stderr.contains("gpiod") && r.stderr.contains("mock"), "\(r.stderr)")
    }

    @Test func aCompletionScriptRequestGoesToTheWholeTreeAsBefore() throws {
        let r = try runTock(["run", "--generate-completion-script", "bash"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("__tock_offer_flags_options()"), "\(r.stdout.prefix(200))")
    }
}

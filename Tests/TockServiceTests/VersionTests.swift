import Foundation
import Testing
import TockService

@Suite struct VersionTests {
    /// `tock --version` and the package's version are one release.
    @Test func theBinaryNamesThePackagesRelease() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let file = try String(contentsOf: root.appendingPathComponent("deploy/VERSION"), encoding: .utf8)
        #expect(file.trimmingCharacters(in: .whitespacesAndNewlines) == TockVersion.string)
    }
}

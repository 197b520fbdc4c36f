import Foundation
import Testing
@testable import TockSimulator
import TockCore

/// The display pictures in README.md are drawn from the renderer's segment
/// bits; this fails when code and documentation disagree.
@Suite struct ReadmeTests {
    static let readme = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("README.md")

    @Test func everyDisplayPictureMatchesWhatTheRendererDraws() throws {
        let text = try String(contentsOf: Self.readme, encoding: .utf8)
        let lines = text.components(separatedBy: "\n")
        var checked = 0
        for (i, line) in lines.enumerated() where line.hasPrefix("<!-- render ") {
            // <!-- render DIGITS "TEXT" -->
            let parts = line.dropFirst("<!-- render ".count).split(separator: " ", maxSplits: 1)
            let digits = Int(parts[0])!
            let quoted = parts[1].dropLast(" -->".count)
            let shown = String(quoted.dropFirst().dropLast())
            #expect(lines[i + 1] == "```text", "line \(i + 2)")
            let block = Array(lines[(i + 2)...].prefix { $0 != "```" })
            let want = BigDigits.lines(for: Frame(text: shown, digits: digits))
            #expect(block == want, "README.md line \(i + 1): the picture of \"\(shown)\" is stale; `tock render --digits \(digits) \"\(shown)\"` draws:\n\(want.joined(separator: "\n"))")
            checked += 1
        }
        #expect(checked >= 8)
    }
}

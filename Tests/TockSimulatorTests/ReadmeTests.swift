import Foundation
import Testing
@testable import TockSimulator
import TockCore

/// The display pictures in README.md and docs/*.md are drawn from the
/// renderer's segment bits; this fails when code and documentation disagree.
@Suite struct ReadmeTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// README.md, then every docs/*.md by name, as paths from the repository root.
    static func documents() throws -> [String] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.sorted()
        return ["README.md"] + docs.map { "docs/" + $0 }
    }

    @Test func everyDisplayPictureMatchesWhatTheRendererDraws() throws {
        var checked = 0
        for name in try Self.documents() {
            let text = try String(contentsOf: Self.root.appendingPathComponent(name), encoding: .utf8)
            let lines = text.components(separatedBy: "\n")
            for (i, line) in lines.enumerated() where line.hasPrefix("<!-- render ") {
                // <!-- render DIGITS "TEXT" -->
                let parts = line.dropFirst("<!-- render ".count).split(separator: " ", maxSplits: 1)
                let digits = Int(parts[0])!
                let quoted = parts[1].dropLast(" -->".count)
                let shown = String(quoted.dropFirst().dropLast())
                #expect(lines[i + 1] == "```text", "\(name) line \(i + 2)")
                let block = Array(lines[(i + 2)...].prefix { $0 != "```" })
                let want = BigDigits.lines(for: Frame(text: shown, digits: digits))
                #expect(block == want, "\(name) line \(i + 1): the picture of \"\(shown)\" is stale; `tock render --digits \(digits) \"\(shown)\"` draws:\n\(want.joined(separator: "\n"))")
                checked += 1
            }
        }
        #expect(checked >= 8, "\(checked) pictures in README.md and docs/*.md")
    }
}

import Foundation
import Testing

/// Every command of `tock` and `tock-web` (one program, Sources/tock) names itself: without `commandName`,
/// swift-argument-parser derives the name with `String(describing:)`,
/// whose protocol-conformance scan over the whole static binary was more
/// than half of the instructions of every `tock` start (`tock run`'s too).
@Suite struct CommandNameTests {
    @Test func everyCommandConfigurationNamesItsCommand() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        var unnamed: [String] = []
        var seen = 0
        let files = try ["Sources/tock"].map(root.appendingPathComponent).flatMap { dir in
            try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".swift") }
                .map { dir.appendingPathComponent($0) }
        }
        for url in files {
            let file = url.lastPathComponent
            let text = try String(contentsOf: url, encoding: .utf8)
            var rest = text[...]
            while let r = rest.range(of: "CommandConfiguration(") {
                seen += 1
                let head = rest[r.upperBound...].prefix(120)
                if !head.drop(while: { $0 == " " || $0 == "\n" }).hasPrefix("commandName:") {
                    unnamed.append("\(file): \(head.prefix(40))")
                }
                rest = rest[r.upperBound...]
            }
        }
        #expect(seen >= 20)
        #expect(unnamed == [])
    }
}

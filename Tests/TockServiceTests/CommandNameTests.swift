import Foundation
import Testing

/// Every command of the `tock` CLI names itself: without `commandName`,
/// swift-argument-parser derives the name with `String(describing:)`,
/// whose protocol-conformance scan over the whole static binary was more
/// than half of the instructions of every `tock` start (`tock run`'s too).
@Suite struct CommandNameTests {
    @Test func everyCommandConfigurationNamesItsCommand() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let dir = root.appendingPathComponent("Sources/tock")
        var unnamed: [String] = []
        var seen = 0
        for file in try FileManager.default.contentsOfDirectory(atPath: dir.path) where file.hasSuffix(".swift") {
            let text = try String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8)
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

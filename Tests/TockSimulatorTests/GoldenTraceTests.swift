import Foundation
import Testing
@testable import TockSimulator
import TockConfig
import TockCore

/// The scripted simulator against the traces in Tests/golden, byte for
/// byte: the whole path from a scripted edge to the trace, in every mode.
@Suite struct GoldenTraceTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("golden")

    static var scenarios: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? [])
            .filter { FileManager.default.fileExists(atPath: root.appendingPathComponent("\($0)/trace.jsonl").path) }
            .sorted()
    }

    @Test func thereAreScenariosInEveryMode() {
        #expect(Self.scenarios.count >= 6, "Tests/golden holds \(Self.scenarios)")
    }

    @Test(arguments: scenarios) func theTraceIsByteIdentical(_ name: String) throws {
        try check(name)
    }

    /// The mock panel wired as the other boxes are (buttons to 3.3 V with
    /// pull-downs, or to GND with an external pull-up): the board's wires
    /// carry other levels, the reader reads the same presses, and the trace
    /// is the same byte for byte.
    @Test(arguments: scenarios) func theTraceIsTheSameWiredOtherwise(_ name: String) throws {
        try check(name, pins: "{active_low: false, bias: pull-down}")
        try check(name, pins: "{active_low: true, bias: disabled}")
    }

    func check(_ name: String, pins: String? = nil) throws {
        let dir = Self.root.appendingPathComponent(name)
        func read(_ file: String) throws -> String { try String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8) }
        let yaml = try read("config.yaml") + (pins.map { "\npins: \($0)\n" } ?? "")
        let config = try Configuration.parse(yaml: yaml, file: "\(name)/config.yaml")
        let script = try Script.parse(try read("script"), file: "\(name)/script")
        let epoch = try CalendarText.parse(try read("epoch").trimmingCharacters(in: .whitespacesAndNewlines))
        var out = ""
        ScriptedSimulation(config: config, script: script, epoch: epoch, trace: { out += $0 + "\n" }).run()
        let want = try read("trace.jsonl")
        guard out != want else { return }
        let got = out.split(separator: "\n", omittingEmptySubsequences: false)
        let wanted = want.split(separator: "\n", omittingEmptySubsequences: false)
        let first = zip(got, wanted).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(got.count, wanted.count)
        Issue.record("Tests/golden/\(name)/trace.jsonl\(pins.map { " (pins: \($0))" } ?? "") differs first at line \(first + 1): got \(first < got.count ? String(got[first]) : "end of trace"), want \(first < wanted.count ? String(wanted[first]) : "end of trace") (Tests/golden/README.md says how to rewrite it after a deliberate change)")
    }
}

import TockControl
import TockCore
@testable import TockWeb
import XCTest

/// The page's script compares the status with the core's words only
/// through `STATE`, `POSITION`, `MODE` and `UPDATE`, made from the enums.
final class PageWordsTests: XCTestCase {
    let groups: [String: [String]] = [
        "STATE": StateName.allCases.map(\.rawValue),
        "POSITION": SwitchPosition.allCases.map(\.rawValue),
        "MODE": Settings.Mode.allCases.map(\.rawValue),
        "UPDATE": UpdateCheck.Result.allCases.map(\.rawValue),
    ]

    func matches(_ pattern: String, in text: String) throws -> [[String]] {
        let re = try Regex(pattern)
        return text.matches(of: re).map { m in m.output.map { $0.substring.map(String.init) ?? "" } }
    }

    func testEveryWordTheScriptNamesIsACaseOfTheCore() throws {
        for (name, words) in groups {
            let line = try XCTUnwrap(Page.js.split(separator: "\n").first { $0.hasPrefix("const \(name) = ") }, name)
            for w in words { XCTAssertTrue(line.contains("\(w): \"\(w)\""), "\(name).\(w)") }
        }
        let used = try matches(#"\b(STATE|POSITION|MODE|UPDATE)\.([A-Za-z_]+)"#, in: Page.js)
        XCTAssertGreaterThan(used.count, 15, "the script's comparisons go through the groups")
        for m in used {
            XCTAssertTrue(groups[m[1]]?.contains(m[2]) == true, "\(m[1]).\(m[2]) is no case of the core: undefined in the page")
        }
    }

    func testTheScriptComparesWithNoWordOfItsOwn() throws {
        let body = Page.js.split(separator: "\n").filter { !$0.hasPrefix("const ") || !$0.contains("Object.freeze") }.joined(separator: "\n")
        let all = Set(groups.values.joined())
        let compared = try matches(#"[!=]==\s*"([a-z_]+)""#, in: body).map { $0[1] }
        let listed = try matches(#"\[((?:\s*"[a-z_]+",?)+)\]\.includes"#, in: body).flatMap { m in
            try matches(#""([a-z_]+)""#, in: m[1]).map { $0[1] }
        }
        XCTAssertEqual((compared + listed).filter(all.contains), [], "compare with STATE.x, POSITION.x, MODE.x, UPDATE.x")
    }
}

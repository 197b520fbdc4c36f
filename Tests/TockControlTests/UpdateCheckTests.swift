import Foundation
import Testing
@testable import TockControl

/// The update check's file (`UpdateCheck`) read strictly: what the check
/// writes is read back field by field, and every field one step past its
/// bound, of the wrong kind or unknown is refused with what is wrong.
@Suite struct UpdateCheckTests {
    let good = #"{"v":1,"checked":"2026-11-27T03:12:09Z","result":"available","installed":"0.1.0","latest":"1:0.1.1~rc1"}"#

    func parse(_ text: String) throws -> UpdateCheck { try UpdateCheck.parse(Array(text.utf8)) }

    func refusal(_ text: String) -> String? {
        do throws(UpdateCheck.Invalid) { _ = try UpdateCheck.parse(Array(text.utf8)); return nil } catch { return error.description }
    }

    @Test func whatTheCheckWritesIsReadBack() throws {
        let c = try parse(good)
        #expect(c == UpdateCheck(checked: "2026-11-27T03:12:09Z", result: .available, installed: "0.1.0", latest: "1:0.1.1~rc1"))
        let refused = try parse(#"{"v":1,"checked":"2026-11-27T03:12:09Z","result":"refused","installed":"0.1.0","reason":"not signed by the key of Signed-By (/usr/share/keyrings/tock-archive-keyring.pgp): NO_PUBKEY 0C599D"}"#)
        #expect(refused.result == .refused && refused.latest == nil && refused.reason?.hasSuffix("NO_PUBKEY 0C599D") == true)
        // Every result the check writes (deploy/update/tock-update-check).
        for r in UpdateCheck.Result.allCases {
            let latest = r == .available || r == .current ? #","latest":"0.1.1""# : ""
            #expect(try parse(#"{"v":1,"checked":"2026-11-27T03:12:09Z","result":"\#(r.rawValue)"\#(latest)}"#).result == r)
        }
    }

    @Test func everyFieldPastItsBoundIsRefusedSayingWhichAndWhy() {
        func with(_ key: String, _ value: String) -> String {
            good.replacingOccurrences(of: #"}"#, with: #","\#(key)":\#(value)}"#)
        }
        let cases: [(String, String)] = [
            (good + String(repeating: " ", count: 1024 - good.utf8.count + 1), "more than the check's 1024"),
            ("[1]", "not a JSON object"),
            (good.replacingOccurrences(of: #""v":1"#, with: #""v":2"#), #""v" must be 1"#),
            (good.replacingOccurrences(of: #""v":1,"#, with: ""), #""v" must be 1"#),
            (good.replacingOccurrences(of: #""v":1"#, with: #""v":"1""#), #""v" must be 1"#),
            (with("extra", "1"), #"unknown field "extra""#),
            (good.replacingOccurrences(of: "03:12:09Z", with: "03:12:09+00:00"), #""checked" must be a time"#),
            (good.replacingOccurrences(of: "2026-11-27T", with: "2026-11-27 "), #""checked" must be a time"#),
            (good.replacingOccurrences(of: "available", with: "Available"), #""result" must be one of available, current, no_repository"#),
            (good.replacingOccurrences(of: "1:0.1.1~rc1", with: "0." + String(repeating: "1", count: 63)), #""latest" must be a Debian version of at most 64"#),
            (good.replacingOccurrences(of: "1:0.1.1~rc1", with: "0.1 1"), #""latest" must be a Debian version"#),
            (good.replacingOccurrences(of: "1:0.1.1~rc1", with: "a:0.1"), #""latest" must be a Debian version"#),
            (good.replacingOccurrences(of: "1:0.1.1~rc1", with: "v0.1"), #""latest" must be a Debian version"#),
            (good.replacingOccurrences(of: #""0.1.0""#, with: "0.1"), #""installed" must be a Debian version"#),
            (good.replacingOccurrences(of: #","latest":"1:0.1.1~rc1""#, with: ""), #""available" needs "latest""#),
            (with("reason", "\"" + String(repeating: "x", count: 241) + "\""), #""reason" must be one line of at most 240"#),
            (with("reason", #""two\nlines""#), #""reason" must be one line"#),
        ]
        for (text, want) in cases {
            let why = refusal(text)
            #expect(why?.hasPrefix("update-check.json: ") == true && why?.contains(want) == true, "\(text.prefix(80)): \(why ?? "accepted")")
        }
        // One step inside each bound is accepted.
        #expect(refusal(good.replacingOccurrences(of: "1:0.1.1~rc1", with: "0." + String(repeating: "1", count: 62))) == nil)
        #expect(refusal(with("reason", "\"" + String(repeating: "x", count: 240) + "\"")) == nil)
    }

    @Test func debianVersionsAsPolicySaysThem() {
        for v in ["0.1.0", "1:0.1.0", "0.2.0~rc1", "0.1.0+imagetest1", "0.1.0-1", "2.0-1~bpo12+1", "0"] {
            #expect(UpdateCheck.isDebianVersion(v), "\(v)")
        }
        for v in ["", ":0.1", "1:", "x1.0", "0.1.0-", "0.1 0", "0.1/0", "0.1_0", "é1", String(repeating: "1", count: 65)] {
            #expect(!UpdateCheck.isDebianVersion(v), "\(v)")
        }
    }

    @Test func theStatusCarriesItAndReadsItBack() throws {
        var s = BoxStatus(state: .ready, display: "05:00", buzzer: false, mode: .timer)
        s.update = try parse(good)
        let o = s.json
        #expect(o["update"]?["latest"] == "1:0.1.1~rc1")
        #expect(BoxStatus(o)?.update == s.update)
        #expect(BoxStatus(BoxStatus(state: .ready, display: "", buzzer: false, mode: .timer).json)?.update == nil)
    }

    @Test func theRequestThatReadsItAgainCarriesNothing() throws {
        #expect(try ControlRequest.parse(Array(#"{"cmd":"update-checked"}"#.utf8)) == .updateChecked)
        #expect(ControlRequest.updateChecked.line == #"{"cmd":"update-checked"}"#)
        #expect(throws: ControlRequest.Invalid.self) { try ControlRequest.parse(Array(#"{"cmd":"update-checked","latest":"9.9"}"#.utf8)) }
    }
}

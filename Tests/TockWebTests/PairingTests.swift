import Foundation
import TockControl
import TockCore
import TockWeb
import XCTest

/// The pairing guard against a guesser, on injected time: one count of
/// wrong guesses for the whole box, which a new code, another client or a
/// restart of tock-web does not clear.
final class PairingTests: XCTestCase {
    final class Clock: @unchecked Sendable {
        var t = Instant(nanoseconds: 1_700_000_000_000_000_000)
    }

    var dir: String!
    let clock = Clock()

    override func setUp() {
        dir = NSTemporaryDirectory() + "tock-web-pairing-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    /// tock-web as started: the tokens and the guard in `dir`, the code always 4821.
    func start() -> WebApp {
        let clock = clock
        return WebApp(tokens: TokenStore(path: dir + "/tokens.json"), box: { _ in ControlLink.Reply(["ok": true]) },
                      now: { clock.t }, newCode: { "4821" }, pairingFile: PairingFile(path: dir + "/pairing.json"))
    }

    func post(_ app: WebApp, _ path: String, _ body: String = "", from client: String = "a") -> Int {
        app.handle(WebRequest(method: "POST", path: path, headers: ["user-agent": client], body: Array(body.utf8))).status
    }

    /// Guesses (never the right code) an attacker gets in `span` by
    /// `play`, which is asked at each second what to do.
    enum Move { case askCode, guess, wait, restart }

    func guesses(in span: Duration, play: (_ tick: Int, _ sinceCode: Int) -> Move) -> (guesses: Int, codes: Int) {
        var app = start()
        var guesses = 0, codes = 0, sinceCode = Int.max / 2, last = 0
        let end = clock.t + span
        var tick = 0
        while clock.t < end {
            switch play(tick, sinceCode) {
            case .askCode:
                if post(app, "/api/pair/request") == 200 { codes += 1; sinceCode = 0 }
            case .guess:
                let s = post(app, "/api/pair", #"{"code":"0000"}"#, from: "client-\(tick)")
                XCTAssertNotEqual(s, 200)
                // Weighed against the code: a wrong one (403), or the one that locked (the first 429).
                if s == 403 || (s == 429 && last != 429) { guesses += 1 }
                if s == 403 { sinceCode += 1 } else { sinceCode = Int.max / 2 }
                last = s
            case .wait: break
            case .restart: app = start()
            }
            // A quick guesser: ten moves a second.
            clock.t = clock.t + .milliseconds(100)
            tick += 1
        }
        return (guesses, codes)
    }

    /// The attacker who made ~9,800 guesses in 10 minutes: a new code
    /// after every 4 wrong ones, so that no code reached its 5th.
    func testANewCodeAfterEveryFourGuessesGainsNothing() {
        let r = guesses(in: .seconds(600)) { _, sinceCode in sinceCode >= 4 ? .askCode : .guess }
        // 4 + 1 (locked 30 s), then 4 on the third code, and no fourth code before 600 s.
        XCTAssertEqual(r.guesses, 9, "\(r)")
        XCTAssertEqual(r.codes, 3, "\(r)")
    }

    /// One under every limit: 4 guesses per code, and codes 200 s apart
    /// (3 per 10 minutes, never refused).
    func testStayingOneUnderTheLimitsGainsNothing() {
        let r = guesses(in: .seconds(600)) { tick, sinceCode in
            tick % 2000 == 0 ? .askCode : (sinceCode < 4 ? .guess : .wait)
        }
        XCTAssertLessThanOrEqual(r.guesses, 15, "\(r)")
        // One under the lockout: 4 wrong guesses, then waiting for the count to fade. It does not.
        var asked = false
        let patient = guesses(in: .seconds(600)) { tick, sinceCode in
            if sinceCode >= 4 || tick < 2 { defer { asked = true }; return asked && tick % 3000 != 0 ? .wait : .askCode }
            return .guess
        }
        XCTAssertLessThanOrEqual(patient.guesses, 15, "\(patient)")
    }

    /// tock-web killed and started again (Restart=always) in the middle.
    func testARestartKeepsTheCount() {
        let r = guesses(in: .seconds(600)) { tick, sinceCode in
            if tick % 7 == 6 { return .restart }
            return sinceCode >= 4 ? .askCode : .guess
        }
        XCTAssertLessThanOrEqual(r.guesses, 15, "\(r)")
    }

    func testFourWrongThenANewCodeThenOneMoreLocksOut() {
        let app = start()
        XCTAssertEqual(post(app, "/api/pair/request"), 200)
        for _ in 1...4 { XCTAssertEqual(post(app, "/api/pair", #"{"code":"0000"}"#), 403) }
        XCTAssertEqual(post(app, "/api/pair/request"), 200)
        XCTAssertEqual(post(app, "/api/pair", #"{"code":"1111"}"#, from: "someone else"), 429)
        XCTAssertEqual(post(app, "/api/pair/request"), 429, "no code while locked")
        // The lock is on disk: another tock-web process keeps it.
        XCTAssertEqual(post(start(), "/api/pair", #"{"code":"4821"}"#), 429)
        clock.t = clock.t + Pairing.lockout
        let again = start()
        XCTAssertEqual(post(again, "/api/pair/request"), 200)
        XCTAssertEqual(post(again, "/api/pair", #"{"code":"4821"}"#), 200)
    }

    /// Guesses refused while locked are answered by tock-web alone: the
    /// appliance hears the code come down once, not once per guess.
    func testGuessesWhileLockedNeverReachTheAppliance() {
        final class Count: @unchecked Sendable { var n = 0 }
        let count = Count(), clock = clock
        let app = WebApp(tokens: TokenStore(path: dir + "/tokens.json"), box: { _ in count.n += 1; return ControlLink.Reply(["ok": true]) },
                         now: { clock.t }, newCode: { "4821" }, pairingFile: PairingFile(path: dir + "/pairing.json"))
        XCTAssertEqual(post(app, "/api/pair/request"), 200)
        for _ in 1...5 { _ = post(app, "/api/pair", #"{"code":"0000"}"#) }
        XCTAssertEqual(count.n, 2, "the notice and its end")
        for _ in 1...1000 { XCTAssertEqual(post(app, "/api/pair", #"{"code":"0000"}"#), 429) }
        for _ in 1...1000 { XCTAssertEqual(post(app, "/api/pair/request"), 429) }
        XCTAssertEqual(count.n, 2)
    }

    func testCodesAreLimitedPerWindow() {
        let app = start()
        for _ in 1...Pairing.codesPerWindow { XCTAssertEqual(post(app, "/api/pair/request"), 200) }
        XCTAssertEqual(post(app, "/api/pair/request"), 429)
        XCTAssertEqual(post(start(), "/api/pair/request"), 429, "a restart does not reset the limit")
        clock.t = clock.t + Pairing.codeWindow
        XCTAssertEqual(post(app, "/api/pair/request"), 200)
    }

    func testAnUnreadableGuardLocksRatherThanForgets() throws {
        try Data("{not json".utf8).write(to: URL(fileURLWithPath: dir + "/pairing.json"))
        XCTAssertEqual(post(start(), "/api/pair/request"), 429)
    }

    func testALockoutStretchedByAClockSetBackIsCut() {
        let now = Instant(nanoseconds: 1_000_000_000_000)
        let g = Pairing.restored(Pairing.Guard(rounds: 3, lockedUntil: now + .seconds(86_400)), at: now)
        XCTAssertEqual(g.lockedUntil, now + Pairing.maxLockout)
    }
}

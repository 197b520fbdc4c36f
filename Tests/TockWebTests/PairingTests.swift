import Foundation
import TockControl
import TockCore
import TockJSON
import TockWeb
import XCTest

/// Pairing against a guesser, on injected time: no code counts until
/// Start is held on the box; once one is shown, one count of wrong guesses
/// for the whole box, which a new code, another client or a restart of
/// tock-web does not clear, and which a hold on the box lifts.
final class PairingTests: XCTestCase {
    final class Clock: @unchecked Sendable {
        var t = Instant(nanoseconds: 1_700_000_000_000_000_000)
    }

    /// The appliance as tock-web sees it: it shows the prompt it is asked
    /// for, and says Start was held on it when `hand` says someone at the
    /// box holds Start for every prompt (nobody, by default).
    final class Box: @unchecked Sendable {
        var hand = false
        var requests: [ControlRequest] = []
        var prompt = false, held = false
        func reply(_ r: ControlRequest) -> ControlLink.Reply {
            requests.append(r)
            switch r {
            case .prompt: prompt = true; held = hand
            case .noticeEnd: prompt = false; held = false
            default: break
            }
            return ControlLink.Reply(["ok": true, "state": "ready", "notice": .bool(prompt), "notice_confirmed": .bool(prompt && held)])
        }
    }

    var dir: String!
    let clock = Clock()
    let box = Box()

    override func setUp() {
        dir = NSTemporaryDirectory() + "tock-web-pairing-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    /// tock-web as started: the tokens and the guard in `dir`, the code always 4821.
    func start() -> WebApp {
        let clock = clock, box = box
        return WebApp(tokens: TokenStore(path: dir + "/tokens.json"), box: { box.reply($0) },
                      now: { clock.t }, newCode: { "4821" }, pairingFile: PairingFile(path: dir + "/pairing.json"))
    }

    func post(_ app: WebApp, _ path: String, _ body: String = "", from client: String = "a") -> Int {
        app.handle(WebRequest(method: "POST", path: path, headers: ["user-agent": client], body: Array(body.utf8))).status
    }

    /// Guesses (never the right code) an attacker gets in `span` by
    /// `play`, which is asked at each second what to do.
    enum Move { case askCode, guess, wait, restart }

    /// A quick guesser makes ten moves a second.
    func guesses(in span: Duration, step: Duration = .milliseconds(100), play: (_ tick: Int, _ sinceCode: Int) -> Move) -> (guesses: Int, codes: Int) {
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
            clock.t = clock.t + step
            tick += 1
        }
        return (guesses, codes)
    }

    /// The probe's stranger, on the LAN and nowhere near the box, for a
    /// day: a new code whenever one is given, a guess every other move,
    /// once a second. No guess is ever weighed against a code (on the old
    /// rules: 480 a day, 4.8 %), and no token is given.
    func testAStrangerAloneNeverHasAGuessWeighed() {
        let r = guesses(in: .seconds(86_400), step: .seconds(1)) { tick, _ in tick % 2 == 0 ? .askCode : .guess }
        XCTAssertEqual(r.guesses, 0, "\(r)")
        XCTAssertEqual(try TokenStore(path: dir + "/tokens.json").list().count, 0)
        XCTAssertGreaterThan(r.codes, 100, "codes were asked, and shown as prompts")
    }

    /// The same stranger asking a new code after every 4 guesses, ten
    /// moves a second for 10 minutes (the play that made ~9,800 guesses
    /// before the lockout): nothing weighed either.
    func testANewCodeAfterEveryFourGuessesGainsNothing() {
        let r = guesses(in: .seconds(600)) { _, sinceCode in sinceCode >= 4 ? .askCode : .guess }
        XCTAssertEqual(r.guesses, 0, "\(r)")
    }

    /// Someone at the box holds Start on every prompt (a hand on the box,
    /// or an accomplice): then the guard of before holds, 5 guesses per
    /// code revealed, at most 15 in any 10 minutes.
    func testWithAHandOnTheBoxTheGuardStillHolds() {
        box.hand = true
        let r = guesses(in: .seconds(600)) { _, sinceCode in sinceCode >= 4 ? .askCode : .guess }
        XCTAssertLessThanOrEqual(r.guesses, 15, "\(r)")
        XCTAssertLessThanOrEqual(r.codes, Pairing.codesPerWindow, "\(r)")
        let restarting = guesses(in: .seconds(600)) { tick, sinceCode in
            if tick % 7 == 6 { return .restart }
            return sinceCode >= 4 ? .askCode : .guess
        }
        XCTAssertLessThanOrEqual(restarting.guesses, 15, "\(restarting)")
    }

    /// A guess before the hold is refused and weighed against nothing; the
    /// hold makes the code count; the code lasts its time from then.
    func testACodeCountsOnlyOnceStartIsHeld() {
        let app = start()
        XCTAssertEqual(post(app, "/api/pair/request"), 200)
        XCTAssertEqual(box.requests.last, .prompt(prompt: "HoLd", within: 30, text: "4821", seconds: 120))
        XCTAssertEqual(post(app, "/api/pair", #"{"code":"4821"}"#), 409, "the right code, before the hold")
        XCTAssertEqual(post(app, "/api/pair/request"), 409, "one code at a time: nobody swaps the one about to be shown")
        clock.t = clock.t + .seconds(20)
        box.held = true  // Start held on the box
        XCTAssertEqual(post(app, "/api/pair", #"{"code":"0000"}"#), 403)
        clock.t = clock.t + Pairing.codeLifetime - .seconds(1)
        XCTAssertEqual(post(app, "/api/pair", #"{"code":"4821"}"#), 200)
        XCTAssertEqual(box.requests.last, .noticeEnd)
    }

    func testAPromptNobodyHeldStartOnRunsOut() {
        let app = start()
        XCTAssertEqual(post(app, "/api/pair/request"), 200)
        clock.t = clock.t + Pairing.promptLifetime
        XCTAssertEqual(post(app, "/api/pair", #"{"code":"4821"}"#), 409)
        box.held = true  // too late: tock-web no longer waits for it
        XCTAssertEqual(post(app, "/api/pair", #"{"code":"4821"}"#), 409)
        XCTAssertEqual(post(app, "/api/pair/request"), 200, "a new code may be asked")
    }

    func testAShownCodeRunsOut() {
        let app = start()
        XCTAssertEqual(post(app, "/api/pair/request"), 200)
        box.held = true
        XCTAssertEqual(post(app, "/api/pair", #"{"code":"0000"}"#), 403)
        clock.t = clock.t + Pairing.codeLifetime
        XCTAssertEqual(post(app, "/api/pair", #"{"code":"4821"}"#), 409)
    }

    /// A stranger guessing along while the owner pairs: 5 guesses, then a
    /// lockout that also refuses the owner's right code; the owner asks
    /// again (allowed while locked) and holds Start, which lifts it.
    func testTheOwnersHoldLiftsALockout() {
        let app = start()
        box.hand = true
        XCTAssertEqual(post(app, "/api/pair/request"), 200)
        for _ in 1...4 { XCTAssertEqual(post(app, "/api/pair", #"{"code":"0000"}"#, from: "stranger"), 403) }
        XCTAssertEqual(post(app, "/api/pair", #"{"code":"1111"}"#, from: "stranger"), 429)
        XCTAssertEqual(box.requests.last, .noticeEnd, "the code came down")
        XCTAssertEqual(post(app, "/api/pair", #"{"code":"4821"}"#, from: "owner"), 429)
        // The lock is on disk: another tock-web process keeps it.
        XCTAssertEqual(post(start(), "/api/pair", #"{"code":"4821"}"#), 429)
        XCTAssertEqual(post(app, "/api/pair/request", from: "owner"), 200, "a code may be asked while locked")
        XCTAssertEqual(post(app, "/api/pair", #"{"code":"4821"}"#, from: "owner"), 200, "the hold lifted the lockout")
    }

    /// Rounds of 5 wrong guesses on shown codes lock for 30 s, 60, 120 ...
    /// up to a day, and a right code is refused meanwhile; without a hand
    /// on the box nothing lifts it.
    func testTheLockoutGrowsToADay() {
        let app = start()
        var waits: [Int64] = []
        for _ in 1...14 {
            box.hand = true
            XCTAssertEqual(post(app, "/api/pair/request"), 200)
            XCTAssertEqual(post(app, "/api/pair", #"{"code":"0000"}"#), 403)  // the hold is learnt here, lifting the last lockout
            for _ in 1...4 { _ = post(app, "/api/pair", #"{"code":"0000"}"#) }
            box.hand = false
            let reply = app.handle(WebRequest(method: "POST", path: "/api/pair", body: Array(#"{"code":"4821"}"#.utf8)))
            XCTAssertEqual(reply.status, 429)
            waits.append(Int64(reply.headers.first { $0.0 == "Retry-After" }?.1 ?? "") ?? -1)
            clock.t = clock.t + Pairing.codeWindow  // codes are 3 per 10 minutes
        }
        XCTAssertEqual(waits.prefix(4), [30, 60, 120, 240])
        XCTAssertEqual(waits.last, 86_400)
    }

    /// Guesses with no code out are answered by tock-web alone: the
    /// appliance hears nothing of them, locked or not.
    func testGuessesWithNoCodeOutNeverReachTheAppliance() {
        let app = start()
        for _ in 1...1000 { XCTAssertEqual(post(app, "/api/pair", #"{"code":"0000"}"#), 409) }
        XCTAssertEqual(box.requests, [])
        box.hand = true
        XCTAssertEqual(post(app, "/api/pair/request"), 200)
        for _ in 1...5 { _ = post(app, "/api/pair", #"{"code":"0000"}"#) }
        let heard = box.requests.count
        for _ in 1...1000 { XCTAssertEqual(post(app, "/api/pair", #"{"code":"0000"}"#), 429) }
        XCTAssertEqual(box.requests.count, heard)
    }

    func testCodesAreLimitedPerWindow() {
        let app = start()
        for _ in 1...Pairing.codesPerWindow {
            XCTAssertEqual(post(app, "/api/pair/request"), 200)
            clock.t = clock.t + Pairing.promptLifetime
        }
        XCTAssertEqual(post(app, "/api/pair/request"), 429)
        XCTAssertEqual(post(start(), "/api/pair/request"), 429, "a restart does not reset the limit")
        clock.t = clock.t + Pairing.codeWindow
        XCTAssertEqual(post(app, "/api/pair/request"), 200)
    }

    func testAnUnreadableGuardLocksRatherThanForgets() throws {
        try Data("{not json".utf8).write(to: URL(fileURLWithPath: dir + "/pairing.json"))
        XCTAssertEqual(post(start(), "/api/pair", #"{"code":"0000"}"#), 429)
    }

    func testALockoutStretchedByAClockSetBackIsCut() {
        let now = Instant(nanoseconds: 1_000_000_000_000)
        let g = Pairing.restored(Pairing.Guard(rounds: 3, lockedUntil: now + .seconds(10 * 86_400)), at: now)
        XCTAssertEqual(g.lockedUntil, now + Pairing.maxLockout)
    }
}

import Foundation
import TockControl
import TockCore
import TockJSON
@testable import TockWeb
import XCTest

/// The routes' answers and refusals as values (`WebApp.answer`), and the
/// one place each becomes HTTP (`reply`).
final class WebAnswerTests: XCTestCase {
    var dir: String!
    let box = WebAppTests.FakeBox()
    let clock = WebAppTests.Clock()
    var app: WebApp!

    override func setUp() {
        dir = NSTemporaryDirectory() + "tock-web-answers-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let box = box, clock = clock
        app = WebApp(tokens: TokenStore(path: dir + "/tokens.json"), box: { box.reply($0) }, now: { clock.t }, newCode: { "4821" })
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func answer(_ path: String, _ body: String = "", method: String = "POST", cookie: String? = nil) -> Result<WebAnswer, WebRefusal> {
        let r = WebRequest(method: method, path: path, headers: cookie.map { ["cookie": $0] } ?? [:], body: Array(body.utf8))
        do throws(WebRefusal) { return .success(try app.answer(r)) } catch { return .failure(error) }
    }

    func testPairingAnswersInTypes() throws {
        XCTAssertEqual(answer("/api/pair/request"), .success(.prompted(prompt: Pairing.prompt, within: 30, seconds: 120)))
        XCTAssertEqual(answer("/api/pair/request"), .failure(.codeOut(seconds: 120)), "Start was held: the code is shown for its 120 s")
        XCTAssertEqual(answer("/api/pair", #"{"code":"0000"}"#), .failure(.wrongCode(left: 4)))
        XCTAssertEqual(answer("/api/pair", #"{"code":"#), .failure(.badRequest(#"send {"code":"1234"}: the code the box shows"#)))
        guard case .success(.paired(let entry)) = answer("/api/pair", #"{"code":"4821","name":"phone"}"#) else {
            return XCTFail("the right code pairs")
        }
        XCTAssertEqual(entry.name, "phone")
        let cookie = "tock_token=\(entry.token)"
        XCTAssertEqual(answer("/api/tokens", method: "GET", cookie: cookie), .success(.tokens([entry], current: entry.id)))
        XCTAssertEqual(answer("/api/tokens/nope", method: "DELETE", cookie: cookie), .failure(.notFound("no token nope")))
        XCTAssertEqual(answer("/api/tokens/\(entry.id)", method: "DELETE", cookie: cookie), .success(.revoked(id: entry.id, own: true)))
        XCTAssertEqual(answer("/api/status", method: "GET", cookie: cookie), .failure(.notPaired))
    }

    /// The stranger who asks for a new code each time meets the window's
    /// limit, typed with the seconds to its end.
    func testAskingForANewCodeEachTimeMeetsTheLimit() {
        box.hand = false
        var refusals: [WebRefusal] = []
        for _ in 0..<20 {
            if case .failure(let r) = answer("/api/pair/request") { refusals.append(r) }
            clock.t = clock.t + .seconds(31)
        }
        guard case .tooManyCodes(let s)? = refusals.first(where: { if case .tooManyCodes = $0 { true } else { false } }) else {
            return XCTFail("no limit in 20 requests: \(refusals)")
        }
        XCTAssertGreaterThan(s, 0)
        XCTAssertFalse(refusals.contains { if case .codeOut = $0 { true } else { false } }, "each asked after the last prompt ended")
    }

    func testTheBoxsReplyIsPassedOnTyped() {
        let cookie: String
        guard case .success(.paired(let e)) = { _ = answer("/api/pair/request"); return answer("/api/pair", #"{"code":"4821"}"#) }() else {
            return XCTFail("pairing")
        }
        cookie = "tock_token=\(e.token)"
        box.status = ["ok": true, "state": "running", "display": "04:59", "buzzer": false, "mode": "timer"]
        guard case .success(.box(let reply, let line)) = answer("/api/status", method: "GET", cookie: cookie) else { return XCTFail("status") }
        XCTAssertEqual(reply.status?.state, .running)
        XCTAssertEqual(reply.status?.mode, .timer)
        XCTAssertEqual(ControlReply(line: line), reply, "the line is the box's, as it came")
        XCTAssertEqual(answer("/api/alarm/snooze", cookie: cookie), .failure(.noAlarm(snooze: true)))
        XCTAssertEqual(answer("/api/alarms/0/on", cookie: cookie), .failure(.notFound("no alarm 0: alarms are numbered from 1")))
        XCTAssertEqual(answer("/api/nothing", method: "GET", cookie: cookie), .failure(.notFound("no such request: GET /api/nothing")))
        box.status = ["ok": false, "error": "a count is in progress"]
        guard case .success(.box(let refused, _)) = answer("/api/mode", #"{"mode":"timer"}"#, cookie: cookie) else { return XCTFail("mode") }
        XCTAssertEqual(refused.error, "a count is in progress")
        XCTAssertEqual(WebAnswer.box(refused, line: []).reply.status, 409)
    }

    /// Every refusal becomes one shape: its status, `{"ok":false,"error":…}`
    /// with its sentence, and `Retry-After` exactly when it is a wait.
    func testEveryRefusalIsItsStatusItsSentenceAndAWaitsRetryAfter() throws {
        let all: [WebRefusal] = [
            .notFound("no such page"), .crossSite("cross-site"), .notPaired, .badRequest("send x"), .codeOut(seconds: 12),
            .tooManyCodes(seconds: 600), .lockedOut(seconds: 30), .wrongCode(left: 1), .noCode, .unconfirmed(seconds: 9),
            .noAlarm(snooze: false), .boxUnreachable("the box does not answer"), .full("too many"), .tokenFile("read-only"),
            .unreadable(RequestHead.Refusal(status: 431, reason: "header too large")),
        ]
        for refusal in all {
            let r = refusal.reply
            XCTAssertTrue((400..<600).contains(r.status), "\(refusal)")
            let body = try JSON.object(r.body)
            XCTAssertEqual(body["ok"], .bool(false))
            XCTAssertEqual(body["error"]?.string, refusal.sentence)
            XCTAssertGreaterThan(refusal.sentence.count, 5, "\(refusal)")
            XCTAssertEqual(r.headers.first { $0.0 == "Retry-After" }?.1, refusal.retryAfter.map(String.init), "\(refusal)")
        }
        XCTAssertEqual(WebRefusal.unreadable(RequestHead.Refusal(status: 431, reason: "x")).status, 431)
        XCTAssertEqual(WebRefusal.lockedOut(seconds: 30).status, 429)
        XCTAssertEqual(WebRefusal.notPaired.status, 401)
    }
}

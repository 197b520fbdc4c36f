import Foundation
import TockControl
import TockCore
import TockJSON
@testable import TockWeb
import XCTest

/// Pairing, the rate limit, the token store and the forgery guard, on
/// injected time with a box that records what it was asked.
final class WebAppTests: XCTestCase {
    final class FakeBox: @unchecked Sendable {
        var requests: [ControlRequest] = []
        var status: JSONObject = ["ok": true, "state": "ready"]
        /// Someone at the box holds Start on every prompt (set false: nobody does).
        var hand = true
        func reply(_ r: ControlRequest) -> ControlLink.Reply {
            requests.append(r)
            if case .prompt = r {
                status["notice"] = true
                status["notice_confirmed"] = .bool(hand)
            } else if r == .noticeEnd {
                status["notice"] = nil
                status["notice_confirmed"] = nil
            }
            return ControlLink.Reply(status)
        }
    }

    final class Clock: @unchecked Sendable {
        var t = Instant(nanoseconds: 1_000_000_000)
    }

    var dir: String!
    let box = FakeBox()
    let clock = Clock()
    var app: WebApp!

    override func setUp() {
        dir = NSTemporaryDirectory() + "tock-web-tests-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let box = box, clock = clock
        app = WebApp(tokens: TokenStore(path: dir + "/tokens.json"), box: { box.reply($0) }, now: { clock.t }, newCode: { "4821" })
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func post(_ path: String, _ body: String = "", headers: [String: String] = [:]) -> WebReply {
        app.handle(WebRequest(method: "POST", path: path, headers: headers, body: Array(body.utf8)))
    }

    func pairedCookie() -> String {
        XCTAssertEqual(post("/api/pair/request").status, 200)
        let r = post("/api/pair", #"{"code":"4821","name":"phone"}"#)
        XCTAssertEqual(r.status, 200)
        return "tock_token=" + (r.cookie ?? "")
    }

    func testPairingShowsTheCodeOnTheBoxAndTheRightCodeGivesAStrictHttpOnlyCookie() throws {
        XCTAssertEqual(post("/api/pair/request").status, 200)
        XCTAssertEqual(box.requests, [.prompt(prompt: "HoLd", within: 30, text: "4821", seconds: 120)])
        let r = post("/api/pair", #"{"code":"4821"}"#)
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(box.requests[1], .status, "whether Start was held is the box's to say")
        let header = try XCTUnwrap(r.headers.first { $0.0 == "Set-Cookie" }?.1)
        XCTAssertTrue(header.contains("HttpOnly") && header.contains("SameSite=Strict"), header)
        XCTAssertEqual(box.requests.last, .noticeEnd)
        XCTAssertEqual(try TokenStore(path: dir + "/tokens.json").list().count, 1)
        // The code is used up.
        XCTAssertEqual(post("/api/pair", #"{"code":"4821"}"#).status, 409)
    }

    func testWithoutAHoldOnTheBoxTheRightCodeIsRefusedAndSaysWhatToDo() {
        box.hand = false
        XCTAssertEqual(post("/api/pair/request").status, 200)
        let r = post("/api/pair", #"{"code":"4821"}"#)
        XCTAssertEqual(r.status, 409)
        XCTAssertTrue(String(decoding: r.body, as: UTF8.self).contains("hold its Start button until the code appears"))
    }

    func testWithoutATokenNothingIsDoneAndNothingIsShown() {
        for (m, p) in [("GET", "/api/status"), ("POST", "/api/start"), ("POST", "/api/alarms"), ("GET", "/api/events"), ("GET", "/api/tokens")] {
            XCTAssertEqual(app.handle(WebRequest(method: m, path: p)).status, 401, p)
            XCTAssertEqual(app.handle(WebRequest(method: m, path: p, headers: ["cookie": "tock_token=forged"])).status, 401, p)
        }
        XCTAssertEqual(box.requests, [])
    }

    func testTheCodeRunsOutTwoMinutesAfterTheHold() {
        XCTAssertEqual(post("/api/pair/request").status, 200)
        clock.t = clock.t + .seconds(10)
        XCTAssertEqual(post("/api/pair", #"{"code":"0000"}"#).status, 403)
        clock.t = clock.t + .seconds(120)
        XCTAssertEqual(post("/api/pair", #"{"code":"4821"}"#).status, 409)
    }

    func testWrongCodesAreLimitedAndLockOut() {
        XCTAssertEqual(post("/api/pair/request").status, 200)
        for left in (1...4).reversed() {
            let r = post("/api/pair", #"{"code":"0000"}"#)
            XCTAssertEqual(r.status, 403)
            XCTAssertTrue(String(decoding: r.body, as: UTF8.self).contains("\(left) tr"))
        }
        let locked = post("/api/pair", #"{"code":"0000"}"#)
        XCTAssertEqual(locked.status, 429)
        XCTAssertTrue(String(decoding: locked.body, as: UTF8.self).contains("holding Start"))
        XCTAssertEqual(box.requests.last, .noticeEnd)
        // Locked: even the right code waits 30 s, unless a hand on the box lifts it.
        XCTAssertEqual(post("/api/pair", #"{"code":"4821"}"#).status, 429)
        clock.t = clock.t + .seconds(30)
        XCTAssertEqual(post("/api/pair/request").status, 200)
        XCTAssertEqual(post("/api/pair", #"{"code":"4821"}"#).status, 200)
    }

    func testCrossSiteRequestsAreRefusedBeforeAnythingIsDone() {
        let cookie = pairedCookie()
        box.requests = []
        for headers in [["origin": "http://evil.example", "host": "tock.local:8080"], ["sec-fetch-site": "cross-site"],
                        ["origin": "null", "host": "tock.local"], ["sec-fetch-site": "same-site"]] {
            XCTAssertEqual(post("/api/start", headers: headers.merging(["cookie": cookie]) { a, _ in a }).status, 403, "\(headers)")
        }
        XCTAssertEqual(post("/api/pair/request", headers: ["sec-fetch-site": "cross-site"]).status, 403)
        XCTAssertEqual(box.requests, [])
        let same = ["origin": "http://tock.local:8080", "host": "tock.local:8080", "sec-fetch-site": "same-origin", "cookie": cookie]
        XCTAssertEqual(post("/api/start", headers: same).status, 200)
        XCTAssertEqual(box.requests, [.start])
        // A GET changes nothing, wherever it comes from.
        XCTAssertNil(RequestGuard.crossSite(method: "GET", headers: ["sec-fetch-site": "cross-site"]))
    }

    /// Every mode is an option of the page's select and a request the box
    /// gets typed, with no list of modes here to update.
    func testEveryModeIsAnOptionOfThePageAndReachesTheBoxAsItsCase() {
        let cookie = ["cookie": pairedCookie()]
        for mode in Settings.Mode.allCases {
            XCTAssertTrue(Page.html.contains("<option>\(mode.rawValue)</option>"), mode.rawValue)
            box.requests = []
            XCTAssertEqual(post("/api/mode", #"{"mode":"\#(mode.rawValue)"}"#, headers: cookie).status, 200)
            XCTAssertEqual(box.requests, [.mode(mode)])
        }
        let egg = post("/api/mode", #"{"mode":"egg"}"#, headers: cookie)
        XCTAssertEqual(egg.status, 400)
        XCTAssertTrue(String(decoding: egg.body, as: UTF8.self).contains(Settings.Mode.allCases.map(\.rawValue).joined(separator: ", ")))
    }

    func testRequestsAreTheControlSocketsAndItsRefusalsAreItsWords() {
        let cookie = ["cookie": pairedCookie()]
        box.requests = []
        XCTAssertEqual(post("/api/preset", #"{"duration":"12m30s"}"#, headers: cookie).status, 200)
        XCTAssertEqual(post("/api/mode", #"{"mode":"stopwatch"}"#, headers: cookie).status, 200)
        XCTAssertEqual(post("/api/alarms", #"{"at":"06:45","days":"mon-fri","label":"gym"}"#, headers: cookie).status, 200)
        XCTAssertEqual(post("/api/alarms/2/skip-next", headers: cookie).status, 200)
        XCTAssertEqual(app.handle(WebRequest(method: "DELETE", path: "/api/alarms/1", headers: cookie)).status, 200)
        XCTAssertEqual(box.requests.count, 5)
        XCTAssertEqual(box.requests[0], .set(.seconds(750)))
        XCTAssertEqual(box.requests[1], .mode(.stopwatch))
        XCTAssertEqual(box.requests[3], .alarm(.skipNext(2)))
        XCTAssertEqual(box.requests[4], .alarm(.remove(1)))
        // Bad input: refused with what to fix, nothing sent.
        let bad = post("/api/preset", #"{"duration":"soon"}"#, headers: cookie)
        XCTAssertEqual(bad.status, 400)
        XCTAssertEqual(post("/api/mode", #"{"mode":"x","cmd":"reset"}"#, headers: cookie).status, 400)
        XCTAssertEqual(box.requests.count, 5)
        box.status = ["ok": false, "error": "a count is in progress"]
        XCTAssertEqual(post("/api/mode", #"{"mode":"timer"}"#, headers: cookie).status, 409)
    }

    func testTheSwitchBrightnessNightAndProgramAreTheirControlRequests() {
        let cookie = ["cookie": pairedCookie()]
        box.requests = []
        XCTAssertEqual(post("/api/switch", #"{"position":"up"}"#, headers: cookie).status, 200)
        XCTAssertEqual(post("/api/brightness", #"{"level":3}"#, headers: cookie).status, 200)
        XCTAssertEqual(post("/api/night", #"{"from":"22:00","to":"07:00","brightness":1}"#, headers: cookie).status, 200)
        XCTAssertEqual(post("/api/night", #"{"off":true}"#, headers: cookie).status, 200)
        XCTAssertEqual(post("/api/program", #"{"name":"tAbA"}"#, headers: cookie).status, 200)
        XCTAssertEqual(box.requests, [.flip(.up), .brightness(3), .night(.on(from: 79_200, to: 25_200, brightness: 1)), .night(.off), .program("tAbA")])
        // Extreme numbers, wrong types, a missing value, a smuggled command: 400, naming what to fix, nothing sent.
        for (path, body) in [("/api/switch", #"{"position":"sideways"}"#), ("/api/switch", ""), ("/api/switch", #"{"position":true}"#),
                             ("/api/brightness", #"{"level":8}"#), ("/api/brightness", #"{"level":-1}"#), ("/api/brightness", #"{"level":1e308}"#),
                             ("/api/brightness", #"{"level":"7"}"#), ("/api/brightness", "{}"), ("/api/brightness", "[3]"),
                             ("/api/brightness", #"{"level":3,"cmd":"reset"}"#),
                             ("/api/night", "{}"), ("/api/night", #"{"from":"22:00","to":"22:00","brightness":1}"#),
                             ("/api/night", #"{"from":"25:00","to":"07:00","brightness":1}"#), ("/api/night", #"{"off":false}"#),
                             ("/api/night", #"{"from":"22:00","to":"07:00","brightness":99999999999999999999}"#),
                             // The socket takes part of a schedule as a change; the page's API sets it whole.
                             ("/api/night", #"{"from":"23:00"}"#), ("/api/night", #"{"from":"23:00","to":"06:00"}"#),
                             ("/api/night", #"{"brightness":2}"#),
                             ("/api/program", "{}"), ("/api/program", #"{"name":""}"#), ("/api/program", #"{"name":"\#(String(repeating: "x", count: 17))"}"#)] {
            let r = post(path, body, headers: cookie)
            XCTAssertEqual(r.status, 400, "\(path) \(body)")
            let error = (try? JSONSerialization.jsonObject(with: Data(r.body)) as? [String: Any])?["error"] as? String ?? ""
            XCTAssertGreaterThan(error.count, 10, "\(path) \(body)")
        }
        XCTAssertEqual(box.requests.count, 5)
        // Without a token: nothing.
        XCTAssertEqual(post("/api/switch", #"{"position":"down"}"#).status, 401)
        XCTAssertEqual(box.requests.count, 5)
    }

    func testSnoozeOnlyWhileRinging() {
        let cookie = ["cookie": pairedCookie()]
        box.requests = []
        XCTAssertEqual(post("/api/alarm/snooze", headers: cookie).status, 409)
        box.status = ["ok": true, "state": "ready", "alarm": "ringing 06:45"]
        XCTAssertEqual(post("/api/alarm/snooze", headers: cookie).status, 200)
        XCTAssertEqual(box.requests.last, .stop)
        box.status = ["ok": true, "state": "ready", "alarm": "snoozed 06:45, rings again in 9m"]
        XCTAssertEqual(post("/api/alarm/dismiss", headers: cookie).status, 200)
        XCTAssertEqual(box.requests.last, .reset)
    }

    func testRevokedTokensAreRefusedFromTheNextRequestWhoeverRevokedThem() throws {
        let cookie = ["cookie": pairedCookie()]
        XCTAssertEqual(app.handle(WebRequest(method: "GET", path: "/api/status", headers: cookie)).status, 200)
        // The command line edits the file.
        let store = TokenStore(path: dir + "/tokens.json")
        let id = try XCTUnwrap(store.list().first?.id)
        XCTAssertTrue(try store.revoke(id: id))
        XCTAssertEqual(app.handle(WebRequest(method: "GET", path: "/api/status", headers: cookie)).status, 401)
        // From the page: revoking itself clears the cookie.
        let again = ["cookie": pairedCookie()]
        let mine = try XCTUnwrap(store.list().first?.id)
        let r = app.handle(WebRequest(method: "DELETE", path: "/api/tokens/\(mine)", headers: again))
        XCTAssertEqual(r.status, 200)
        XCTAssertTrue(r.headers.contains { $0.0 == "Set-Cookie" && $0.1.contains("Max-Age=0") })
        XCTAssertEqual(app.handle(WebRequest(method: "GET", path: "/api/status", headers: again)).status, 401)
    }

    func testTheTokenFileIsTheOwnersAlone() throws {
        _ = pairedCookie()
        let mode = try FileManager.default.attributesOfItem(atPath: dir + "/tokens.json")[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o600)
    }
}

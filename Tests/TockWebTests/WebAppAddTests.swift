import Foundation
import TockControl
import TockCore
import TockJSON
import TockWeb
import XCTest

/// `POST /api/add` (the page's "+1 min") against the real core on virtual
/// time: the control socket's `add` for the box's own count and for an
/// extra timer, the box's refusals in its words, hostile bodies refused
/// before anything reaches the box.
final class WebAppAddTests: XCTestCase {
    typealias CoreBox = WebAppTimerTests.CoreBox
    var dir: String!
    let box = CoreBox()
    var app: WebApp!
    var cookie: [String: String] = [:]

    override func setUp() {
        dir = NSTemporaryDirectory() + "tock-web-add-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let box = box
        app = WebApp(tokens: TokenStore(path: dir + "/tokens.json"), box: { box.reply($0) }, now: { box.t }, newCode: { "4821" })
        XCTAssertEqual(post("/api/pair/request").status, 200)
        let r = post("/api/pair", #"{"code":"4821","name":"phone"}"#)
        cookie = ["cookie": "tock_token=" + (r.cookie ?? "")]
        box.requests = []
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func post(_ path: String, _ body: String = "", headers: [String: String]? = nil) -> WebReply {
        app.handle(WebRequest(method: "POST", path: path, headers: headers ?? cookie, body: Array(body.utf8)))
    }

    func reply(_ r: WebReply) -> JSONObject { (try? JSON.object(r.body, limits: JSON.Limits(maxBytes: 1 << 20, maxDepth: 8))) ?? [:] }
    func error(_ r: WebReply) -> String { reply(r)["error"]?.string ?? "" }
    func remaining(_ r: WebReply) -> Int64? { reply(r)["remaining_ms"]?.int64 }
    func remaining(_ r: WebReply, timer: String) -> Int64? {
        reply(r)["timers"]?.array?.first { $0.object?["name"]?.string == timer }?.object?["remaining_ms"]?.int64
    }

    func testAddIsTheSocketsAddForTheBoxsCountAndAnExtraTimer() {
        // The box's own count (the default preset, 5m): 30 s gone, a minute added.
        XCTAssertEqual(post("/api/start").status, 200)
        box.advance(.seconds(30))
        let own = post("/api/add", #"{"duration":"1m"}"#)
        XCTAssertEqual(own.status, 200, error(own))
        XCTAssertEqual(remaining(own), 330_000, "4m30s left and a minute more")
        // `t1` is the box's own count too; a signed amount.
        XCTAssertEqual(remaining(post("/api/add", #"{"duration":"+90s","name":"t1"}"#)), 420_000)
        // An extra timer, a minute added and one taken away.
        XCTAssertEqual(post("/api/timers", #"{"name":"EGG","duration":"6m"}"#).status, 200)
        box.advance(.seconds(60))
        let egg = post("/api/add", #"{"duration":"1m","name":"EGG"}"#)
        XCTAssertEqual(egg.status, 200, error(egg))
        XCTAssertEqual(remaining(egg, timer: "EGG"), 360_000)
        XCTAssertEqual(remaining(egg), 360_000, "the box's own count went on meanwhile")
        XCTAssertEqual(remaining(post("/api/add", #"{"duration":"-1m","name":"EGG"}"#), timer: "EGG"), 300_000)
        XCTAssertEqual(box.requests, [.start, .add(.seconds(60), name: nil), .add(.seconds(90), name: "t1"),
                                      .timer(.add(name: "EGG", duration: .seconds(360))), .add(.seconds(60), name: "EGG"),
                                      .add(.seconds(-60), name: "EGG")])
    }

    func testTheBoxsRefusalsComeBackIn409WithItsSentenceAndChangeNothing() {
        // Ready: nothing to add to.
        let ready = post("/api/add", #"{"duration":"1m"}"#)
        XCTAssertEqual(ready.status, 409)
        XCTAssertTrue(error(ready).contains("nothing is counting"), error(ready))
        XCTAssertEqual(post("/api/start").status, 200)
        XCTAssertEqual(post("/api/timers", #"{"name":"OVEN","duration":"99h59m"}"#).status, 200)
        XCTAssertEqual(post("/api/timers", #"{"name":"EGG","duration":"6m"}"#).status, 200)
        box.advance(.seconds(10))
        let cases: [(String, String)] = [
            (#"{"duration":"1m","name":"OVEN"}"#, "OVEN has 99h58m50s left; adding 1m would make it more than 99h59m"),
            (#"{"duration":"-6m","name":"EGG"}"#, "EGG has 5m50s left; taking away 6m would leave less than 1s"),
            (#"{"duration":"-5m"}"#, "the count has 4m50s left; taking away 5m would leave less than 1s"),
            (#"{"duration":"2400h"}"#, "would make it more than 99h59m"),
            (#"{"duration":"-0s"}"#, "add needs an amount other than 0"),
            (#"{"duration":"0s","name":"EGG"}"#, "add needs an amount other than 0"),
            (#"{"duration":"1m","name":"NOPE"}"#, "no timer named NOPE (timers: OVEN, EGG)"),
            (#"{"duration":"1m","name":"<b>x</b>"}"#, "no timer named <b>x</b>"),
        ]
        let (main, timers) = (box.machine.program, box.machine.timers)
        for (body, says) in cases {
            let r = post("/api/add", body)
            XCTAssertEqual(r.status, 409, body)
            XCTAssertTrue(error(r).contains(says), "\(body): \(error(r))")
        }
        // A flood at the limit: every further minute refused, nothing moves.
        for _ in 0..<500 { XCTAssertEqual(post("/api/add", #"{"duration":"1m","name":"OVEN"}"#).status, 409) }
        XCTAssertEqual(box.machine.program, main)
        XCTAssertEqual(box.machine.timers, timers)
    }

    func testAStopwatchCountingUpAndAnIntervalProgramRefuse() {
        XCTAssertEqual(post("/api/mode", #"{"mode":"stopwatch"}"#).status, 200)
        XCTAssertEqual(post("/api/switch", #"{"position":"up"}"#).status, 200)
        XCTAssertEqual(post("/api/start").status, 200)
        let up = post("/api/add", #"{"duration":"1m"}"#)
        XCTAssertEqual(up.status, 409)
        XCTAssertTrue(error(up).contains("a stopwatch counting up has no end to add to"), error(up))
        XCTAssertEqual(post("/api/stop").status, 200)
        XCTAssertEqual(post("/api/reset").status, 200)
        let mode = post("/api/mode", #"{"mode":"interval"}"#)
        XCTAssertEqual(mode.status, 200, error(mode))
        XCTAssertEqual(post("/api/start").status, 200)
        let interval = post("/api/add", #"{"duration":"1m"}"#)
        XCTAssertEqual(interval.status, 409)
        XCTAssertTrue(error(interval).contains("an interval program's rounds keep their lengths"), error(interval))
    }

    func testMalformedBodiesGet400NamingWhatToFixAndReachNothing() {
        let bad = [
            "", "{}", "[]", "nonsense", "null", #"{"duration":60}"#, #"{"duration":null}"#, #"{"duration":true}"#, #"{"duration":["1m"]}"#,
            #"{"duration":{"m":1}}"#, #"{"duration":"soon"}"#, #"{"duration":"1m1"}"#, #"{"duration":"--1m"}"#, #"{"duration":"+-1m"}"#,
            #"{"duration":"99999h"}"#, #"{"duration":"99999999999999999999h"}"#, #"{"duration":"-99999h"}"#, #"{"duration":"1e9h"}"#,
            #"{"name":"EGG"}"#, #"{"duration":"1m","name":7}"#, #"{"duration":"1m","name":""}"#, #"{"duration":"1m","name":null}"#,
            #"{"duration":"1m","name":"ABCDEFGHIJKLMNOPQ"}"#, #"{"duration":"1m","name":"\#(String(repeating: "A", count: 2000))"}"#,
            #"{"duration":"\#(String(repeating: "9", count: 2000))h"}"#,
            #"{"duration":"1m","cmd":"reset"}"#, #"{"duration":"1m","op":"cancel"}"#, #"{"duration":"1m","extra":1}"#,
            #"{"duration":"1m","duration":"2m"}"#,
        ]
        for body in bad {
            let r = post("/api/add", body)
            XCTAssertEqual(r.status, 400, String(body.prefix(60)))
            XCTAssertGreaterThan(error(r).count, 10, String(body.prefix(60)))
        }
        XCTAssertEqual(box.requests, [])
        XCTAssertEqual(app.handle(WebRequest(method: "GET", path: "/api/add", headers: cookie)).status, 404)
        XCTAssertEqual(post("/api/add/EGG", #"{"duration":"1m"}"#).status, 404)
        XCTAssertEqual(box.requests, [])
    }

    func testWithoutATokenOrFromAnotherSiteNothingReachesTheBox() {
        let add = #"{"duration":"1m"}"#
        XCTAssertEqual(post("/api/add", add, headers: [:]).status, 401)
        XCTAssertEqual(post("/api/add", add, headers: ["cookie": "tock_token=forged"]).status, 401)
        XCTAssertEqual(post("/api/add", add, headers: ["authorization": "Bearer forged"]).status, 401)
        let forged = cookie.merging(["origin": "http://evil.example", "host": "tock.local:8080"]) { a, _ in a }
        XCTAssertEqual(post("/api/add", add, headers: forged).status, 403)
        XCTAssertEqual(post("/api/add", add, headers: cookie.merging(["sec-fetch-site": "cross-site"]) { a, _ in a }).status, 403)
        XCTAssertEqual(box.requests, [])
    }
}

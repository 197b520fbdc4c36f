import Foundation
import TockControl
import TockCore
import TockJSON
import TockWeb
import XCTest

/// The timers' routes (`/api/timers...`) against the real core on virtual
/// time: what reaches the box, and its refusals in its own words.
final class WebAppTimerTests: XCTestCase {
    /// The core behind a control socket, reduced to what the routes use:
    /// timer requests, `add`, the mode, the switch and the three buttons
    /// applied to a `Machine`; the status's state, `remaining_ms` and
    /// `timers`.
    final class CoreBox: @unchecked Sendable {
        static let epoch = WallTime(secondsSince1970: 1_800_000_000)
        var t = Instant(nanoseconds: 1_000_000_000_000)
        var machine: Machine
        var requests: [ControlRequest] = []

        init() {
            machine = Machine(settings: Settings(), switchPosition: .down, at: Now(monotonic: t, wall: Self.epoch))
            _ = machine.handle(.powerOn, at: now)
        }

        var now: Now { Now(monotonic: t, wall: Self.epoch + (t - Instant(nanoseconds: 1_000_000_000_000))) }

        func advance(_ d: Duration) {
            t = t + d
            _ = machine.handle(.wake, at: now)
        }

        /// A pairing prompt is up, and Start held on it (a hand on the box).
        var held = false

        func reply(_ r: ControlRequest) -> ControlLink.Reply {
            requests.append(r)
            if case .prompt = r { held = true } else if r == .noticeEnd { held = false }
            let input: Machine.Input? = switch r {
            case .timer(.add(let name, let d)): .timer(.add(name: name, duration: d))
            case .timer(.pause(let name)): .timer(.pause(name))
            case .timer(.resume(let name)): .timer(.resume(name))
            case .timer(.cancel(let name)): .timer(.cancel(name))
            case .add(let d, let name): .addTime(d, Machine.countRef(named: name))
            case .mode(let m): .setMode(m)
            case .flip(let p): .remoteSwitch(p)
            case .start: .remotePress(.pressed(.start))
            case .stop: .remotePress(.pressed(.stop))
            case .reset: .remotePress(.pressed(.reset))
            default: nil
            }
            if let input, let refusal = machine.handle(input, at: now).refusal {
                return ControlLink.Reply(["ok": false, "error": .string(refusal.description)])
            }
            let timers = machine.timers.list.map { x -> JSON in
                ["name": .string(x.name), "label": .string(x.label), "state": .string(x.stateName.rawValue), "remaining_ms": .int(x.left(at: t).nanoseconds / 1_000_000)]
            }
            var status: JSONObject = ["ok": true, "state": .string(machine.stateName.rawValue), "timers": .array(timers)]
            if let left = machine.progress(at: now).remaining { status["remaining_ms"] = .int(left.nanoseconds / 1_000_000) }
            if held { (status["notice"], status["notice_confirmed"]) = (true, true) }
            return ControlLink.Reply(status)
        }

        func state(_ name: String) -> String? { machine.timers.named(name)?.stateName.rawValue }
    }

    var dir: String!
    let box = CoreBox()
    var app: WebApp!
    var cookie: [String: String] = [:]

    override func setUp() {
        dir = NSTemporaryDirectory() + "tock-web-timers-\(UUID().uuidString)"
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

    func json(_ r: WebReply) -> [String: Any] { (try? JSONSerialization.jsonObject(with: Data(r.body)) as? [String: Any]) ?? [:] }
    func error(_ r: WebReply) -> String { json(r)["error"] as? String ?? "" }

    func testAddPauseResumeCancelAreTheControlSocketsTimerRequests() {
        let egg = post("/api/timers", #"{"name":"EGG","duration":"6m"}"#)
        XCTAssertEqual(egg.status, 200, error(egg))
        XCTAssertEqual(post("/api/timers", #"{"duration":"10m","name":"RICE"}"#).status, 200)
        box.advance(.seconds(60))
        XCTAssertEqual(post("/api/timers/pause", #"{"name":"EGG"}"#).status, 200)
        box.advance(.seconds(60))
        XCTAssertEqual(post("/api/timers/resume", #"{"name":"EGG"}"#).status, 200)
        XCTAssertEqual(post("/api/timers/cancel", #"{"name":"RICE"}"#).status, 200)
        let list = app.handle(WebRequest(method: "GET", path: "/api/timers", headers: cookie))
        XCTAssertEqual(list.status, 200)
        XCTAssertEqual(box.requests, [.timer(.add(name: "EGG", duration: .seconds(360))), .timer(.add(name: "RICE", duration: .seconds(600))),
                                      .timer(.pause("EGG")), .timer(.resume("EGG")), .timer(.cancel("RICE")), .timer(.list)])
        let timers = json(list)["timers"] as? [[String: Any]] ?? []
        XCTAssertEqual(timers.map { $0["name"] as? String }, ["EGG"])
        // Paused for a minute: 6 min - 1 min counted.
        XCTAssertEqual(timers.first?["remaining_ms"] as? Int, 300_000)
        // It rings at its end, on the box's time, and Stop silences it.
        box.advance(.seconds(300))
        XCTAssertEqual(box.state("EGG"), "ringing")
        XCTAssertEqual(post("/api/stop").status, 200)
        XCTAssertEqual(box.state("EGG"), "done")
    }

    func testTheBoxsRefusalsComeBackIn409WithItsSentenceAndChangeNothing() {
        for name in ["A", "b", "C", "d", "E", "F", "H", "J"] {
            XCTAssertEqual(post("/api/timers", #"{"name":"\#(name)","duration":"1m"}"#).status, 200, name)
        }
        let cases: [(String, String, String)] = [
            ("/api/timers", #"{"name":"L","duration":"1m"}"#, "8 timers are the most a box keeps beside its own count"),
            ("/api/timers", #"{"name":"kale","duration":"1m"}"#, "cannot be drawn on 7 segments"),
            ("/api/timers", #"{"name":"A","duration":"1m"}"#, "a timer named A is running"),
            ("/api/timers", #"{"name":"EGGS5","duration":"1m"}"#, "longer than the display's 4 digits"),
            ("/api/timers", #"{"name":"t1","duration":"1m"}"#, "what the display calls the box's own count"),
            ("/api/timers/pause", #"{"name":"NONE"}"#, "no timer named NONE (timers: A, b, C, d, E, F, H, J)"),
            ("/api/timers/resume", #"{"name":"A"}"#, "A is running; only a paused timer resumes"),
        ]
        let before = box.machine.timers
        for (path, body, says) in cases {
            let r = post(path, body)
            XCTAssertEqual(r.status, 409, body)
            XCTAssertTrue(error(r).contains(says), "\(body): \(error(r))")
        }
        XCTAssertEqual(box.machine.timers, before)
        // One cancelled, the ninth fits.
        XCTAssertEqual(post("/api/timers/cancel", #"{"name":"d"}"#).status, 200)
        XCTAssertEqual(post("/api/timers", #"{"name":"L","duration":"1m"}"#).status, 200)
    }

    func testExtremeButWellFormedValues() {
        // The longest duration and a 16-character name the request allows (too long for 4 digits: the box says so).
        XCTAssertEqual(post("/api/timers", #"{"name":"OVEN","duration":"99h59m"}"#).status, 200)
        XCTAssertEqual(box.machine.timers.named("OVEN")?.duration, .seconds(99 * 3600 + 59 * 60))
        let long = post("/api/timers", #"{"name":"ABCDEFGHIJKLMNOP","duration":"1m"}"#)
        XCTAssertEqual(long.status, 409)
        XCTAssertTrue(error(long).contains("\"ABCDEFGHIJKLMNOP\""), error(long))
        // Over the bound, or under a second: the box's own limits.
        for (duration, says) in [("100h", "99h59m is the longest a timer counts"), ("99h59m1s", "99h59m is the longest a timer counts"),
                                 ("0s", "a timer counts at least 1s")] {
            let r = post("/api/timers", #"{"name":"Pie","duration":"\#(duration)"}"#)
            XCTAssertEqual(r.status, 409, duration)
            XCTAssertTrue(error(r).contains(says), "\(duration): \(error(r))")
        }
        // Quotes, unicode and HTML: carried as the name's text, refused by the display's font, never a smuggled field.
        for name in [#"\"b\""#, "<b>", "é", "🥚", #"A\",\"op\":\"cancel"#, #"\u0000"#] {
            let r = post("/api/timers", #"{"name":"\#(name)","duration":"1m"}"#)
            XCTAssertEqual(r.status, 409, name)
            XCTAssertTrue(error(r).contains("cannot be drawn"), "\(name): \(error(r))")
        }
        XCTAssertEqual(box.machine.timers.list.map(\.name), ["OVEN"])
    }

    func testMalformedBodiesGet400NamingWhatToFixAndReachNothing() {
        let bad: [(String, String)] = [
            ("/api/timers", ""), ("/api/timers", "{}"), ("/api/timers", "[]"), ("/api/timers", "nonsense"), ("/api/timers", #"{"name":"EGG"}"#),
            ("/api/timers", #"{"duration":"6m"}"#), ("/api/timers", #"{"name":"","duration":"6m"}"#), ("/api/timers", #"{"name":7,"duration":"6m"}"#),
            ("/api/timers", #"{"name":"EGG","duration":360}"#), ("/api/timers", #"{"name":"EGG","duration":"soon"}"#),
            ("/api/timers", #"{"name":"EGG","duration":"-6m"}"#),
            ("/api/timers", #"{"name":"EGG","duration":"99999999999999999999h"}"#),
            ("/api/timers", #"{"name":"ABCDEFGHIJKLMNOPQ","duration":"1m"}"#),
            ("/api/timers", #"{"name":"EGG","duration":"6m","op":"cancel"}"#), ("/api/timers", #"{"name":"EGG","duration":"6m","cmd":"reset"}"#),
            ("/api/timers", #"{"name":"EGG","duration":"6m","extra":1}"#), ("/api/timers", #"{"name":"EGG","name":"HAM","duration":"6m"}"#),
            ("/api/timers/pause", ""), ("/api/timers/pause", #"{"name":"EGG","duration":"6m"}"#), ("/api/timers/cancel", #"{"name":null}"#),
            ("/api/timers/resume", #"{"name":["EGG"]}"#),
            ("/api/timers", #"{"name":"\#(String(repeating: "A", count: 2000))","duration":"1m"}"#),
        ]
        for (path, body) in bad {
            let r = post(path, body)
            XCTAssertEqual(r.status, 400, "\(path) \(body.prefix(60))")
            XCTAssertGreaterThan(error(r).count, 10, "\(path) \(body.prefix(60))")
        }
        XCTAssertEqual(box.requests, [])
        XCTAssertEqual(post("/api/timers/stop", #"{"name":"EGG"}"#).status, 404)
        XCTAssertEqual(app.handle(WebRequest(method: "DELETE", path: "/api/timers", headers: cookie)).status, 404)
        XCTAssertEqual(box.requests, [])
    }

    func testWithoutATokenOrFromAnotherSiteNothingReachesTheBox() {
        let add = #"{"name":"EGG","duration":"6m"}"#
        XCTAssertEqual(post("/api/timers", add, headers: [:]).status, 401)
        XCTAssertEqual(post("/api/timers/cancel", #"{"name":"EGG"}"#, headers: ["cookie": "tock_token=forged"]).status, 401)
        XCTAssertEqual(app.handle(WebRequest(method: "GET", path: "/api/timers")).status, 401)
        let forged = cookie.merging(["origin": "http://evil.example", "host": "tock.local:8080"]) { a, _ in a }
        XCTAssertEqual(post("/api/timers", add, headers: forged).status, 403)
        XCTAssertEqual(post("/api/timers/cancel", #"{"name":"EGG"}"#, headers: cookie.merging(["sec-fetch-site": "cross-site"]) { a, _ in a }).status, 403)
        XCTAssertEqual(box.requests, [])
    }
}

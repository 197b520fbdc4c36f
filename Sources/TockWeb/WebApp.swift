import TockLinux
import TockControl
import TockCore
import TockJSON

/// One HTTP request as the routes see it: headers keyed lower case.
public struct WebRequest: Sendable {
    public var method: String
    public var path: String
    public var headers: [String: String]
    public var body: [UInt8]

    public init(method: String, path: String, headers: [String: String] = [:], body: [UInt8] = []) {
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
    }
}

public struct WebReply: Sendable {
    public var status: Int
    public var headers: [(String, String)] = []
    public var body: [UInt8] = []
    /// The live display (Server-Sent Events), left to the server.
    public var events = false

    public init(status: Int, headers: [(String, String)] = [], body: [UInt8] = [], events: Bool = false) {
        self.status = status
        self.headers = headers
        self.body = body
        self.events = events
    }

    static func json(_ status: Int, _ object: JSONObject) -> WebReply {
        WebReply(status: status, headers: [("Content-Type", "application/json"), ("Cache-Control", "no-store")],
                 body: JSON.object(object).bytes())
    }

    /// The cookie's value, if the reply sets one.
    public var cookie: String? {
        headers.first { $0.0 == "Set-Cookie" }.map { String($0.1.prefix { $0 != ";" }.dropFirst(WebApp.cookie.count + 1)) }
    }
}

/// sockets: the box is a function from a control request to its reply,
/// and time is given, so that the rules run in tests without either.
public final class WebApp: WebSite, @unchecked Sendable {
    public static let cookie = "tock_token"
    public typealias Box = @Sendable (ControlRequest) throws -> ControlLink.Reply

    let tokens: TokenStore
    let box: Box
    let now: @Sendable () -> Instant
    let newCode: @Sendable () -> String
    let pairingFile: PairingFile?
    private let lock = Lock()
    private var pairing: Pairing

    /// `now` is the wall clock's time in production: the pairing guard it
    /// stamps is kept in `pairingFile` across restarts (and reboots).
    public init(tokens: TokenStore, box: @escaping Box, now: @escaping @Sendable () -> Instant,
                newCode: @escaping @Sendable () -> String = Pairing.newCode, pairingFile: PairingFile? = nil,
                log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.tokens = tokens
        self.box = box
        self.now = now
        self.newCode = newCode
        self.pairingFile = pairingFile
        self.log = log
        let start = now()
        do {
            pairing = Pairing(guarded: Pairing.restored(try pairingFile?.load() ?? Pairing.Guard(), at: start))
        } catch {
            // Forgetting the count would hand a guesser a fresh start: lock instead.
            log("\(error); pairing locked for \(Pairing.lockout.nanoseconds / 1_000_000_000) s")
            pairing = Pairing(guarded: Pairing.Guard(rounds: 1, lockedUntil: start + Pairing.lockout))
        }
    }

    let log: @Sendable (String) -> Void

    /// Run `change` on the pairing under the lock, and keep the guard on
    /// disk if it changed (still under the lock: two writers never race).
    private func withPairing<T>(_ change: (inout Pairing) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        let before = pairing.guarded
        let result = change(&pairing)
        if pairing.guarded != before, let pairingFile {
            do { try pairingFile.save(pairing.guarded) } catch { log("\(error) (the pairing guard holds until tock-web restarts)") }
        }
        return result
    }

    public func handle(_ r: WebRequest) -> WebReply {
        let parts = r.path.split(separator: "?", maxSplits: 1).first.map { $0.split(separator: "/").map(String.init) } ?? []
        if r.method == "GET", parts.count <= 1, let asset = Page.assets[parts.first ?? ""] { return asset.reply(to: r) }
        do { return try answer(r, parts).reply } catch { return error.reply }
    }

    /// The API's routes: what `r` asks for, answered or refused in types.
    public func answer(_ r: WebRequest) throws(WebRefusal) -> WebAnswer {
        try answer(r, r.path.split(separator: "?", maxSplits: 1).first.map { $0.split(separator: "/").map(String.init) } ?? [])
    }

    private func answer(_ r: WebRequest, _ parts: [String]) throws(WebRefusal) -> WebAnswer {
        guard parts.first == "api" else { throw .notFound("no such page") }
        if let why = RequestGuard.crossSite(method: r.method, headers: r.headers) { throw .crossSite(why) }
        let route = Array(parts.dropFirst())
        switch (r.method, route) {
        case ("POST", ["pair", "request"]): return try requestPairing()
        case ("POST", ["pair"]): return try pair(r)
        default: break
        }
        guard let entry = token(r).flatMap({ tokens.find(token: $0) }) else { throw .notPaired }
        switch (r.method, route) {
        case ("GET", ["status"]), ("GET", ["alarms"]): return try forward(route == ["status"] ? .status : .alarm(.list))
        case ("GET", ["events"]): return .events
        case ("POST", ["start"]): return try forward(.start)
        case ("POST", ["stop"]): return try forward(.stop)
        case ("POST", ["reset"]): return try forward(.reset)
        case ("POST", ["preset"]): return try forward(r, ["cmd": "set"])
        case ("POST", ["mode"]): return try forward(r, ["cmd": "mode"])
        case ("POST", ["program"]): return try forward(r, ["cmd": "program"], needs: ["name"])
        case ("POST", ["switch"]): return try forward(r, ["cmd": "switch"], needs: ["position"])
        case ("POST", ["brightness"]): return try forward(r, ["cmd": "brightness"], needs: ["level"])
        case ("POST", ["night"]): return try forward(r, ["cmd": "night"], needs: ["from", "to", "brightness"])
        case ("POST", ["alarms"]): return try forward(r, ["cmd": "alarm", "op": "add"])
        case ("DELETE", let a) where a.count == 2 && a[0] == "alarms": return try alarm(a[1], "rm")
        case ("POST", let a) where a.count == 3 && a[0] == "alarms" && ["on", "off", "skip-next"].contains(a[2]): return try alarm(a[1], a[2])
        case ("GET", ["timers"]): return try forward(.timer(.list))
        case ("POST", ["timers"]): return try forward(r, ["cmd": "timer", "op": "add"])
        case ("POST", let a) where a.count == 2 && a[0] == "timers" && ["pause", "resume", "cancel"].contains(a[1]):
            return try forward(r, ["cmd": "timer", "op": .string(String(a[1]))])
        case ("POST", ["add"]): return try forward(r, ["cmd": "add"])
        case ("POST", ["alarm", "snooze"]): return try ring(snooze: true)
        case ("POST", ["alarm", "dismiss"]): return try ring(snooze: false)
        case ("GET", ["tokens"]):
            do { return .tokens(try tokens.list(), current: entry.id) } catch { throw .tokenFile("\(error)") }
        case ("DELETE", let a) where a.count == 2 && a[0] == "tokens":
            let gone: Bool
            do { gone = try tokens.revoke(id: a[1]) } catch { throw .tokenFile("\(error)") }
            guard gone else { throw .notFound("no token \(a[1].prefix(20))") }
            return .revoked(id: a[1], own: a[1] == entry.id)
        default: throw .notFound("no such request: \(r.method) \(r.path.prefix(100))")
        }
    }

    /// The status line for a live display's first event (nil when the box does not answer).
    public func statusLine() -> [UInt8]? { (try? box(.status))?.line }

    /// The token from the cookie, or from `Authorization: Bearer` (scripts).
    func token(_ r: WebRequest) -> String? {
        if let c = RequestGuard.cookie(Self.cookie, in: r.headers["cookie"]) { return c }
        if let a = r.headers["authorization"], a.hasPrefix("Bearer ") { return String(a.dropFirst(7)) }
        return nil
    }

    /// Whether `r` carries a valid token (its connection is then a paired one).
    public func isPaired(_ r: WebRequest) -> Bool { token(r).flatMap { tokens.find(token: $0) } != nil }

    static func seconds(_ d: Duration) -> Int { Int(d.nanoseconds / 1_000_000_000) }
    /// Whole seconds from now to `until`, at least 1 (a wait's `Retry-After`).
    static func wait(_ t: Instant, _ until: Instant) -> Int { max(1, Int((until - t).nanoseconds / 1_000_000_000)) }

    private func requestPairing() throws(WebRefusal) -> WebAnswer {
        let code = newCode()
        let t = now()
        let (held, asked) = boxConfirmed(at: t)
        switch withPairing({ $0.learn(boxConfirmed: held, codeAskedAt: asked, at: t); return $0.begin(code: code, at: t) }) {
        case .failure(.busy(let until)): throw .codeOut(seconds: Self.wait(t, until))
        case .failure(.tooManyCodes(let until)): throw .tooManyCodes(seconds: Self.wait(now(), until))
        case .success(let code):
            let ask = ControlRequest.prompt(prompt: Pairing.prompt, within: Self.seconds(Pairing.promptLifetime),
                                            text: code, seconds: Self.seconds(Pairing.codeLifetime))
            let refused: String?
            do { refused = try box(ask).reply.error.map { "the box did not show the prompt: \($0)" } } catch { refused = "\(error)" }
            if let refused {
                withPairing { $0.withdraw(codeAskedAt: t) }
                throw .boxUnreachable(refused)
            }
            return .prompted(prompt: Pairing.prompt, within: Self.seconds(Pairing.promptLifetime), seconds: Self.seconds(Pairing.codeLifetime))
        }
    }

    /// Whether the box says Start was held on the prompt, asked only while
    /// a code waits for that: guesses with no code out, or once it is
    /// confirmed, never reach the appliance.
    /// With the code it was asked about (when that was asked).
    private func boxConfirmed(at t: Instant) -> (Bool, Instant?) {
        guard let asked = withPairing({ $0.waitsForBox(at: t) ? $0.asked : nil }) else { return (false, nil) }
        guard let status = try? box(.status).reply.status else { return (false, asked) }
        return (status.notice && status.noticeConfirmed, asked)
    }

    private func pair(_ r: WebRequest) throws(WebRefusal) -> WebAnswer {
        guard let fields = try? JSON.object(r.body, limits: Self.bodyLimits), let code = fields["code"]?.string else {
            throw .badRequest("send {\"code\":\"1234\"}: the code the box shows")
        }
        let name = fields["name"]?.string ?? r.headers["user-agent"].map { String($0.prefix(40)) } ?? "browser"
        let t = now()
        let (held, asked) = boxConfirmed(at: t)
        let (outcome, began) = withPairing { p in
            p.learn(boxConfirmed: held, codeAskedAt: asked, at: t)
            let was = p.lockedUntil
            return (p.attempt(code, at: t), p.lockedUntil != was && p.lockedUntil != nil)
        }
        switch outcome {
        case .paired:
            _ = try? box(.noticeEnd)
            do { return .paired(try tokens.add(name: name)) } catch { throw .tokenFile("\(error)") }
        case .wrong(let left): throw .wrongCode(left: left)
        case .noCode: throw .noCode
        case .unconfirmed(let until): throw .unconfirmed(seconds: Self.wait(t, until))
        case .locked(let until):
            // The code comes down once, when the lockout begins: guesses
            // refused while locked never reach the appliance.
            if began {
                log("pairing locked for \((until - t).nanoseconds / 1_000_000_000) s after \(Pairing.wrongInARow) wrong codes in a row")
                _ = try? box(.noticeEnd)
            }
            throw .lockedOut(seconds: Self.wait(now(), until))
        }
    }

    private func forward(_ request: ControlRequest) throws(WebRefusal) -> WebAnswer {
        do {
            let reply = try box(request)
            return .box(reply.reply, line: reply.line)
        } catch { throw .boxUnreachable("\(error)") }
    }

    /// A body's fields with `fixed` ones added, made into the request the
    /// control socket would read from them (no text between).
    /// `needs`: fields without which the socket's request only
    /// reads (brightness, night) or changes part of the night schedule: here
    /// a POST sets everything it names, a night schedule whole or `off`.
    private func forward(_ r: WebRequest, _ fixed: JSONObject, needs: [String] = []) throws(WebRefusal) -> WebAnswer {
        let fields: JSONObject
        do { fields = r.body.isEmpty ? [:] : try JSON.object(r.body, limits: Self.bodyLimits) } catch { throw .badRequest("not a JSON object: \(error)") }
        let night = needs.contains("from")
        if fields["off"] == nil || !night, let missing = needs.first(where: { fields[$0] == nil }) {
            throw .badRequest("send \"\(missing)\"\(night ? #" (a night schedule is "from", "to" and "brightness" together), or {"off":true}"# : "")")
        }
        if let clash = fields.keys.sorted().first(where: { fixed[$0] != nil }) { throw .badRequest("unknown field \"\(clash)\"") }
        var all = fixed
        for (k, v) in fields { all[k] = v }
        let request: ControlRequest
        do { request = try ControlRequest.parse(all) } catch { throw .badRequest("\(error)") }
        return try forward(request)
    }

    /// A body is read as a request line is: one flat object of at most
    /// `ControlRequest.maxLine` bytes.
    static let bodyLimits = JSON.Limits(maxBytes: ControlRequest.maxLine, maxDepth: 1)

    private func alarm(_ n: String, _ op: String) throws(WebRefusal) -> WebAnswer {
        guard let n = Int(n), n >= 1, n <= 99 else { throw .notFound("no alarm \(n.prefix(10)): alarms are numbered from 1") }
        let request: ControlRequest
        do { request = try ControlRequest.parse(["cmd": "alarm", "op": .string(op), "n": n.json]) } catch { throw .badRequest("\(error)") }
        return try forward(request)
    }

    /// Snooze (Stop) or dismiss (Reset) the ringing alarm, as on the box.
    private func ring(snooze: Bool) throws(WebRefusal) -> WebAnswer {
        let alarm: String
        do { alarm = try box(.status).reply.status?.alarm ?? "" } catch { throw .boxUnreachable("\(error)") }
        guard alarm.hasPrefix("ringing") || (!snooze && alarm.hasPrefix("snoozed")) else { throw .noAlarm(snooze: snooze) }
        return try forward(snooze ? .stop : .reset)
    }
}

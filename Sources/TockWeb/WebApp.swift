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

    static func error(_ status: Int, _ text: String) -> WebReply { json(status, ["ok": false, "error": .string(text)]) }

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
        guard parts.first == "api" else { return .error(404, "no such page") }
        if let why = RequestGuard.crossSite(method: r.method, headers: r.headers) { return .error(403, why) }
        let route = Array(parts.dropFirst())
        switch (r.method, route) {
        case ("POST", ["pair", "request"]): return requestPairing()
        case ("POST", ["pair"]): return pair(r)
        default: break
        }
        guard let entry = token(r).flatMap({ tokens.find(token: $0) }) else {
            return .error(401, "not paired: ask the box for a code (POST /api/pair/request) and send it (POST /api/pair)")
        }
        switch (r.method, route) {
        case ("GET", ["status"]), ("GET", ["alarms"]): return forward(route == ["status"] ? .status : .alarm(.list))
        case ("GET", ["events"]): return WebReply(status: 200, events: true)
        case ("POST", ["start"]): return forward(.start)
        case ("POST", ["stop"]): return forward(.stop)
        case ("POST", ["reset"]): return forward(.reset)
        case ("POST", ["preset"]): return forward(r, ["cmd": "set"])
        case ("POST", ["mode"]): return forward(r, ["cmd": "mode"])
        case ("POST", ["program"]): return forward(r, ["cmd": "program"], needs: ["name"])
        case ("POST", ["switch"]): return forward(r, ["cmd": "switch"], needs: ["position"])
        case ("POST", ["brightness"]): return forward(r, ["cmd": "brightness"], needs: ["level"])
        case ("POST", ["night"]): return forward(r, ["cmd": "night"], needs: ["from", "to", "brightness"])
        case ("POST", ["alarms"]): return forward(r, ["cmd": "alarm", "op": "add"])
        case ("DELETE", let a) where a.count == 2 && a[0] == "alarms": return alarm(a[1], "rm")
        case ("POST", let a) where a.count == 3 && a[0] == "alarms" && ["on", "off", "skip-next"].contains(a[2]): return alarm(a[1], a[2])
        case ("GET", ["timers"]): return forward(.timer(.list))
        case ("POST", ["timers"]): return forward(r, ["cmd": "timer", "op": "add"])
        case ("POST", let a) where a.count == 2 && a[0] == "timers" && ["pause", "resume", "cancel"].contains(a[1]):
            return forward(r, ["cmd": "timer", "op": .string(String(a[1]))])
        case ("POST", ["add"]): return forward(r, ["cmd": "add"])
        case ("POST", ["alarm", "snooze"]): return ring(snooze: true)
        case ("POST", ["alarm", "dismiss"]): return ring(snooze: false)
        case ("GET", ["tokens"]): return listTokens(current: entry.id)
        case ("DELETE", let a) where a.count == 2 && a[0] == "tokens": return revoke(a[1], current: entry.id)
        default: return .error(404, "no such request: \(r.method) \(r.path.prefix(100))")
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

    private func requestPairing() -> WebReply {
        let code = newCode()
        let t = now()
        let (held, asked) = boxConfirmed(at: t)
        switch withPairing({ $0.learn(boxConfirmed: held, codeAskedAt: asked, at: t); return $0.begin(code: code, at: t) }) {
        case .failure(.busy(let until)):
            // The owner who asked twice and a stranger's request look alike:
            // the words tell the person at the box which prompt to answer.
            var reply = WebReply.error(409, "a code was asked for just now and the box shows \(Pairing.prompt) (or the code): "
                                       + "if it was not you, do not hold Start for it; try again in \(max(1, (until - t).nanoseconds / 1_000_000_000)) s")
            reply.headers.append(("Retry-After", "\(max(1, (until - t).nanoseconds / 1_000_000_000))"))
            return reply
        case .failure(.tooManyCodes(let until)):
            return refused("\(Pairing.codesPerWindow) codes asked within \(Pairing.codeWindow.nanoseconds / 60_000_000_000) minutes", until)
        case .success(let code):
            let ask = ControlRequest.prompt(prompt: Pairing.prompt, within: Self.seconds(Pairing.promptLifetime),
                                            text: code, seconds: Self.seconds(Pairing.codeLifetime))
            do {
                let reply = try box(ask).reply
                if let error = reply.error {
                    withPairing { $0.withdraw(codeAskedAt: t) }
                    return .error(503, "the box did not show the prompt: \(error)")
                }
            } catch {
                withPairing { $0.withdraw(codeAskedAt: t) }
                return .error(503, "\(error)")
            }
            return .json(200, ["ok": true, "prompt": .string(Pairing.prompt), "within": Self.seconds(Pairing.promptLifetime).json,
                               "seconds": Self.seconds(Pairing.codeLifetime).json])
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

    private func pair(_ r: WebRequest) -> WebReply {
        guard let fields = try? JSON.object(r.body, limits: Self.bodyLimits), let code = fields["code"]?.string else {
            return .error(400, "send {\"code\":\"1234\"}: the code the box shows")
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
            do {
                let e = try tokens.add(name: name)
                var reply = WebReply.json(200, ["ok": true, "id": .string(e.id), "name": .string(e.name)])
                reply.headers.append(("Set-Cookie", "\(Self.cookie)=\(e.token); Path=/; Max-Age=315360000; HttpOnly; SameSite=Strict"))
                return reply
            } catch { return .error(500, error.description) }
        case .wrong(let left): return .error(403, "wrong code; \(left) \(left == 1 ? "try" : "tries") left before a lockout")
        case .noCode: return .error(409, "no code is shown: ask for one first, then hold Start on the box until it appears")
        case .unconfirmed(let until):
            return .error(409, "the box shows \(Pairing.prompt), not a code yet: hold its Start button until the code appears "
                          + "(within \(max(1, (until - t).nanoseconds / 1_000_000_000)) s)")
        case .locked(let until):
            // The code comes down once, when the lockout begins: guesses
            // refused while locked never reach the appliance.
            if began {
                log("pairing locked for \((until - t).nanoseconds / 1_000_000_000) s after \(Pairing.wrongInARow) wrong codes in a row")
                _ = try? box(.noticeEnd)
            }
            return locked(until)
        }
    }

    private func locked(_ until: Instant) -> WebReply {
        refused("too many wrong codes (someone at the box lifts this by asking for a code and holding Start)", until)
    }

    private func refused(_ why: String, _ until: Instant) -> WebReply {
        let seconds = max(1, (until - now()).nanoseconds / 1_000_000_000)
        var reply = WebReply.error(429, "\(why): try again in \(seconds) s")
        reply.headers.append(("Retry-After", "\(seconds)"))
        return reply
    }

    private func forward(_ request: ControlRequest) -> WebReply {
        let reply: ControlLink.Reply
        do { reply = try box(request) } catch { return .error(503, "\(error)") }
        return WebReply(status: reply.reply.ok ? 200 : 409,
                        headers: [("Content-Type", "application/json"), ("Cache-Control", "no-store")], body: reply.line)
    }

    /// A body's fields with `fixed` ones added, made into the request the
    /// control socket would read from them (no text between).
    /// `needs`: fields without which the socket's request only
    /// reads (brightness, night) or changes part of the night schedule: here
    /// a POST sets everything it names, a night schedule whole or `off`.
    private func forward(_ r: WebRequest, _ fixed: JSONObject, needs: [String] = []) -> WebReply {
        let fields: JSONObject
        do { fields = r.body.isEmpty ? [:] : try JSON.object(r.body, limits: Self.bodyLimits) } catch { return .error(400, "not a JSON object: \(error.description)") }
        let night = needs.contains("from")
        if fields["off"] == nil || !night, let missing = needs.first(where: { fields[$0] == nil }) {
            return .error(400, "send \"\(missing)\"\(night ? #" (a night schedule is "from", "to" and "brightness" together), or {"off":true}"# : "")")
        }
        if let clash = fields.keys.sorted().first(where: { fixed[$0] != nil }) { return .error(400, "unknown field \"\(clash)\"") }
        var all = fixed
        for (k, v) in fields { all[k] = v }
        do { return forward(try ControlRequest.parse(all)) } catch { return .error(400, error.description) }
    }

    /// A body is read as a request line is: one flat object of at most
    /// `ControlRequest.maxLine` bytes.
    static let bodyLimits = JSON.Limits(maxBytes: ControlRequest.maxLine, maxDepth: 1)

    private func alarm(_ n: String, _ op: String) -> WebReply {
        guard let n = Int(n), n >= 1, n <= 99 else { return .error(404, "no alarm \(n.prefix(10)): alarms are numbered from 1") }
        do { return forward(try ControlRequest.parse(["cmd": "alarm", "op": .string(op), "n": n.json])) } catch { return .error(400, error.description) }
    }

    /// Snooze (Stop) or dismiss (Reset) the ringing alarm, as on the box.
    private func ring(snooze: Bool) -> WebReply {
        let alarm: String
        do { alarm = try box(.status).reply.status?.alarm ?? "" } catch { return .error(503, "\(error)") }
        if alarm.hasPrefix("ringing") || (!snooze && alarm.hasPrefix("snoozed")) {
            return forward(snooze ? .stop : .reset)
        }
        return .error(409, snooze ? "no alarm is ringing" : "no alarm is ringing or snoozed")
    }

    private func listTokens(current: String) -> WebReply {
        do {
            let list = try tokens.list().map { t -> JSON in
                ["id": .string(t.id), "name": .string(t.name), "created": Int(t.created).json, "current": .bool(t.id == current)]
            }
            return .json(200, ["ok": true, "tokens": .array(list)])
        } catch { return .error(500, error.description) }
    }

    private func revoke(_ id: String, current: String) -> WebReply {
        do {
            guard try tokens.revoke(id: id) else { return .error(404, "no token \(id.prefix(20))") }
        } catch { return .error(500, error.description) }
        var reply = WebReply.json(200, ["ok": true, "revoked": .string(id)])
        if id == current { reply.headers.append(("Set-Cookie", "\(Self.cookie)=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict")) }
        return reply
    }
}

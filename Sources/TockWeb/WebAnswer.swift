import TockControl
import TockJSON

/// What an API route answers, in types: `WebApp.answer` returns one or
/// throws a `WebRefusal`, and `reply` is the one place either becomes an
/// HTTP status, headers and JSON (docs/web.md, "The API").
public enum WebAnswer: Sendable, Equatable {
    /// The box's own reply to a control request, passed on as it came:
    /// 200 when the box did it, 409 when the box refused (its sentence).
    case box(ControlReply, line: [UInt8])
    /// A code was asked for: the box shows `prompt` for `within` seconds,
    /// then the code for `seconds`.
    case prompted(prompt: String, within: Int, seconds: Int)
    /// The right code: a new token, set as the cookie.
    case paired(TokenStore.Entry)
    /// The paired browsers, the one asking marked.
    case tokens([TokenStore.Entry], current: String)
    /// A token revoked; the cookie cleared when it was the asker's own.
    case revoked(id: String, own: Bool)
    /// The live display (Server-Sent Events), left to the server.
    case events

    static let jsonHeaders = [("Content-Type", "application/json"), ("Cache-Control", "no-store")]

    public var reply: WebReply {
        switch self {
        case .box(let reply, let line):
            return WebReply(status: reply.ok ? 200 : 409, headers: Self.jsonHeaders, body: line)
        case .prompted(let prompt, let within, let seconds):
            return .json(200, ["ok": true, "prompt": .string(prompt), "within": within.json, "seconds": seconds.json])
        case .paired(let e):
            var r = WebReply.json(200, ["ok": true, "id": .string(e.id), "name": .string(e.name)])
            r.headers.append(("Set-Cookie", "\(WebApp.cookie)=\(e.token); Path=/; Max-Age=315360000; HttpOnly; SameSite=Strict"))
            return r
        case .tokens(let list, let current):
            return .json(200, ["ok": true, "tokens": .array(list.map {
                ["id": .string($0.id), "name": .string($0.name), "created": .int($0.created), "current": .bool($0.id == current)]
            })])
        case .revoked(let id, let own):
            var r = WebReply.json(200, ["ok": true, "revoked": .string(id)])
            if own { r.headers.append(("Set-Cookie", "\(WebApp.cookie)=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict")) }
            return r
        case .events:
            return WebReply(status: 200, events: true)
        }
    }
}

/// Why a route did nothing, in types: each case has its status, its
/// sentence (what to do about it) and, for a wait, its `Retry-After`.
public enum WebRefusal: Error, Sendable, Equatable {
    /// No such page or request (what was asked, cut short).
    case notFound(String)
    /// A browser's request from another site (RequestGuard's reason).
    case crossSite(String)
    case notPaired
    /// A body or a field the request cannot be made from.
    case badRequest(String)
    /// A code was asked for just now: the next in `seconds`.
    case codeOut(seconds: Int)
    /// Too many codes asked within the window, or too many wrong codes:
    /// nothing before `seconds`.
    case tooManyCodes(seconds: Int)
    case lockedOut(seconds: Int)
    case wrongCode(left: Int)
    case noCode
    /// The box shows the prompt; the code comes when Start is held, within `seconds`.
    case unconfirmed(seconds: Int)
    /// Snooze (`snooze`) or dismiss with no alarm to act on.
    case noAlarm(snooze: Bool)
    /// The box did not answer, or did not show the prompt.
    case boxUnreachable(String)
    /// tock-web has no room for the connection (a limit's sentence).
    case full(String)
    /// The request could not be read to its end (RequestHead's refusal:
    /// its status, 400, 408, 413, 431, 501 or 505, and reason).
    case unreadable(RequestHead.Refusal)
    /// The token file could not be read or written.
    case tokenFile(String)

    public var status: Int {
        switch self {
        case .notFound: 404
        case .crossSite, .wrongCode: 403
        case .notPaired: 401
        case .badRequest: 400
        case .codeOut, .noCode, .unconfirmed, .noAlarm: 409
        case .tooManyCodes, .lockedOut: 429
        case .boxUnreachable, .full: 503
        case .tokenFile: 500
        case .unreadable(let r): r.status
        }
    }

    public var retryAfter: Int? {
        switch self {
        case .codeOut(let s), .tooManyCodes(let s), .lockedOut(let s): s
        default: nil
        }
    }

    public var sentence: String {
        switch self {
        case .notFound(let what): what
        case .crossSite(let why): why
        case .notPaired: "not paired: ask the box for a code (POST /api/pair/request) and send it (POST /api/pair)"
        case .badRequest(let why): why
        case .codeOut(let s):
            // The owner who asked twice and a stranger's request look alike:
            // the words tell the person at the box which prompt to answer.
            "a code was asked for just now and the box shows \(Pairing.prompt) (or the code): "
                + "if it was not you, do not hold Start for it; try again in \(s) s"
        case .tooManyCodes(let s):
            "\(Pairing.codesPerWindow) codes asked within \(Pairing.codeWindow.nanoseconds / 60_000_000_000) minutes: try again in \(s) s"
        case .lockedOut(let s):
            "too many wrong codes (someone at the box lifts this by asking for a code and holding Start): try again in \(s) s"
        case .wrongCode(let left): "wrong code; \(left) \(left == 1 ? "try" : "tries") left before a lockout"
        case .noCode: "no code is shown: ask for one first, then hold Start on the box until it appears"
        case .unconfirmed(let s):
            "the box shows \(Pairing.prompt), not a code yet: hold its Start button until the code appears (within \(s) s)"
        case .noAlarm(let snooze): snooze ? "no alarm is ringing" : "no alarm is ringing or snoozed"
        case .boxUnreachable(let why), .full(let why): why
        case .tokenFile(let why): why
        case .unreadable(let r): r.reason
        }
    }

    public var reply: WebReply {
        var r = WebReply.json(status, ["ok": false, "error": .string(sentence)])
        if let s = retryAfter { r.headers.append(("Retry-After", "\(s)")) }
        return r
    }
}

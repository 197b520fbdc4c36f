import Glibc
import SystemPackage
import TockCore
import TockLinux

/// One connection, served on a thread of its own: requests read within
/// `HTTPLimits` (head size, body size, time), each handed to `respond`,
/// its reply written within `writeTime`. Every wait is poll(2) against a
/// deadline, so an idle or trickling client is cut off, and nothing here
/// runs on Swift's cooperative pool. Made on the accepting thread, then
/// used by its connection's thread alone.
struct HTTPSession: @unchecked Sendable {
    enum Answer {
        case reply(WebReply)
        /// The live display: `stream` writes until the client goes or time is up.
        case events
        /// Answered, then closed whatever the request asked.
        case refuse(WebReply)
    }

    let connection: TCPConnection
    let limits: HTTPLimits
    let clock = SystemClock()
    let respond: (WebRequest) -> Answer
    let stream: (TCPConnection, HTTPSession) -> Void
    /// Told when the connection starts and stops waiting for a request's
    /// first byte (an idle connection may be evicted for a new one).
    let idle: (Bool) -> Void

    struct Closed: Error {}

    /// Serve until the client goes or breaks a limit; the caller closes.
    func run() {
        var buffer: [UInt8] = []
        while true {
            let deadline = clock.now().monotonic + limits.requestTime
            do {
                // The head: at most `limits.head` bytes, found in one pass.
                var scanned = 0
                var end: Int? = RequestHead.end(in: buffer, from: 0)
                while end == nil {
                    guard buffer.count <= limits.head else { throw RequestHead.Refusal(status: 431, reason: "request line and headers beyond \(limits.head) bytes") }
                    scanned = buffer.count
                    let more = try read(until: deadline, idle: buffer.isEmpty)
                    guard let more else { return }
                    buffer += more
                    end = RequestHead.end(in: buffer, from: scanned - 3)
                }
                guard let end, end <= limits.head else { throw RequestHead.Refusal(status: 431, reason: "request line and headers beyond \(limits.head) bytes") }
                let head = try RequestHead.parse(buffer[..<end])
                buffer.removeFirst(end)
                let body: [UInt8]
                switch try head.framing(limit: limits.body) {
                case .none: body = []
                case .length(let n):
                    while buffer.count < n {
                        guard let more = try read(until: deadline, idle: false) else { return }
                        buffer += more
                    }
                    body = Array(buffer[..<n])
                    buffer.removeFirst(n)
                case .chunked:
                    var chunked = ChunkedBody(limit: limits.body)
                    var step = try chunked.feed(buffer[...])
                    while case .more = step {
                        guard let more = try read(until: deadline, idle: false) else { return }
                        buffer = more
                        step = try chunked.feed(buffer[...])
                    }
                    if case .done(let consumed) = step { buffer.removeFirst(consumed) }
                    body = chunked.body
                }
                switch respond(WebRequest(method: head.method, path: head.target, headers: head.headers, body: body)) {
                case .reply(let reply):
                    try write(Self.encode(reply, keepAlive: head.keepAlive))
                    guard head.keepAlive else { return }
                case .events:
                    stream(connection, self)
                    return
                case .refuse(let reply):
                    try write(Self.encode(reply, keepAlive: false))
                    return
                }
            } catch let refusal as RequestHead.Refusal {
                // The request cannot be read to its end: answer and close.
                try? write(Self.encode(WebRefusal.unreadable(refusal).reply, keepAlive: false))
                return
            } catch {
                return
            }
        }
    }

    /// More bytes, waiting until `deadline`; nil at end of stream, or when
    /// the time ran out on an `idle` connection (nothing of a request yet:
    /// closed without a word). A request begun and not finished in time
    /// is answered 408.
    /// `waiting`: for a request's first byte; the connection is idle (`idle`)
    /// until bytes come, and busy from the moment they can be read, before
    /// they leave the socket: in between, with its bytes neither pending nor
    /// counted, an idle-looking connection in the middle of its request
    /// could be closed to make room for another.
    func read(until deadline: Instant, idle waiting: Bool) throws -> [UInt8]? {
        if waiting { idle(true) }
        while true {
            let left = Int((deadline - clock.now().monotonic).nanoseconds / 1_000_000)
            guard left > 0 else {
                if waiting { return nil }
                throw RequestHead.Refusal(status: 408, reason: "the request did not arrive within \(limits.requestTime.nanoseconds / 1_000_000_000) s")
            }
            guard try connection.waitReadable(milliseconds: left) else { continue }
            if waiting { idle(false) }
            guard let bytes = try connection.read(max: 4096) else {
                if waiting { idle(true) }
                continue
            }
            return bytes.isEmpty ? nil : bytes
        }
    }

    /// Write everything within `limits.writeTime`.
    func write(_ bytes: [UInt8]) throws {
        let deadline = clock.now().monotonic + limits.writeTime
        var sent = 0
        while sent < bytes.count {
            let n = try connection.send(bytes[sent...])
            sent += n
            if n == 0 {
                let left = Int((deadline - clock.now().monotonic).nanoseconds / 1_000_000)
                guard left > 0 else { throw Closed() }
                _ = try connection.waitWritable(milliseconds: left)
            }
        }
    }

    static func encode(_ reply: WebReply, keepAlive: Bool) -> [UInt8] {
        var text = "HTTP/1.1 \(reply.status) \(phrase(reply.status))\r\n"
        for (k, v) in reply.headers { text += "\(k): \(v)\r\n" }
        text += "X-Content-Type-Options: nosniff\r\nReferrer-Policy: no-referrer\r\n"
        if reply.events {
            text += "Content-Type: text/event-stream\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n"
            return Array(text.utf8)
        }
        // A 304 has no body, and its length would be the file's (RFC 9110, 8.6): none is said.
        if reply.status != 304 { text += "Content-Length: \(reply.body.count)\r\n" }
        text += keepAlive ? "\r\n" : "Connection: close\r\n\r\n"
        return Array(text.utf8) + reply.body
    }

    static func phrase(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 413: "Content Too Large"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 503: "Service Unavailable"
        case 505: "HTTP Version Not Supported"
        default: "Error"
        }
    }
}

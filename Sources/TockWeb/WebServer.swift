import FlyingFox
import FlyingSocks
import Foundation
import TockControl

/// The HTTP side: FlyingFox's server handing every request to `WebApp`,
/// and the live display as Server-Sent Events fed by one watch on the
/// control socket (a thread of its own, reconnecting while the appliance
/// restarts).
public final class WebServer: Sendable {
    let app: WebApp
    let link: ControlLink
    let hub = EventHub()

    public init(app: WebApp, link: ControlLink) {
        self.app = app
        self.link = link
    }

    /// Serve on `address` until cancelled.
    public func run(host: String, port: UInt16) async throws {
        let handler = ClosureHTTPHandler { [app, hub, link] request in
            var headers: [String: String] = [:]
            for (k, v) in request.headers { headers[k.rawValue.lowercased()] = v }
            let body = request.method == .GET ? [] : Array(try await request.bodyData.prefix(4096))
            let reply = app.handle(WebRequest(method: request.method.rawValue, path: request.path, headers: headers, body: body))
            var out = HTTPHeaders()
            for (k, v) in reply.headers { out.addValue(v, for: HTTPHeader(k)) }
            out[HTTPHeader("X-Content-Type-Options")] = "nosniff"
            out[HTTPHeader("Referrer-Policy")] = "no-referrer"
            if reply.events {
                out[HTTPHeader("Content-Type")] = "text/event-stream"
                out[HTTPHeader("Cache-Control")] = "no-store"
                return HTTPResponse(statusCode: .ok, headers: out, body: HTTPBodySequence(from: hub.subscribe(first: try? link.send(.status).line)))
            }
            return HTTPResponse(statusCode: HTTPStatusCode(reply.status, phrase: Self.phrase(reply.status)), headers: out, body: Data(reply.body))
        }
        let server = host.contains(":")
            ? HTTPServer(address: try sockaddr_in6.inet6(ip6: host, port: port), timeout: 15, logger: .disabled, handler: handler)
            : HTTPServer(address: try sockaddr_in.inet(ip4: host, port: port), timeout: 15, logger: .disabled, handler: handler)
        let thread = Thread { [link, hub] in
            while true {
                do { try link.watch { hub.publish($0.line) } } catch {}
                Thread.sleep(forTimeInterval: 1)
            }
        }
        thread.start()
        try await server.run()
    }

    static func phrase(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 409: "Conflict"
        case 429: "Too Many Requests"
        case 503: "Service Unavailable"
        default: "Error"
        }
    }
}

/// The subscribers of the live display: each gets every event as an SSE
/// `data:` line; a subscriber that falls behind loses old events, never the
/// newest.
final class EventHub: @unchecked Sendable {
    private let lock = NSLock()
    private var subscribers: [UUID: AsyncStream<[UInt8]>.Continuation] = [:]

    /// Hand on one event line (a JSON object on one line) to every subscriber.
    func publish(_ line: [UInt8]) {
        lock.lock()
        let subs = Array(subscribers.values)
        lock.unlock()
        let bytes = Array("data: ".utf8) + line + Array("\n\n".utf8)
        for s in subs { s.yield(bytes) }
    }

    /// A new subscriber, sent `first` (the status) before any event.
    func subscribe(first: [UInt8]?) -> EventStream {
        let (stream, continuation) = AsyncStream<[UInt8]>.makeStream(bufferingPolicy: .bufferingNewest(32))
        let id = UUID()
        lock.lock()
        subscribers[id] = continuation
        lock.unlock()
        continuation.yield(Array("retry: 1000\n".utf8) + (first.map { Array("data: ".utf8) + $0 + Array("\n\n".utf8) } ?? []))
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            lock.lock()
            subscribers[id] = nil
            lock.unlock()
        }
        return EventStream(stream: stream)
    }
}

/// An SSE body: chunks as they come, never ending.
struct EventStream: AsyncBufferedSequence, Sendable {
    typealias Element = UInt8
    let stream: AsyncStream<[UInt8]>

    func makeAsyncIterator() -> Iterator { Iterator(base: stream.makeAsyncIterator()) }

    struct Iterator: AsyncBufferedIteratorProtocol {
        var base: AsyncStream<[UInt8]>.Iterator
        var buffer: [UInt8] = []

        mutating func next() async -> UInt8? {
            if buffer.isEmpty { buffer = await base.next() ?? [] }
            return buffer.isEmpty ? nil : buffer.removeFirst()
        }

        mutating func nextBuffer(suggested count: Int) async -> [UInt8]? {
            if !buffer.isEmpty { defer { buffer = [] }; return buffer }
            return await base.next()
        }
    }
}

import Glibc
import SystemPackage
import TockControl
import TockCore
import TockLinux

/// What a `WebServer` serves: the page on the LAN (`WebApp`), or the
/// setup hotspot's page (`HotspotPage`).
public protocol WebSite: AnyObject, Sendable {
    func handle(_ r: WebRequest) -> WebReply
    /// The request carries a paired browser's token.
    func isPaired(_ r: WebRequest) -> Bool
    /// The appliance's status line for a live display's first event.
    func statusLine() -> [UInt8]?
}

/// The HTTP side: a listener whose accepting thread hands each connection
/// to a thread of its own (`HTTPSession`), at most `limits.connections`
/// of them; and the live display as Server-Sent Events fed by one watch on
/// the control socket (a thread of its own, open only while a page shows
/// the live display, reconnecting while the appliance restarts). Running
/// out of descriptors pauses accepting, it never ends the server.
public final class WebServer: @unchecked Sendable {
    let app: any WebSite
    let link: ControlLink?
    let limits: HTTPLimits
    let hub: EventHub
    let log: @Sendable (String) -> Void
    private let lock = Lock()
    /// Who holds the slots (`ConnectionSlots`), and the connections behind them.
    private var slots: ConnectionSlots<ObjectIdentifier>
    private var open: [ObjectIdentifier: TCPConnection] = [:]
    /// When each connection that has not yet begun a request was let in (`limits.newborn`).
    private var newborn: [ObjectIdentifier: Duration] = [:]
    /// Connections evicted for new ones since the start.
    public private(set) var evictions = 0
    private var stopped = false
    private var listener: TCPListener?

    public init(app: any WebSite, link: ControlLink?, limits: HTTPLimits = HTTPLimits(), log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.app = app
        self.link = link
        self.limits = limits
        self.hub = EventHub(limit: limits.eventStreams)
        self.log = log
        slots = ConnectionSlots(connections: limits.connections, reserved: limits.pairedReserve,
                                perAddress: limits.perAddress, perNetwork: limits.perNetwork)
    }

    /// Listen on `host` (numeric); the port bound (the kernel's choice for 0).
    public func listen(host: String, port: UInt16, device: String? = nil) throws(Errno) -> UInt16 {
        let l = try TCPListener(host: host, port: port, device: device)
        lock.lock()
        listener = l
        lock.unlock()
        return l.port
    }

    /// Connections being served now.
    public var connections: Int {
        lock.lock()
        defer { lock.unlock() }
        return slots.count
    }

    /// Connections held as `kind` says (unpaired, on probation, paired).
    public func connections(where kind: (ConnectionSlots<ObjectIdentifier>.Kind) -> Bool) -> Int {
        lock.lock()
        defer { lock.unlock() }
        return slots.count(where: kind)
    }

    /// Connections waiting for a request's first byte.
    public var idleConnections: Int {
        lock.lock()
        defer { lock.unlock() }
        return slots.idleCount
    }

    /// Serve until `stop()`: accept on this thread, each connection on its own.
    public func serve() {
        lock.lock()
        let listener = listener
        lock.unlock()
        guard let listener else { return }
        if let link {
            Threads.detach { [self] in follow(link) }
        }
        // Connections from outside exhaust the descriptors: said at most once a minute.
        var complaint = RateLimitedReport()
        let clock = SystemClock()
        var release = clock.monotonic() + ImagePages.every
        while !isStopped {
            // What a rare path touched (a pairing, the first page) leaves
            // the resident set; serving maps back what it touches.
            if clock.monotonic() >= release {
                ImagePages.releaseStartupPages()
                release = clock.monotonic() + ImagePages.every
            }
            do throws(Errno) {
                guard try listener.waitForConnection(milliseconds: 250), let c = try listener.accept() else { continue }
                admit(c)
            } catch where [.tooManyOpenFiles, .tooManyOpenFilesInSystem, .noBufferSpace, .noMemory].contains(error) {
                // The connection stays queued: wait for descriptors to come back.
                if let more = complaint.due(at: clock.now().monotonic) {
                    log("accept: \(error) (\(connections) connections open); pausing \(limits.acceptPause.nanoseconds / 1_000_000) ms\(more)")
                }
                Threads.sleep(limits.acceptPause)
            } catch {
                log("accept: \(error)")
                Threads.sleep(limits.acceptPause)
            }
        }
        listener.close()
    }

    /// The one watch on the appliance, open while anyone subscribes: with
    /// no page showing the live display the appliance sends tock-web
    /// nothing. Its first line (the status) goes to every subscriber too,
    /// so nothing that happened while it was closed is missed.
    private func follow(_ link: ControlLink) {
        while !isStopped {
            guard hub.waitForSubscribers(before: Threads.now() + .seconds(1)) else { continue }
            do {
                try link.watch(fps: limits.eventFPS, until: { [self] in hub.count == 0 || isStopped }) { [hub] in hub.publish($0) }
            } catch {
                // The appliance restarts, or is gone: try again in a second.
                Threads.sleep(.seconds(1))
            }
        }
    }

    var isStopped: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopped
    }

    /// Stop accepting (within 250 ms); connections end by their own limits.
    public func stop() {
        lock.lock()
        stopped = true
        lock.unlock()
    }

    private func admit(_ c: TCPConnection) {
        let key = ObjectIdentifier(c)
        let peer = ConnectionSlots<ObjectIdentifier>.Peer(address: c.peer, network: c.peerNetwork,
                                                           exempt: limits.loopbackExempt && c.peerIsLoopback)
        lock.lock()
        // Bytes already pending mean a request on its way, and a connection still within its
        // moment to send one may be about to: neither is closed for another.
        let now = Threads.now()
        let pending = { [open] (k: ObjectIdentifier) in (try? open[k]?.waitReadable(milliseconds: 0)) != false }
        let speaking = { [newborn, limits] (k: ObjectIdentifier) in newborn[k].map { now - $0 < limits.newborn } ?? false }
        let admission = slots.admit(key, from: peer, quiet: { !speaking($0) && !pending($0) },
                                    silent: { speaking($0) && !pending($0) },
                                    carriesToken: { [open, app, limits] in Self.carriesToken(open[$0]?.peek(max: limits.head), app) })
        guard case .admitted(_, let evicting) = admission else {
            lock.unlock()
            if case .refused(let why) = admission {
                // Refused in one non-blocking send: a full peer gets nothing but the close.
                _ = try? c.send(HTTPSession.encode(WebRefusal.full("\(why); try again").reply, keepAlive: false)[...])
            }
            c.close()
            return
        }
        for victim in evicting {
            // Its thread wakes to end of stream, ends, and closes it.
            open[victim]?.shutdown()
            evictions += 1
        }
        open[key] = c
        newborn[key] = now
        lock.unlock()
        let session = HTTPSession(connection: c, limits: limits, respond: { [self] in self.answer($0, on: key) },
                                  stream: { [self] in self.stream($0, session: $1) },
                                  idle: { [self] isIdle in
                                      lock.lock()
                                      slots.idle(key, isIdle)
                                      if !isIdle { newborn[key] = nil }
                                      lock.unlock()
                                  })
        Threads.detach(stackSize: 512 * 1024) { [self] in
            session.run()
            // Closed under the lock: an eviction never shuts down a descriptor closed and reused.
            lock.lock()
            slots.release(key)
            open[key] = nil
            newborn[key] = nil
            c.close()
            lock.unlock()
        }
    }

    /// Whether bytes pending on a connection not yet read hold a whole
    /// request head with a valid token.
    static func carriesToken(_ pending: [UInt8]?, _ app: any WebSite) -> Bool {
        guard let pending, let end = RequestHead.end(in: pending, from: 0), let head = try? RequestHead.parse(pending[..<end]) else { return false }
        return app.isPaired(WebRequest(method: head.method, path: head.target, headers: head.headers))
    }

    /// A request on connection `key`: one that carries a valid token makes
    /// the connection paired; one on probation without a token is refused.
    func answer(_ request: WebRequest, on key: ObjectIdentifier) -> HTTPSession.Answer {
        let paired = app.isPaired(request)
        lock.lock()
        let refusal = slots.request(on: key, paired: paired)
        lock.unlock()
        if let refusal { return .refuse(WebRefusal.full("\(refusal); pair this browser, or try again").reply) }
        return answer(request)
    }

    func answer(_ request: WebRequest) -> HTTPSession.Answer {
        let reply = app.handle(request)
        return reply.events ? .events : .reply(reply)
    }

    /// The live display on `c` until the client goes, a write stalls, or
    /// `limits.eventLifetime` is up (the page reconnects).
    func stream(_ c: TCPConnection, session: HTTPSession) {
        guard let subscriber = hub.subscribe() else {
            try? session.write(HTTPSession.encode(WebRefusal.full("too many live displays open (\(limits.eventStreams)); close one").reply, keepAlive: false))
            return
        }
        defer { hub.unsubscribe(subscriber) }
        // The status is read once subscribed: a change made meanwhile comes after it.
        let first = app.statusLine() ?? []
        let end = Threads.now() + limits.eventLifetime
        var out = HTTPSession.encode(WebReply(status: 200, events: true), keepAlive: false) + Array("retry: 1000\n".utf8)
        if !first.isEmpty { out += Array("data: ".utf8) + first + Array("\n\n".utf8) }
        do {
            while true {
                try session.write(out)
                let now = Threads.now()
                guard now < end else { return }
                let chunk = subscriber.take(before: min(end, now + limits.eventHeartbeat))
                // A comment line when nothing happened: a peer that went away is found by the write.
                out = chunk.isEmpty ? Array(": \n\n".utf8) : chunk
                // The client never sends on this connection; input or end of stream means it left.
                if try c.waitReadable(milliseconds: 0) { return }
            }
        } catch { return }
    }
}

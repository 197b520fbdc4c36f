import Logging
import SystemPackage
import TockConfig
import TockCore
import TockJSON
import TockLinux
import TockLoop

/// The local control socket: newline-delimited JSON requests and replies,
/// served from the reactor's one thread. A client can never block or
/// disturb the timer: reads and writes never wait, a request line is
/// bounded, every phase of a connection is bounded in time, a watcher
/// that stops reading is disconnected, and when all slots are taken the
/// connection idle longest makes room for a new one (`ControlSlots`), so
/// the command line can always get in.
public final class ControlServer {
    public static let maxConnections = 16
    /// How long a connection may stay silent, or a request half-sent,
    /// before the connection is dropped (watchers excepted).
    var idleLimit: Duration { slots.idleLimit }

    private final class Client {
        let connection: UnixConnection
        var buffer: [UInt8] = []
        /// A watcher's cap on display changes a second (`watch` with `fps`).
        var fps: Int?
        /// When it was last sent an event, and the display changes held
        /// back since (merged, the newest wins).
        var lastSent: Instant?
        var held: WatchEvent?
        init(_ c: UnixConnection) { connection = c }

        var gap: Duration? { fps.map { .seconds(1) / $0 } }
    }

    private let listener: UnixListener
    private let loop: any EventLoop
    private let service: any ControlResponder
    /// Evictions: any local process can open connections in a loop, so the
    /// line is written at most once a minute.
    private let evictedLog: LimitedLog
    private var clients: [CInt: Client] = [:]
    private var slots: ControlSlots
    /// When the connection that runs out of time first does.
    private var expiry: LoopTimer!
    /// When the first display change held back for a capped watcher is due.
    private var flush: LoopTimer!

    /// Bind the socket at `path`; separate from `init` so that the runtime
    /// can claim the path before it opens any hardware.
    public static func listen(path: String) throws(ControlSocketError) -> UnixListener {
        do { return try UnixListener(path: path) } catch { throw ControlSocketError(path: path, errno: error) }
    }

    public init(listener: UnixListener, loop: any EventLoop, service: any ControlResponder, log: Logger, idleLimit: Duration = .seconds(5)) throws {
        slots = ControlSlots(capacity: Self.maxConnections, idleLimit: idleLimit)
        self.listener = listener
        self.loop = loop
        self.service = service
        evictedLog = LimitedLog(log: log, loop: loop)
        expiry = loop.makeTimer { [weak self] in
            guard let self else { return }
            expire()
            rearm()
        }
        flush = loop.makeTimer { [weak self] in self?.sendHeld() }
        try loop.watch(listener.descriptor.rawValue) { [unowned self] in
            acceptAll()
            rearm()
        }
    }

    private func now() -> Instant { loop.now().monotonic }

    private func rearm() { expiry.schedule(at: slots.deadline) }

    /// Drop connections that stayed silent, or left a request unfinished,
    /// for too long.
    private func expire() {
        let limit = DurationText.format(idleLimit)
        for (fd, why) in slots.expire(at: now()) {
            guard let c = clients[fd] else { continue }
            reply(c, ControlReply.refused(why == .unfinished ? "request not finished within \(limit)" : "no request within \(limit); closed").json)
            drop(fd)
        }
    }

    /// Tell watchers what changed; a notice put up or taken down is never
    /// held back.
    public func publish(_ change: BoxChange) {
        guard slots.slots.contains(where: { $0.value.phase == .watching }) else { return }
        var event = WatchEvent(frame: change.frame, buzzer: change.buzzer, state: change.state, round: change.round,
                               switchPosition: change.switchPosition)
        if change.timers || !change.timersRang.isEmpty {
            event.timers = service.status().timers
            event.rang = change.timersRang.isEmpty ? nil : change.timersRang
        }
        guard !event.isEmpty else { return }
        deliver(event, urgent: change.notice)
    }

    /// Send `event` to every watcher, written once for all of them; to one
    /// with a cap, a change of the display alone that comes sooner than
    /// its cap allows waits (merged with any other waiting, the newest
    /// wins) for `flush`, or goes with the next event that cannot wait.
    private func deliver(_ event: WatchEvent, urgent: Bool = false) {
        let t = now()
        var line: [UInt8]?
        for fd in slots.slots.filter({ $0.value.phase == .watching }).map(\.key).sorted() {
            guard let c = clients[fd] else { continue }
            var e = event
            if let gap = c.gap {
                if !urgent, event.displayOnly, let last = c.lastSent, t - last < gap {
                    c.held = c.held.map { $0.merged(with: event) } ?? event
                    continue
                }
                if let held = c.held { e = held.merged(with: event) }
                c.held = nil
                c.lastSent = t
            }
            let bytes: [UInt8]
            if c.gap == nil || e == event {
                if line == nil { line = event.bytes + [0x0A] }
                bytes = line!
            } else {
                bytes = e.bytes + [0x0A]
            }
            if !send(c, bytes) { drop(fd) }
        }
        rearmFlush()
    }

    /// Send what waited its turn.
    private func sendHeld() {
        let t = now()
        for (fd, c) in clients.sorted(by: { $0.key < $1.key }) {
            guard let held = c.held, let last = c.lastSent, let gap = c.gap, last + gap <= t else { continue }
            c.held = nil
            c.lastSent = t
            if !send(c, held.bytes + [0x0A]) { drop(fd) }
        }
        rearmFlush()
    }

    private func rearmFlush() {
        flush.schedule(at: clients.values.compactMap { c in c.held == nil ? nil : c.lastSent.flatMap { l in c.gap.map { l + $0 } } }.min())
    }

    public func close() {
        for fd in Array(clients.keys) { drop(fd) }
        try? loop.unwatch(listener.descriptor.rawValue)
        listener.close()
        expiry.cancel()
        flush.cancel()
        evictedLog.close()
    }

    private func acceptAll() {
        while let connection = try? listener.accept() {
            let fd = connection.descriptor.rawValue
            let client = Client(connection)
            if let evicted = slots.admit(fd, at: now()), let old = clients[evicted] {
                evictedLog(.notice, "control socket: \(Self.maxConnections) connections open; closed the one idle longest to let a new one in")
                reply(old, ["ok": false, "error": "closed to make room for a new connection (\(Self.maxConnections) at most; this one was idle longest)"])
                drop(evicted)
            }
            clients[fd] = client
            do {
                try loop.watch(fd) { [unowned self] in
                    readable(fd)
                    rearm()
                }
            } catch {
                drop(fd)
            }
        }
    }

    private func readable(_ fd: CInt) {
        guard let c = clients[fd] else { return }
        let chunk: [UInt8]?
        do { chunk = try c.connection.read() } catch { drop(fd); return }
        guard let chunk else { return }
        guard !chunk.isEmpty else { drop(fd); return }  // the client closed
        c.buffer += chunk
        while let nl = c.buffer.firstIndex(of: 0x0A) {
            let line = Array(c.buffer[..<nl])
            c.buffer.removeSubrange(...nl)
            guard handle(line, fd, c) else { drop(fd); return }
        }
        if !c.buffer.isEmpty { slots.requestBegan(fd, at: now()) }
        if c.buffer.count > ControlRequest.maxLine {
            reply(c, ControlReply.refused("request longer than \(ControlRequest.maxLine) bytes").json)
            drop(fd)
        }
    }

    /// Carry out one request; false when the connection should close.
    private func handle(_ line: [UInt8], _ fd: CInt, _ c: Client) -> Bool {
        let request: ControlRequest
        do { request = try ControlRequest.parse(line) } catch {
            slots.answered(fd, watch: false, at: now())
            return reply(c, ControlReply.refused(error.description).json)
        }
        var watch = false
        if case .watch(let fps) = request {
            watch = true
            c.fps = fps
        }
        slots.answered(fd, watch: watch, at: now())
        return reply(c, service.reply(to: request).json)
    }

    /// Send one JSON line without waiting; false if the client cannot take it.
    @discardableResult
    private func reply(_ c: Client, _ object: JSONObject) -> Bool {
        send(c, JSON.object(object).bytes() + [0x0A])
    }

    private func send(_ c: Client, _ bytes: [UInt8]) -> Bool {
        guard let sent = try? c.connection.send(bytes) else { return false }
        return sent == bytes.count
    }

    private func drop(_ fd: CInt) {
        slots.remove(fd)
        guard let c = clients.removeValue(forKey: fd) else { return }
        try? loop.unwatch(fd)
        c.connection.close()
    }
}

/// The control socket could not be opened; says what to do.
public struct ControlSocketError: Error, CustomStringConvertible {
    public var path: String
    public var errno: Errno

    public var description: String {
        switch errno {
        case .noSuchFileOrDirectory: "control socket \(path): the directory does not exist (under systemd, RuntimeDirectory=tock creates /run/tock)"
        case .permissionDenied: "control socket \(path): permission denied; run as the tock user or pick --socket in a writable directory"
        case .notSocket: "control socket \(path) exists and is not a socket; it is left alone: move it away or pick another --socket"
        case .addressInUse: "control socket \(path) is in use: something accepts connections on it (another tock run? tock status --socket \(path)); stop it first or pick another --socket"
        default: "control socket \(path): \(errno)"
        }
    }
}

/// One change as watchers are told it, kept typed until it is written:
/// a display change held back for a capped watcher costs no JSON.
struct WatchEvent: Equatable {
    var frame: Frame?
    var buzzer: Bool?
    var state: StateName?
    var round: RoundReport?
    var switchPosition: SwitchPosition?
    /// The extra timers, when one changed; those that just rang.
    var timers: [BoxStatus.Timer]?
    var rang: [String]?

    var isEmpty: Bool { self == WatchEvent() }
    /// Nothing but the display changed: a capped watcher may get it later.
    var displayOnly: Bool { buzzer == nil && state == nil && round == nil && switchPosition == nil && timers == nil }

    /// This, then `newer` on top (what `newer` says wins).
    func merged(with newer: WatchEvent) -> WatchEvent {
        WatchEvent(frame: newer.frame ?? frame, buzzer: newer.buzzer ?? buzzer, state: newer.state ?? state,
                   round: newer.round ?? round, switchPosition: newer.switchPosition ?? switchPosition,
                   timers: newer.timers ?? timers, rang: newer.rang ?? rang)
    }

    var bytes: [UInt8] {
        var o = JSONObject()
        o.set("switch", switchPosition?.rawValue)
        if let frame {
            o["display"] = .string(frame.text)
            ControlStatus.segments(frame, into: &o)
        }
        o.set("buzzer", buzzer)
        o.set("state", state?.rawValue)
        if let round {
            o["round"] = round.round.json
            o.set("set", round.set)
        }
        if let timers { o["timers"] = .array(timers.map(\.json)) }
        o.set("rang", rang)
        return JSON.object(o).bytes()
    }
}

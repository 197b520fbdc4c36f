import Foundation
import Logging
import SystemPackage
import TockCore
import TockLinux

/// The local control socket: newline-delimited JSON requests and replies,
/// served from the reactor's one thread. A client can never block or
/// disturb the timer: reads and writes never wait, a request line is
/// bounded, a half-sent request is dropped after `idleLimit`, a watcher
/// that stops reading is disconnected, and connections are capped.
final class ControlServer {
    static let maxConnections = 16
    /// How long a request may stay half-sent before the connection is dropped.
    let idleLimit: Duration

    private final class Client {
        let connection: UnixConnection
        var buffer: [UInt8] = []
        var since: Instant
        var watching = false
        init(_ c: UnixConnection, at t: Instant) { connection = c; since = t }
    }

    private let listener: UnixListener
    private let reactor: Reactor
    private let service: ControlService
    private let log: Logger
    private let now: () -> Instant
    private var clients: [CInt: Client] = [:]
    /// Called after the server has done anything (the runtime re-arms its
    /// timer: a request may have started a count, a half-sent one needs
    /// its deadline).
    var onActivity: (() -> Void)?

    init(path: String, reactor: Reactor, service: ControlService, log: Logger, idleLimit: Duration = .seconds(5),
         now: @escaping () -> Instant) throws {
        self.idleLimit = idleLimit
        do { listener = try UnixListener(path: path) } catch {
            throw ControlSocketError(path: path, errno: error)
        }
        self.reactor = reactor
        self.service = service
        self.log = log
        self.now = now
        try reactor.watch(listener.descriptor.rawValue) { [unowned self] in
            acceptAll()
            onActivity?()
        }
    }

    /// When a half-sent request must be dropped.
    var deadline: Instant? {
        clients.values.filter { !$0.buffer.isEmpty }.map { $0.since + idleLimit }.min()
    }

    /// Drop clients whose request has been incomplete for too long.
    func expire() {
        let t = now()
        for (fd, c) in clients where !c.buffer.isEmpty && c.since + idleLimit <= t {
            reply(c, ["ok": false, "error": "request not finished within \(DurationText.format(idleLimit))"])
            drop(fd)
        }
    }

    /// Tell watchers what changed.
    func publish(_ commands: [Appliance.Command]) {
        guard clients.values.contains(where: \.watching) else { return }
        var event: [String: Any] = [:]
        for c in commands {
            switch c {
            case .render(let f): event["display"] = f.text
            case .buzzer(let t): event["buzzer"] = t != nil
            case .state(let s): event["state"] = s.rawValue
            default: break
            }
        }
        guard !event.isEmpty else { return }
        for (fd, c) in clients where c.watching {
            if !reply(c, event) { drop(fd) }
        }
    }

    func close() {
        for fd in Array(clients.keys) { drop(fd) }
        try? reactor.unwatch(listener.descriptor.rawValue)
        listener.close()
    }

    private func acceptAll() {
        while let connection = try? listener.accept() {
            let client = Client(connection, at: now())
            guard clients.count < Self.maxConnections else {
                reply(client, ["ok": false, "error": "too many connections"])
                connection.close()
                continue
            }
            let fd = connection.descriptor.rawValue
            clients[fd] = client
            do {
                try reactor.watch(fd) { [unowned self] in
                    readable(fd)
                    onActivity?()
                }
            } catch {
                clients[fd] = nil
            }
        }
    }

    private func readable(_ fd: CInt) {
        guard let c = clients[fd] else { return }
        let chunk: [UInt8]?
        do { chunk = try c.connection.read() } catch { drop(fd); return }
        guard let chunk else { return }
        guard !chunk.isEmpty else { drop(fd); return }  // the client closed
        if c.buffer.isEmpty { c.since = now() }
        c.buffer += chunk
        while let nl = c.buffer.firstIndex(of: 0x0A) {
            let line = Array(c.buffer[..<nl])
            c.buffer.removeSubrange(...nl)
            c.since = now()
            guard handle(line, c) else { drop(fd); return }
        }
        if c.buffer.count > ControlRequest.maxLine {
            reply(c, ["ok": false, "error": "request longer than \(ControlRequest.maxLine) bytes"])
            drop(fd)
        }
    }

    /// Carry out one request; false when the connection should close.
    private func handle(_ line: [UInt8], _ c: Client) -> Bool {
        let request: ControlRequest
        do { request = try ControlRequest.parse(line) } catch {
            return reply(c, ["ok": false, "error": error.description])
        }
        if request == .watch { c.watching = true }
        return reply(c, service.reply(to: request))
    }

    /// Send one JSON line without waiting; false if the client cannot take it.
    @discardableResult
    private func reply(_ c: Client, _ object: [String: Any]) -> Bool {
        let bytes = JSONText.bytes(object) + [0x0A]
        guard let sent = try? c.connection.send(bytes) else { return false }
        return sent == bytes.count
    }

    private func drop(_ fd: CInt) {
        guard let c = clients.removeValue(forKey: fd) else { return }
        try? reactor.unwatch(fd)
        c.connection.close()
    }
}

/// The control socket could not be opened; says what to do.
struct ControlSocketError: Error, CustomStringConvertible {
    var path: String
    var errno: Errno

    var description: String {
        switch errno {
        case .noSuchFileOrDirectory: "control socket \(path): the directory does not exist (under systemd, RuntimeDirectory=tock creates /run/tock)"
        case .permissionDenied: "control socket \(path): permission denied; run as the tock user or pick --socket in a writable directory"
        default: "control socket \(path): \(errno)"
        }
    }
}

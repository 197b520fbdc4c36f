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
    private let driver: ApplianceDriver
    private let log: Logger
    private let now: () -> Instant
    private var clients: [CInt: Client] = [:]
    /// Called after the server has done anything (the runtime re-arms its
    /// timer: a request may have started a count, a half-sent one needs
    /// its deadline).
    var onActivity: (() -> Void)?

    init(path: String, reactor: Reactor, driver: ApplianceDriver, log: Logger, idleLimit: Duration = .seconds(5),
         now: @escaping () -> Instant) throws {
        self.idleLimit = idleLimit
        do { listener = try UnixListener(path: path) } catch {
            throw ControlSocketError(path: path, errno: error)
        }
        self.reactor = reactor
        self.driver = driver
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
        switch request {
        case .status:
            return reply(c, status())
        case .start, .stop, .reset:
            let b: Button = request == .start ? .start : request == .stop ? .stop : .reset
            driver.action(.pressed(b))
            return reply(c, status())
        case .set(let d):
            do { try driver.setPreset(d) } catch { return reply(c, ["ok": false, "error": error.description]) }
            return reply(c, status())
        case .mode(let m):
            do { try driver.setMode(Settings.Mode(rawValue: m)!) } catch { return reply(c, ["ok": false, "error": error.description]) }
            return reply(c, status())
        case .watch:
            c.watching = true
            return reply(c, status())
        case .alarm(let op):
            do {
                switch op {
                case .list: break
                case .add(let a): try driver.editAlarms(.add(a))
                case .remove(let n): try driver.editAlarms(.remove(n))
                case .on(let n): try driver.editAlarms(.enable(n, true))
                case .off(let n): try driver.editAlarms(.enable(n, false))
                case .skipNext(let n): try driver.editAlarms(.skipNext(n))
                }
            } catch { return reply(c, ["ok": false, "error": error.description]) }
            return reply(c, status())
        }
    }

    private func status() -> [String: Any] {
        let core = driver.core
        var s: [String: Any] = [
            "ok": true,
            "state": driver.state?.rawValue ?? "starting",
            "display": driver.frame?.text ?? "",
            "buzzer": driver.tone != nil,
            "mode": core.settings.mode.rawValue,
        ]
        let zone = core.alarms.zone
        s["alarms"] = core.alarms.entries.enumerated().map { i, e -> [String: Any] in
            var a: [String: Any] = ["n": i + 1, "at": e.alarm.timeText, "days": e.alarm.daysText, "enabled": e.alarm.enabled,
                                    "label": e.alarm.label, "line": AlarmText.line(e, number: i + 1, zone: zone)]
            if let next = e.next { a["next"] = AlarmText.local(next, zone) }
            return a
        }
        switch core.alarms.state {
        case .quiet: break
        case .ringing(let r, _): s["alarm"] = "ringing \(AlarmText.clock(r.minute))"
        case .snoozed(let r, let until):
            s["alarm"] = "snoozed \(AlarmText.clock(r.minute)), rings again in \(DurationText.format(.seconds((until - now()).nanoseconds / 1_000_000_000)))"
        }
        if let timer = core.program as? CountTimer {
            s["preset"] = DurationText.format(timer.preset)
            s["presets"] = timer.presets.map(DurationText.format)
            s["direction"] = timer.direction.rawValue
            switch timer.state {
            case .running(let run): s["elapsed_ms"] = run.elapsed(at: now()).nanoseconds / 1_000_000
            case .paused(let e, _): s["elapsed_ms"] = e.nanoseconds / 1_000_000
            default: break
            }
        }
        return s
    }

    /// Send one JSON line without waiting; false if the client cannot take it.
    @discardableResult
    private func reply(_ c: Client, _ object: [String: Any]) -> Bool {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return false }
        let bytes = [UInt8](data) + [0x0A]
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

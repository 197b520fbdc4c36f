import Foundation
import Glibc
import Testing

/// The real `tock run` against clients that hold connections open, and
/// against a second instance or a foreign file at its paths.
@Suite(.serialized) struct ControlSocketProcessTests {
    typealias Service = ServiceProcessTests.Service
    typealias Client = ServiceProcessTests.Client

    /// Whether `client`'s connection ends (end of file) within its 3 s
    /// receive timeout, after at most one reply line.
    static func closes(_ client: Client, saying text: String) -> Bool {
        guard client.line()?.contains(text) == true else { return false }
        var byte: UInt8 = 0
        return read(client.fd, &byte, 1) == 0
    }

    /// Sixteen connections that send nothing fill every slot; the command
    /// line still gets in, and the connection idle longest makes room.
    @Test func silentConnectionsNeverLockOutTheCommandLine() throws {
        let svc = try Service()
        try svc.start(controlTimeout: "3s")
        defer { svc.kill(SIGTERM) }
        let silent = try (0..<16).map { _ in try Client(svc.socket) }
        let r = try runTock(["status", "--socket", svc.socket, "--timeout", "2s"])
        #expect(r.status == 0 && r.stdout.hasPrefix("ready"), "\(r.status) \(r.stdout) \(r.stderr)")
        #expect(Self.closes(silent[0], saying: "make room"))
        print("tock status with 16 silent connections held: exit \(r.status) after \(r.milliseconds) ms")
    }

    /// Every phase of a connection is bounded: nothing sent at all, and
    /// nothing sent after a request was answered. A watcher is exempt.
    @Test func idleConnectionsAreClosedAfterTheLimit() throws {
        let svc = try Service()
        try svc.start(controlTimeout: "1s")
        defer { svc.kill(SIGTERM) }
        let t0 = monotonicMilliseconds()
        let silent = try Client(svc.socket)
        let watcher = try Client(svc.socket)
        #expect(watcher.request(#"{"cmd":"watch"}"#)["state"] as? String == "ready")
        let answered = try Client(svc.socket)
        #expect(answered.request(#"{"cmd":"status"}"#)["state"] as? String == "ready")
        #expect(Self.closes(silent, saying: "no request within 1s"))
        print("a silent connection closed after \(monotonicMilliseconds() - t0) ms (limit 1 s)")
        #expect(Self.closes(answered, saying: "no request within 1s"))
        // Past the limit, the watcher is still there and told of a change.
        #expect(try Client(svc.socket).request(#"{"cmd":"start"}"#)["state"] as? String == "running")
        var running = false
        while let l = watcher.line() {
            if l.contains("\"running\"") { running = true; break }
        }
        #expect(running)
    }

    @Test func aFileAtTheSocketPathIsNeverRemoved() throws {
        let svc = try Service()
        try "keep me\n".write(toFile: svc.socket, atomically: false, encoding: .utf8)
        let r = try runTock(["run", "--backend", "mock", "--config", svc.dir + "/config.yaml", "--state", svc.state,
                             "--socket", svc.socket])
        #expect(r.returned && r.status != 0 && !r.signalled, "\(r.status) \(r.stderr)")
        #expect(r.stderr.contains("\(svc.socket) exists and is not a socket"), "\(r.stderr)")
        #expect((try? String(contentsOfFile: svc.socket, encoding: .utf8)) == "keep me\n")
    }

    /// A second instance on the same state file, or on the same socket,
    /// refuses to start and says who holds it; the first runs on.
    @Test func aSecondInstanceIsRefusedAndTheFirstKeepsAnswering() throws {
        let first = try Service()
        try first.start()
        defer { first.kill(SIGTERM) }
        let pid = first.process.processIdentifier
        let config = first.dir + "/config.yaml"

        let sameState = try runTock(["run", "--backend", "mock", "--config", config, "--state", first.state,
                                     "--socket", first.socket])
        #expect(sameState.returned && sameState.status != 0, "\(sameState.status) \(sameState.stderr)")
        #expect(sameState.stderr.contains("\(first.state) is in use by another tock (pid \(pid))"), "\(sameState.stderr)")
        #expect(try Client(first.socket).request(#"{"cmd":"status"}"#)["state"] as? String == "ready")

        let sameSocket = try runTock(["run", "--backend", "mock", "--config", config, "--state", first.dir + "/other.json",
                                      "--socket", first.socket])
        #expect(sameSocket.returned && sameSocket.status != 0, "\(sameSocket.status) \(sameSocket.stderr)")
        #expect(sameSocket.stderr.contains("\(first.socket) is in use"), "\(sameSocket.stderr)")
        #expect(try Client(first.socket).request(#"{"cmd":"status"}"#)["state"] as? String == "ready")
    }
}

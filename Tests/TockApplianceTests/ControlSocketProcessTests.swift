import Foundation
import Glibc
import Testing

/// The real `tock run` against clients that hold connections open.
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
    /// nothing sent after a request was answered.
    @Test func idleConnectionsAreClosedAfterTheLimit() throws {
        let svc = try Service()
        try svc.start(controlTimeout: "1s")
        defer { svc.kill(SIGTERM) }
        let t0 = monotonicMilliseconds()
        let silent = try Client(svc.socket)
        let answered = try Client(svc.socket)
        #expect(answered.request(#"{"cmd":"status"}"#)["state"] as? String == "ready")
        #expect(Self.closes(silent, saying: "no request within 1s"))
        print("a silent connection closed after \(monotonicMilliseconds() - t0) ms (limit 1 s)")
        #expect(Self.closes(answered, saying: "no request within 1s"))
        // A watcher is exempt while it reads: ServiceProcessTests'
        // aKilledServiceContinuesTheCountWhenStartedAgain holds one for
        // over a second against a 300 ms limit.
    }
}

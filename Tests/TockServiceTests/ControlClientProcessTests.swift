import Foundation
import Glibc
import Testing
import TockCore

/// The `tock` command-line client against peers that misbehave: each run
/// must end, within its `--timeout`, with a message on stderr and its
/// documented exit status (sysexits.h numbers, see `tock --help`).
@Suite(.serialized) struct ControlClientProcessTests {
    @Test func aPeerThatNeverRepliesIsATimeout() throws {
        let peer = FakePeer { c in FakePeer.holdUntilClosed(c) }
        let r = try runTock(["status", "--socket", peer.path, "--timeout", "300ms"])
        #expect(r.returned, "tock status still waiting after 5 s")
        #expect(r.status == 75 && !r.signalled, "\(r.status) \(r.stderr)")
        #expect(r.stderr.contains("no reply from \(peer.path) within 300ms"), "\(r.stderr)")
        print("tock status against a silent peer: exit \(r.status) after \(r.milliseconds) ms")
    }

    @Test func startAndWatchAgainstASilentPeerEnd() throws {
        for command in ["start", "watch"] {
            let peer = FakePeer { c in FakePeer.holdUntilClosed(c) }
            let r = try runTock([command, "--socket", peer.path, "--timeout", "300ms"])
            #expect(r.returned && r.status == 75, "tock \(command): \(r.status) \(r.stderr)")
            #expect(r.stderr.contains("no reply from \(peer.path) within 300ms"), "\(r.stderr)")
        }
    }

    @Test func aReplyWithoutNewlineIsATimeout() throws {
        let peer = FakePeer { c in
            FakePeer.readRequest(c)
            _ = FakePeer.send(c, #"{"ok":true,"state":"ready""#)
            FakePeer.holdUntilClosed(c)
        }
        let r = try runTock(["status", "--socket", peer.path, "--timeout", "300ms"])
        #expect(r.returned && r.status == 75 && !r.signalled, "\(r.status) \(r.stderr)")
        #expect(r.stderr.contains("reply from \(peer.path) not finished within 300ms"), "\(r.stderr)")
    }

    @Test func aPeerStreamingWithoutNewlinesIsRefusedAtTheLimit() throws {
        let peer = FakePeer { c in
            FakePeer.readRequest(c)
            let chunk = String(repeating: "x", count: 4096)
            while FakePeer.send(c, chunk) {}
        }
        let r = try runTock(["status", "--socket", peer.path, "--timeout", "5s"], limitMilliseconds: 10_000)
        #expect(r.returned && r.status == 76 && !r.signalled, "\(r.status) \(r.stderr)")
        #expect(r.stderr.contains("reply from \(peer.path) longer than 65536 bytes"), "\(r.stderr)")
        print("tock status against a peer streaming without newlines: exit \(r.status) after \(r.milliseconds) ms")
    }

    @Test func aPeerThatClosesIsReportedNotASignal() throws {
        let peer = FakePeer { _ in }  // accepts and closes at once
        let r = try runTock(["status", "--socket", peer.path, "--timeout", "1s"])
        #expect(r.returned && !r.signalled && r.status == 74, "\(r.status) signalled \(r.signalled) \(r.stderr)")
        #expect(r.stderr.contains("the service closed the connection"), "\(r.stderr)")
    }

    /// watch waits for events as long as it takes, but a line stalled
    /// halfway is reported, and so is the service going away.
    @Test func watchReportsAStalledLineAndAClosedPeer() throws {
        let stalls = FakePeer { c in
            FakePeer.readRequest(c)
            _ = FakePeer.send(c, #"{"ok":true,"state":"ready"}"# + "\n" + #"{"display":"00"#)
            FakePeer.holdUntilClosed(c)
        }
        let r = try runTock(["watch", "--socket", stalls.path, "--timeout", "300ms"])
        #expect(r.returned && r.status == 75, "\(r.status) \(r.stderr)")
        #expect(r.stdout.hasPrefix("ready, display \"\""), "\(r.stdout)")
        #expect(r.stderr.contains("not finished within 300ms"), "\(r.stderr)")

        let closes = FakePeer { c in
            FakePeer.readRequest(c)
            _ = FakePeer.send(c, #"{"ok":true,"state":"ready","display":"05:00","alarms":[{"at":"06:45"}]}"# + "\n"
                + #"{"state":"running","alarm":{"ringing":true}}"# + "\n")
        }
        let e = try runTock(["watch", "--socket", closes.path, "--timeout", "300ms"])
        #expect(e.returned && e.status == 74 && !e.signalled, "\(e.status) \(e.stderr)")
        // Every line reads as text: the snapshot as `tock status` says it,
        // an event's nested object as compact JSON on the same line.
        #expect(e.stdout == "ready, display \"05:00\"\n" + #"alarm={"ringing":true} state=running"# + "\n", "\(e.stdout)")
        #expect(e.stderr.contains("the service closed the connection"), "\(e.stderr)")
    }

    /// The real service, stopped with SIGSTOP: the kernel still completes
    /// the connection (the listen backlog), so only a timeout ends the wait.
    @Test func aStoppedServiceIsATimeoutNamingSIGSTOP() throws {
        let svc = try ServiceProcessTests.Service()
        try svc.start()
        defer { svc.kill(SIGTERM) }
        kill(svc.process.processIdentifier, SIGSTOP)
        let r = try runTock(["status", "--socket", svc.socket, "--timeout", "300ms"])
        kill(svc.process.processIdentifier, SIGCONT)
        #expect(r.returned && r.status == 75, "\(r.status) \(r.stderr)")
        #expect(r.stderr.contains("SIGSTOP"), "\(r.stderr)")
        let again = try runTock(["status", "--socket", svc.socket])
        #expect(again.status == 0 && again.stdout.hasPrefix("ready"), "\(again.status) \(again.stdout) \(again.stderr)")
    }

    /// `tock silence` reaches the real service, which refuses it while
    /// nothing rings (the count stays ready). Silencing a ring is the
    /// socket's `silence` request, tested on virtual time
    /// (`TimerSelectOnMqttTests`, `ControlService`).
    @Test func silenceReachesTheServiceAndIsRefusedWhileNothingRings() throws {
        let svc = try ServiceProcessTests.Service()
        try svc.start()
        defer { svc.kill(SIGTERM) }
        let quiet = try runTock(["silence", "--socket", svc.socket])
        #expect(quiet.status == 1 && quiet.stderr.contains("ring"), "\(quiet.status) \(quiet.stdout) \(quiet.stderr)")
        #expect(try runTock(["status", "--socket", svc.socket]).stdout.hasPrefix("ready"))
    }

    @Test func noServiceIsUnreachable() throws {
        let r = try runTock(["status", "--socket", NSTemporaryDirectory() + "tock-none.sock"])
        #expect(r.status == 69, "\(r.status) \(r.stderr)")
        #expect(r.stderr.contains("cannot reach tock at"), "\(r.stderr)")
    }
}

/// Every mode reaches the command line: its help and completion list the
/// cases of `Settings.Mode`, and `tock mode` sends each as the socket's
/// request; a name that is none is refused before anything is sent.
@Suite(.serialized) struct ModeOnTheCommandLineTests {
    static let modes = Settings.Mode.allCases.map(\.rawValue)

    @Test func theHelpListsEveryModeAndEachIsSent() throws {
        let help = try runTock(["mode", "--help"])
        for mode in Self.modes { #expect(help.stdout.contains(mode), "\(help.stdout)") }
        for mode in Self.modes {
            let peer = FakePeer { c in
                var buf = [UInt8](repeating: 0, count: 4096)
                let n = read(c, &buf, buf.count)
                let asked = String(decoding: buf.prefix(max(0, n)), as: UTF8.self) == #"{"cmd":"mode","mode":"\#(mode)"}"# + "\n"
                _ = FakePeer.send(c, asked ? #"{"ok":true,"state":"ready","display":"00:00","buzzer":false,"mode":"\#(mode)"}"# + "\n"
                                           : #"{"ok":false,"error":"not the request for \#(mode)"}"# + "\n")
                FakePeer.holdUntilClosed(c)
            }
            let r = try runTock(["mode", mode, "--socket", peer.path, "--timeout", "2s"])
            #expect(r.status == 0 && r.stdout.contains("mode \(mode)"), "\(r.status) \(r.stdout) \(r.stderr)")
        }
        let egg = try runTock(["mode", "egg"])
        #expect(egg.status == 64 && Self.modes.allSatisfy { egg.stderr.contains($0) }, "\(egg.stderr)")
    }
}

import Foundation
import Glibc
import Testing

/// The real `tock run` process on the mock backend, driven over its real
/// control socket: requests, bad clients, SIGKILL and restart. Real time,
/// bounded: every wait is a blocking read with a timeout, about 3 s in all.
@Suite(.serialized) struct ServiceProcessTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let binary = root.appendingPathComponent(".build/debug/tock").path

    final class Service {
        let dir: String
        let process = Process()
        var socket: String { dir + "/control.sock" }
        var state: String { dir + "/state.json" }

        init(dir: String? = nil, config: String = "timer: {presets: [10s]}\n") throws {
            self.dir = dir ?? NSTemporaryDirectory() + "tock-svc-\(UUID().uuidString.prefix(8))"
            try FileManager.default.createDirectory(atPath: self.dir, withIntermediateDirectories: true)
            try config.write(toFile: self.dir + "/config.yaml", atomically: true, encoding: .utf8)
        }

        /// The log up to ready, and the rest once the process has exited.
        private(set) var startLog = ""
        private(set) var stderr = ""
        private let log = Pipe()

        /// `controlTimeout`: long enough by default that a test process
        /// descheduled between connecting and asking is not closed as idle.
        func start(_ extra: [String] = [], controlTimeout: String = "2s") throws {
            process.executableURL = URL(fileURLWithPath: ServiceProcessTests.binary)
            process.arguments = ["run", "--backend", "mock", "--config", dir + "/config.yaml", "--state", state,
                                 "--socket", socket, "--control-timeout", controlTimeout] + extra
            process.standardError = log
            try process.run()
            // Ready when it says so (its log line follows READY=1); the
            // read blocks, nothing polls.
            var text = ""
            while !text.contains("ready:") {
                let chunk = log.fileHandleForReading.availableData
                guard !chunk.isEmpty else { Issue.record("tock run exited before ready: \(text)"); return }
                text += String(decoding: chunk, as: UTF8.self)
            }
            startLog = text
        }

        func kill(_ signal: Int32) {
            Glibc.kill(process.processIdentifier, signal)
            process.waitUntilExit()
            stderr = String(decoding: log.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        }
    }

    /// A blocking client with a receive timeout.
    final class Client {
        let fd: Int32

        init(_ path: String) throws {
            fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            var addr = sockaddr_un()
            addr.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &addr.sun_path) { raw in
                for (i, b) in path.utf8.enumerated() { raw[i] = b }
            }
            let r = withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            guard r == 0 else { close(fd); throw POSIXError(.ECONNREFUSED) }
            var tv = timeval(tv_sec: 3, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        }

        deinit { close(fd) }

        /// MSG_NOSIGNAL: a connection the service has closed is an error
        /// here, not a SIGPIPE that ends the whole test run.
        func send(_ text: String) { _ = text.withCString { Glibc.send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) } }

        /// One reply line, or nil at end of stream / timeout.
        func line() -> String? {
            var out: [UInt8] = []
            var byte: UInt8 = 0
            while read(fd, &byte, 1) == 1 {
                if byte == 0x0A { return String(decoding: out, as: UTF8.self) }
                out.append(byte)
            }
            return nil
        }

        func request(_ json: String) -> [String: Any] {
            send(json + "\n")
            guard let l = line(), let o = try? JSONSerialization.jsonObject(with: Data(l.utf8)) as? [String: Any] else { return [:] }
            return o
        }
    }

    @Test func requestsAndBadClientsNeverDisturbTheTimer() throws {
        let svc = try Service()
        try svc.start(controlTimeout: "1s")
        defer { svc.kill(SIGTERM) }
        let c = try Client(svc.socket)
        #expect(c.request(#"{"cmd":"status"}"#)["state"] as? String == "ready")
        #expect(c.request(#"{"cmd":"start"}"#)["state"] as? String == "running")

        // Garbage gets an error reply and the connection stays usable.
        let bad = c.request("garbage")
        #expect(bad["ok"] as? Bool == false)
        #expect(c.request(#"{"cmd":"status","x":1}"#)["error"] as? String == "unknown field \"x\" for status")
        #expect(c.request(#"{"cmd":"set","duration":"1m"}"#)["error"] as? String == "the timer is running; stop and reset it first")

        // Oversized: an error, then the server closes the connection.
        let big = try Client(svc.socket)
        big.send(String(repeating: "x", count: 2000))
        #expect(big.line()?.contains("longer than 1024 bytes") == true)
        #expect(big.line() == nil)

        // Half-open: a request never finished is dropped after the limit.
        let slow = try Client(svc.socket)
        slow.send(#"{"cmd":"sta"#)
        #expect(slow.line()?.contains("not finished") == true)
        #expect(slow.line() == nil)

        // Through all of it the count ran on. (`c` has been idle as long
        // as the limit meanwhile, and closed: a new connection asks.)
        let s = try Client(svc.socket).request(#"{"cmd":"status"}"#)
        #expect(s["state"] as? String == "running")
        #expect((s["elapsed_ms"] as? Int ?? 0) >= 1000)
    }

    /// SIGKILL mid count-down, start again: the count continues from where
    /// it should be, from the state file alone. Each status is bracketed by
    /// the instants before its request and after its reply, so the elapsed
    /// time between the two reports must lie between the shortest and the
    /// longest interval those brackets allow (give or take the replies'
    /// whole milliseconds), however slow the machine is.
    @Test func aKilledServiceContinuesTheCountWhenStartedAgain() throws {
        let svc = try Service()
        try svc.start()
        let c = try Client(svc.socket)
        let watcher = try Client(svc.socket)
        _ = watcher.request(#"{"cmd":"watch"}"#)
        _ = c.request(#"{"cmd":"start"}"#)
        // Let it count to its first display flip (about a second).
        while let l = watcher.line(), !l.contains("00:09") {}
        let first = try Client(svc.socket)
        let sentFirst = Date()
        let before = first.request(#"{"cmd":"status"}"#)
        let gotFirst = Date()
        svc.kill(SIGKILL)

        let again = try Service(dir: svc.dir)
        try again.start()
        defer { again.kill(SIGTERM) }
        let second = try Client(again.socket)
        let sentSecond = Date()
        let after = second.request(#"{"cmd":"status"}"#)
        let gotSecond = Date()
        #expect(after["state"] as? String == "running")
        let e1 = before["elapsed_ms"] as? Int ?? -1, e2 = after["elapsed_ms"] as? Int ?? -1
        let shortest = Int(sentSecond.timeIntervalSince(gotFirst) * 1000) - 2
        let longest = Int(gotSecond.timeIntervalSince(sentFirst) * 1000) + 2
        print("restart: elapsed \(e1) ms -> \(e2) ms; between the reports \(shortest + 2)...\(longest - 2) ms passed")
        #expect(e1 >= 1000)
        #expect(e2 - e1 >= shortest && e2 - e1 <= longest)
    }

    /// `--mock-input`: a press written to the named pipe, with its
    /// CLOCK_MONOTONIC stamp, starts the count after the debounce; garbage
    /// on the pipe is logged and changes nothing. `--timing-log` records
    /// the edge, and the debounce deadline (edge + 20 ms) with the instant
    /// the loop woke for it.
    @Test func aPressOnTheMockInputPipeStartsTheCountAndIsTimed() throws {
        let svc = try Service()
        let fifo = svc.dir + "/input", timing = svc.dir + "/timing.log"
        #expect(mkfifo(fifo, 0o600) == 0)
        try svc.start(["--mock-input", fifo, "--timing-log", timing])
        let watcher = try Client(svc.socket)
        _ = watcher.request(#"{"cmd":"watch"}"#)
        let w = open(fifo, O_WRONLY | O_NONBLOCK)
        defer { close(w) }
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        let stamp = Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
        _ = "garbage here\nstart 1 \(stamp)\n".withCString { write(w, $0, strlen($0)) }
        var running = false
        while let l = watcher.line() {
            if l.contains("\"running\"") { running = true; break }
        }
        #expect(running)
        svc.kill(SIGTERM)
        #expect(svc.stderr.contains("line 1: unknown line \"garbage\", ignored; expected"))

        let lines = try String(contentsOfFile: timing, encoding: .utf8).split(separator: "\n").map { $0.split(separator: " ") }
        #expect(lines.contains { $0.first == "ready" })
        let edge = lines.first { $0.first == "edge" }
        #expect(edge?[1] == "start" && edge?[2] == "1")
        // Converted to the boot-time clock and back: equal within a microsecond.
        #expect(abs((edge.flatMap { Int64($0[3]) } ?? 0) - stamp) < 1_000)
        let settle = lines.first { $0.first == "wake" }.flatMap { w in Int64(w[1]).flatMap { d in Int64(w[2]).map { (d, $0) } } }
        #expect(abs((settle?.0 ?? 0) - (stamp + 20_000_000)) < 1_000)
        #expect((settle?.1 ?? 0) >= (settle?.0 ?? 1))
    }

    @Test func aCorruptStateFileStartsClean() throws {
        let svc = try Service()
        try "{\"version\":1,\"snapshot\":{\"mode\":\"tim".write(toFile: svc.state, atomically: true, encoding: .utf8)
        try svc.start()
        defer { svc.kill(SIGTERM) }
        #expect(try Client(svc.socket).request(#"{"cmd":"status"}"#)["state"] as? String == "ready")
    }

    @Test func alarmsEditedOverTheSocketSurviveAKill() throws {
        let svc = try Service(config: "timer: {presets: [10s]}\nalarms: [{at: \"06:45\", days: mon-fri}]\n")
        try svc.start()
        let c = try Client(svc.socket)
        let added = c.request(#"{"cmd":"alarm","op":"add","at":"7:30","days":"sat,sun","label":"gym"}"#)
        #expect((added["alarms"] as? [[String: Any]])?.map { $0["at"] as? String } == ["06:45", "07:30"])
        #expect(c.request(#"{"cmd":"alarm","op":"off","n":1}"#)["ok"] as? Bool == true)
        #expect(c.request(#"{"cmd":"alarm","op":"rm","n":5}"#)["error"] as? String == "no alarm 5; they are numbered 1 to 2 (tock alarm list)")
        #expect(c.request(#"{"cmd":"alarm","op":"add","at":"25:00"}"#)["error"] as? String == "\"25:00\" is not a time of day; write HH:MM (24-hour), e.g. 06:45")
        svc.kill(SIGKILL)
        let again = try Service(dir: svc.dir, config: "timer: {presets: [10s]}\nalarms: [{at: \"06:45\", days: mon-fri}]\n")
        try again.start()
        defer { again.kill(SIGTERM) }
        let list = try Client(again.socket).request(#"{"cmd":"alarm","op":"list"}"#)["alarms"] as? [[String: Any]] ?? []
        #expect(list.map { $0["at"] as? String } == ["06:45", "07:30"])
        #expect(list.map { $0["enabled"] as? Bool } == [false, true])
        #expect(list.map { $0["days"] as? String } == ["weekdays", "weekends"])
        #expect(list.last?["label"] as? String == "gym")
    }

    @Test func aVersionOneStateFileStillLoads() throws {
        let svc = try Service()
        let since = Int64(Date().timeIntervalSince1970 * 1e9) - 3_000_000_000
        try """
            {"snapshot":{"direction":"down","fileMode":"timer","mode":"timer","phase":{"running":{"before":0,"since":\(since)}},"presetIndex":0,"presets":[10000000000]},"version":1}
            """.write(toFile: svc.state, atomically: true, encoding: .utf8)
        try svc.start()
        defer { svc.kill(SIGTERM) }
        let s = try Client(svc.socket).request(#"{"cmd":"status"}"#)
        #expect(s["state"] as? String == "running")
        #expect((s["elapsed_ms"] as? Int ?? 0) >= 3000)
    }
}

import Foundation
import Glibc
import Testing

/// Milliseconds on CLOCK_MONOTONIC, for bounded waits and measured figures.
func monotonicMilliseconds() -> Int {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Int(ts.tv_sec) * 1000 + Int(ts.tv_nsec) / 1_000_000
}

/// A `tock` process run to its end, or killed when it did not end in time.
struct Finished {
    var status: Int32
    var signalled: Bool
    var stdout: String
    var stderr: String
    /// False when the process had to be killed after the limit.
    var returned: Bool
    var milliseconds: Int
}

/// Runs `.build/debug/tock` with `arguments` and waits for it to exit, at
/// most `limitMilliseconds`: the wait is poll(2) on its stderr pipe, which
/// reaches end of file when the process exits. A process still running at
/// the limit is killed and reported as not returned.
func runTock(_ arguments: [String], limitMilliseconds: Int = 5000) throws -> Finished {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: ServiceProcessTests.binary)
    process.arguments = arguments
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    let t0 = monotonicMilliseconds()
    try process.run()
    let fd = err.fileHandleForReading.fileDescriptor
    var errBytes: [UInt8] = []
    var returned = false
    while true {
        let left = limitMilliseconds - (monotonicMilliseconds() - t0)
        guard left > 0 else { break }
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&p, 1, Int32(left)) > 0 else { continue }
        var chunk = [UInt8](repeating: 0, count: 4096)
        let n = read(fd, &chunk, chunk.count)
        if n <= 0 { returned = true; break }
        errBytes += chunk[..<n]
    }
    if !returned { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
    let elapsed = monotonicMilliseconds() - t0
    return Finished(status: process.terminationStatus, signalled: process.terminationReason == .uncaughtSignal,
                    stdout: String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
                    stderr: String(decoding: errBytes, as: UTF8.self), returned: returned, milliseconds: elapsed)
}

/// A Unix listener in the test process standing in for the service: it
/// accepts one connection and behaves as told, on its own thread.
final class FakePeer {
    let path: String
    private let listener: Int32

    /// `behave` gets the accepted connection; it is closed when `behave`
    /// returns.
    init(_ behave: @escaping @Sendable (Int32) -> Void) {
        path = NSTemporaryDirectory() + "tock-peer-\(UUID().uuidString.prefix(8)).sock"
        listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            for (i, b) in path.utf8.enumerated() { raw[i] = b }
        }
        _ = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        listen(listener, 4)
        let l = listener
        Thread.detachNewThread {
            let c = accept(l, nil, nil)
            guard c >= 0 else { return }
            behave(c)
            close(c)
        }
    }

    deinit {
        // Wakes an accept(2) still waiting (Linux), then releases the socket.
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        unlink(path)
    }

    /// Reads the request line (one read is enough for a short request).
    static func readRequest(_ c: Int32) {
        var buf = [UInt8](repeating: 0, count: 4096)
        _ = read(c, &buf, buf.count)
    }

    /// Waits until the client goes away: a blocking read returns 0.
    static func holdUntilClosed(_ c: Int32) {
        var buf = [UInt8](repeating: 0, count: 4096)
        while read(c, &buf, buf.count) > 0 {}
    }

    static func send(_ c: Int32, _ text: String) -> Bool {
        text.withCString { Glibc.send(c, $0, strlen($0), Int32(MSG_NOSIGNAL)) } >= 0
    }
}

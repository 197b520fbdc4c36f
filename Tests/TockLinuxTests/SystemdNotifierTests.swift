import Foundation
import Glibc
import SystemPackage
import Testing
@testable import TockLinux

/// The notify protocol against a real listening datagram socket.
@Suite struct SystemdNotifierTests {
    func listener(_ path: String) throws -> FileDescriptor {
        let fd = try Syscall.unixSocket(CInt(SOCK_DGRAM.rawValue))
        try Syscall.bind(fd, to: path)
        return fd
    }

    func receive(_ fd: FileDescriptor) throws -> String {
        var buf = [UInt8](repeating: 0, count: 4096)
        let n = try buf.withUnsafeMutableBytes { try Syscall.read(fd, into: $0) } ?? 0
        return String(decoding: buf[..<n], as: UTF8.self)
    }

    @Test func sendsAssignmentsAsOneDatagram() throws {
        let path = NSTemporaryDirectory() + "tock-notify-\(getpid())-\(UUID().uuidString.prefix(8)).sock"
        let fd = try listener(path)
        defer { Syscall.close(fd); unlink(path) }
        let n = SystemdNotifier(environment: ["NOTIFY_SOCKET": path])
        try n.notify(["READY=1", "STATUS=ready, 05:00\nsecond line"])
        #expect(try receive(fd) == "READY=1\nSTATUS=ready, 05:00 second line")
        try n.notify(["WATCHDOG=1"])
        #expect(try receive(fd) == "WATCHDOG=1")
    }

    @Test func theAbstractNamespaceWorksToo() throws {
        let name = "@tock-notify-test-\(getpid())"
        let fd = try listener(name)
        defer { Syscall.close(fd) }
        try SystemdNotifier(environment: ["NOTIFY_SOCKET": name]).notify(["STOPPING=1"])
        #expect(try receive(fd) == "STOPPING=1")
    }

    /// A manager that stops reading must not stop the loop: once its queue
    /// is full, a notification is dropped with `wouldBlock` instead of
    /// blocking (which would freeze the timer until it read again).
    @Test func aManagerThatDoesNotReadNeverBlocksTheSender() throws {
        let path = NSTemporaryDirectory() + "tock-notify-full-\(getpid())-\(UUID().uuidString.prefix(8)).sock"
        let fd = try listener(path)
        defer { Syscall.close(fd); unlink(path) }
        let n = SystemdNotifier(environment: ["NOTIFY_SOCKET": path])
        var dropped = 0
        var sent = 0
        // The queue of an AF_UNIX datagram socket holds net.unix.max_dgram_qlen
        // (default 512) datagrams at most: 5,000 overflow it.
        for i in 0..<5_000 {
            do {
                try n.notify(["STATUS=\(i)"])
                sent += 1
            } catch {
                #expect(error == .wouldBlock)
                dropped += 1
            }
        }
        #expect(sent > 0)
        #expect(dropped > 0)
        #expect(try receive(fd) == "STATUS=0")
    }

    @Test func outsideSystemdItDoesNothing() throws {
        let n = SystemdNotifier(environment: [:])
        #expect(!n.isActive && n.watchdogInterval == nil)
        try n.notify(["READY=1"])
    }

    @Test func theWatchdogIntervalIsHalfOfWatchdogUsec() {
        #expect(SystemdNotifier(environment: ["WATCHDOG_USEC": "10000000"]).watchdogInterval == .seconds(5))
        #expect(SystemdNotifier(environment: ["WATCHDOG_USEC": "10000000", "WATCHDOG_PID": "1"]).watchdogInterval == nil)
    }

    @Test func variablesAreReadByNameAndALaterValueReplacesAnEarlierOne() {
        setenv("TOCK_TEST_ONE", "1", 1)
        unsetenv("TOCK_TEST_UNSET")
        defer { unsetenv("TOCK_TEST_ONE") }
        let v = Environment.variables("TOCK_TEST_ONE", "TOCK_TEST_UNSET", "TOCK_TEST_ONE")
        #expect(v["TOCK_TEST_ONE"] == "1" && v["TOCK_TEST_UNSET"] == nil)
        #expect(v == ["TOCK_TEST_ONE": "1"])
        let literal: Environment.Variables = ["A": "1", "B": "2", "A": "3"]
        #expect(literal["A"] == "3" && literal["B"] == "2" && literal["C"] == nil)
        #expect(literal != ["A": "1", "B": "2"])
    }
}

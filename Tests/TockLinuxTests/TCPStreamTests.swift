import Foundation
import Glibc
import SystemPackage
import Testing
@testable import TockLinux

/// tock-web's listener and connections on loopback: nothing blocks without
/// a deadline, and shutdown(2) wakes the thread waiting on a connection.
@Suite struct TCPStreamTests {
    /// A plain client socket connected to `port`.
    static func client(_ port: UInt16) throws -> FileDescriptor {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var a = sockaddr_in()
        a.sin_family = sa_family_t(AF_INET)
        a.sin_port = port.bigEndian
        a.sin_addr.s_addr = inet_addr("127.0.0.1")
        let r = withUnsafePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        #expect(r == 0)
        return FileDescriptor(rawValue: fd)
    }

    @Test func acceptReadSendAndEndOfStream() throws {
        let listener = try TCPListener(host: "127.0.0.1", port: 0)
        defer { listener.close() }
        #expect(listener.port != 0)
        #expect(try listener.accept() == nil, "nothing pending: nil, not a wait")
        let c = try Self.client(listener.port)
        #expect(try listener.waitForConnection(milliseconds: 1000))
        let server = try #require(try listener.accept())
        defer { server.close() }
        #expect(try server.read(max: 16) == nil, "nothing sent yet: nil, not a wait")
        #expect(try server.waitReadable(milliseconds: 10) == false)
        _ = try c.writeAll(Array("ping".utf8))
        #expect(try server.waitReadable(milliseconds: 1000))
        #expect(try server.read(max: 16) == Array("ping".utf8))
        #expect(try server.send(Array("pong".utf8)[...]) == 4)
        var reply = [UInt8](repeating: 0, count: 4)
        #expect(recv(c.rawValue, &reply, 4, Int32(MSG_WAITALL)) == 4)
        #expect(reply == Array("pong".utf8))
        try c.close()
        #expect(try server.waitReadable(milliseconds: 1000))
        #expect(try server.read(max: 16) == [], "end of stream")
    }

    /// A peek leaves the bytes for the next read; nothing pending is nil.
    @Test func peekLeavesTheBytesInPlace() throws {
        let listener = try TCPListener(host: "127.0.0.1", port: 0)
        defer { listener.close() }
        let c = try Self.client(listener.port)
        defer { try? c.close() }
        #expect(try listener.waitForConnection(milliseconds: 1000))
        let server = try #require(try listener.accept())
        defer { server.close() }
        #expect(server.peek(max: 16) == nil)
        _ = try c.writeAll(Array("GET / HTTP/1.1\r\n".utf8))
        #expect(try server.waitReadable(milliseconds: 1000))
        #expect(server.peek(max: 3) == Array("GET".utf8))
        #expect(server.peek(max: 64) == Array("GET / HTTP/1.1\r\n".utf8))
        #expect(try server.read(max: 64) == Array("GET / HTTP/1.1\r\n".utf8))
        #expect(server.peek(max: 16) == nil)
    }

    @Test func shutdownWakesTheWaiterAndKeepsTheDescriptor() throws {
        let listener = try TCPListener(host: "127.0.0.1", port: 0)
        defer { listener.close() }
        let c = try Self.client(listener.port)
        defer { try? c.close() }
        #expect(try listener.waitForConnection(milliseconds: 1000))
        let server = try #require(try listener.accept())
        server.shutdown()
        #expect(try server.waitReadable(milliseconds: 1000))
        #expect(try server.read(max: 16) == [])
        #expect(fcntl(server.descriptor.rawValue, F_GETFD) != -1, "still open until close")
        server.close()
    }

    @Test func aNameIsNotAnAddress() {
        #expect(throws: Errno.invalidArgument) { try TCPListener(host: "localhost", port: 0) }
    }
}

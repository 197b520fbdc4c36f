import Glibc
import SystemPackage

/// A listening TCP socket (tock-web's): non-blocking, so that the thread
/// that accepts waits in poll(2) and can be stopped.
public final class TCPListener: @unchecked Sendable {
    public let descriptor: FileDescriptor
    /// The port bound (the one asked for, or the kernel's choice for 0).
    public let port: UInt16
    private var isClosed = false

    /// Listen on `host` (numeric IPv4 or IPv6; `::` takes IPv4 too); with
    /// `device`, only for connections that come in on that interface.
    public init(host: String, port: UInt16, backlog: CInt = 64, device: String? = nil) throws(Errno) {
        let family = host.contains(":") ? AF_INET6 : AF_INET
        let fd = try Syscall.tcpSocket(family)
        do throws(Errno) {
            try Syscall.setOption(fd, SOL_SOCKET, SO_REUSEADDR, 1)
            if let device { try Syscall.bindToDevice(fd, device) }
            if family == AF_INET6 { try Syscall.setOption(fd, CInt(IPPROTO_IPV6), IPV6_V6ONLY, 0) }
            try Syscall.bind(fd, host: host, port: port, family: family)
            try Syscall.listen(fd, backlog: backlog)
            self.port = try Syscall.localPort(fd)
        } catch {
            Syscall.close(fd)
            throw error
        }
        descriptor = fd
    }

    /// Wait at most `milliseconds` for a connection to be pending.
    public func waitForConnection(milliseconds: Int) throws(Errno) -> Bool {
        try Syscall.wait(descriptor, for: Int16(POLLIN), timeoutMilliseconds: CInt(clamping: milliseconds))
    }

    /// A pending connection, or nil. Running out of descriptors (`EMFILE`,
    /// `ENFILE`) or memory is thrown: the connection stays queued.
    public func accept() throws(Errno) -> TCPConnection? {
        try Syscall.acceptTCP(descriptor).map(TCPConnection.init(descriptor:))
    }

    public func close() {
        guard !isClosed else { return }
        isClosed = true
        Syscall.close(descriptor)
    }

    deinit { close() }
}

/// One accepted TCP connection, closed exactly once: reads and writes
/// that never block, and waits bounded by the caller's deadline.
public final class TCPConnection: @unchecked Sendable {
    public let descriptor: FileDescriptor
    public private(set) var isClosed = false
    /// Who connected: an IPv4 address (dotted quad) or an IPv6 one (eight
    /// groups of hex), its network (the IPv4 /24 or IPv6 /64), and whether
    /// it is this machine ("" and false when unknown).
    public let peer: String
    public let peerNetwork: String
    public let peerIsLoopback: Bool

    init(descriptor: FileDescriptor) {
        self.descriptor = descriptor
        let p = Syscall.peerAddress(descriptor)
        peer = p?.address ?? ""
        peerNetwork = p?.network ?? ""
        peerIsLoopback = p?.loopback ?? false
    }

    /// Wait at most `milliseconds` for input, end of stream or an error.
    public func waitReadable(milliseconds: Int) throws(Errno) -> Bool {
        try Syscall.wait(descriptor, for: Int16(POLLIN), timeoutMilliseconds: CInt(clamping: max(0, milliseconds)))
    }

    /// Wait at most `milliseconds` for room to send.
    public func waitWritable(milliseconds: Int) throws(Errno) -> Bool {
        try Syscall.wait(descriptor, for: Int16(POLLOUT), timeoutMilliseconds: CInt(clamping: max(0, milliseconds)))
    }

    /// What is pending, at most `max` bytes: nil when nothing is, empty at
    /// end of stream.
    public func read(max: Int) throws(Errno) -> [UInt8]? {
        var buf = [UInt8](repeating: 0, count: max)
        let r = buf.withUnsafeMutableBytes { raw in Result { () throws(Errno) in try Syscall.receive(descriptor, into: raw) } }
        guard let n = try r.get() else { return nil }
        return Array(buf[..<n])
    }

    /// What is pending, at most `max` bytes, left in place for the next
    /// `read` (MSG_PEEK): nil when nothing is.
    public func peek(max: Int) -> [UInt8]? {
        var buf = [UInt8](repeating: 0, count: max)
        let r = buf.withUnsafeMutableBytes { raw in Result { () throws(Errno) in try Syscall.receive(descriptor, into: raw, peek: true) } }
        guard let n = try? r.get() else { return nil }
        return Array(buf[..<n])
    }

    /// Send what the peer takes now (never blocks, never SIGPIPE).
    public func send(_ bytes: ArraySlice<UInt8>) throws(Errno) -> Int {
        let r = bytes.withUnsafeBytes { raw in Result { () throws(Errno) in try Syscall.send(descriptor, raw) } }
        return try r.get() ?? 0
    }

    /// End both directions now, shutdown(2): the thread waiting on this
    /// connection wakes to end of stream and closes it. The descriptor
    /// stays open (no other connection can take its number) until `close`.
    public func shutdown() {
        guard !isClosed else { return }
        _ = Glibc.shutdown(descriptor.rawValue, CInt(SHUT_RDWR))
    }

    public func close() {
        guard !isClosed else { return }
        isClosed = true
        Syscall.close(descriptor)
    }

    deinit { close() }
}

import Glibc
import SystemPackage

/// TCP sockets for tock-web's listener. Same errno policy as the rest of
/// `Syscall`.
extension Syscall {
    /// `socket(family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0)`, socket(2).
    static func tcpSocket(_ family: CInt) throws(Errno) -> FileDescriptor {
        let type = CInt(SOCK_STREAM.rawValue) | CInt(SOCK_CLOEXEC.rawValue) | CInt(SOCK_NONBLOCK.rawValue)
        return FileDescriptor(rawValue: try check(retryOnInterrupt: false) { socket(family, type, 0) })
    }

    /// `setsockopt(fd, level, name, &value)` for an integer option, socket(7).
    static func setOption(_ fd: FileDescriptor, _ level: CInt, _ name: CInt, _ value: CInt) throws(Errno) {
        var v = value
        _ = try check(retryOnInterrupt: false) { setsockopt(fd.rawValue, level, name, &v, socklen_t(MemoryLayout<CInt>.size)) }
    }

    /// SO_BINDTODEVICE: only packets that came in on `device` reach the
    /// socket (no capability needed for a first binding since Linux 5.7).
    static func bindToDevice(_ fd: FileDescriptor, _ device: String) throws(Errno) {
        var name = Array(device.utf8CString)
        _ = try check(retryOnInterrupt: false) { setsockopt(fd.rawValue, SOL_SOCKET, SO_BINDTODEVICE, &name, socklen_t(name.count)) }
    }

    /// `bind(fd, address)`, bind(2), for an IPv4 or IPv6 numeric address.
    /// `EINVAL` when `host` is neither.
    static func bind(_ fd: FileDescriptor, host: String, port: UInt16, family: CInt) throws(Errno) {
        if family == AF_INET6 {
            var a = sockaddr_in6()
            a.sin6_family = sa_family_t(AF_INET6)
            a.sin6_port = port.bigEndian
            guard inet_pton(AF_INET6, host, &a.sin6_addr) == 1 else { throw Errno.invalidArgument }
            _ = try check(retryOnInterrupt: false) {
                withUnsafePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd.rawValue, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) } }
            }
        } else {
            var a = sockaddr_in()
            a.sin_family = sa_family_t(AF_INET)
            a.sin_port = port.bigEndian
            guard inet_pton(AF_INET, host, &a.sin_addr) == 1 else { throw Errno.invalidArgument }
            _ = try check(retryOnInterrupt: false) {
                withUnsafePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd.rawValue, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
            }
        }
    }

    /// The port a bound socket got, getsockname(2) (the same offset in
    /// `sockaddr_in` and `sockaddr_in6`).
    static func localPort(_ fd: FileDescriptor) throws(Errno) -> UInt16 {
        var a = sockaddr_in6()
        var length = socklen_t(MemoryLayout<sockaddr_in6>.size)
        _ = try check(retryOnInterrupt: false) {
            withUnsafeMutablePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd.rawValue, $0, &length) } }
        }
        return UInt16(bigEndian: a.sin6_port)
    }

    /// The peer's address, getpeername(2), and its network: IPv4 as dotted
    /// quad (also when it came mapped into IPv6) in its /24, IPv6 as eight
    /// groups of hex in its /64; nil when the peer is gone.
    static func peerAddress(_ fd: FileDescriptor) -> (address: String, network: String, loopback: Bool)? {
        var a = sockaddr_in6()
        var length = socklen_t(MemoryLayout<sockaddr_in6>.size)
        let r = withUnsafeMutablePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fd.rawValue, $0, &length) } }
        guard r == 0 else { return nil }
        if CInt(a.sin6_family) == AF_INET {
            return withUnsafeBytes(of: &a) { raw in
                let v4 = raw.load(fromByteOffset: 0, as: sockaddr_in.self)
                let b = withUnsafeBytes(of: v4.sin_addr) { Array($0) }
                return ("\(b[0]).\(b[1]).\(b[2]).\(b[3])", "\(b[0]).\(b[1]).\(b[2]).0/24", b[0] == 127)
            }
        }
        let b = withUnsafeBytes(of: a.sin6_addr) { Array($0) }
        if b[0..<10].allSatisfy({ $0 == 0 }), b[10] == 0xFF, b[11] == 0xFF {
            return ("\(b[12]).\(b[13]).\(b[14]).\(b[15])", "\(b[12]).\(b[13]).\(b[14]).0/24", b[12] == 127)
        }
        let loopback = b[0..<15].allSatisfy { $0 == 0 } && b[15] == 1
        let groups = stride(from: 0, to: 16, by: 2).map { String(UInt16(b[$0]) << 8 | UInt16(b[$0 + 1]), radix: 16) }
        return (groups.joined(separator: ":"), groups.prefix(4).joined(separator: ":") + "::/64", loopback)
    }

    /// `accept(fd, NULL, NULL)`, accept(2), on a non-blocking listener,
    /// the connection close-on-exec and blocking (its reads and writes wait
    /// in poll(2) with a deadline). Nil when no connection is pending (or
    /// it was reset before it was taken); `EMFILE`, `ENFILE`, `ENOBUFS`
    /// and `ENOMEM` are thrown for the caller to wait and retry.
    static func acceptTCP(_ fd: FileDescriptor) throws(Errno) -> FileDescriptor? {
        guard let c = try acceptPending(fd) else { return nil }
        _ = fcntl(c, F_SETFD, FD_CLOEXEC)
        return FileDescriptor(rawValue: c)
    }

    /// `poll({fd, events}, 1, timeout)`, poll(2): whether `events` (or an
    /// error, or hang-up) are pending within `timeoutMilliseconds`. `EINTR`
    /// answers false: the caller computes what is left of its deadline.
    static func wait(_ fd: FileDescriptor, for events: Int16, timeoutMilliseconds: CInt) throws(Errno) -> Bool {
        var p = pollfd(fd: fd.rawValue, events: events, revents: 0)
        do {
            return try check(retryOnInterrupt: false) { poll(&p, 1, timeoutMilliseconds) } > 0
        } catch where error == .interrupted {
            return false
        }
    }

    /// `recv(fd, buffer, MSG_DONTWAIT)`, recv(2): nil when nothing is
    /// pending, 0 at end of stream.
    static func receive(_ fd: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer, peek: Bool = false) throws(Errno) -> Int? {
        do throws(Errno) {
            let flags = CInt(MSG_DONTWAIT) | (peek ? CInt(MSG_PEEK) : 0)
            return try check(retryOnInterrupt: true) { recv(fd.rawValue, buffer.baseAddress, buffer.count, flags) }
        } catch {
            if error == .wouldBlock { return nil }
            throw error
        }
    }
}

import Glibc
import SystemPackage

/// Unix-domain sockets: the control socket and the service manager's
/// notification socket. Same errno policy as the rest of `Syscall`.
extension Syscall {
    // MARK: sockets

    /// `socket(AF_UNIX, type | SOCK_CLOEXEC, 0)`, socket(2).
    static func unixSocket(_ type: CInt) throws(Errno) -> FileDescriptor {
        let fd = try check(retryOnInterrupt: false) { socket(AF_UNIX, type | CInt(SOCK_CLOEXEC.rawValue), 0) }
        return FileDescriptor(rawValue: fd)
    }

    /// Fill a `sockaddr_un` for a path; a leading `@` is Linux's abstract
    /// namespace (unix(7)). `ENAMETOOLONG` when it does not fit.
    static func unixAddress(_ path: String) throws(Errno) -> (sockaddr_un, socklen_t) {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(path.utf8)
        if bytes.first == UInt8(ascii: "@") { bytes[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { throw Errno.fileNameTooLong }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
        let length = MemoryLayout<sa_family_t>.size + bytes.count + (bytes.first == 0 ? 0 : 1)
        return (address, socklen_t(length))
    }

    /// `sendto(fd, bytes, MSG_NOSIGNAL | MSG_DONTWAIT, address)`, sendto(2),
    /// for datagrams. Never blocks: `EAGAIN` (the receiver's queue is full)
    /// is thrown as `wouldBlock`.
    static func sendDatagram(_ fd: FileDescriptor, _ bytes: [UInt8], to path: String) throws(Errno) {
        var (address, length) = try unixAddress(path)
        _ = try check(retryOnInterrupt: true) {
            withUnsafePointer(to: &address) { p in
                p.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                    bytes.withUnsafeBytes { sendto(fd.rawValue, $0.baseAddress, $0.count, CInt(MSG_NOSIGNAL) | CInt(MSG_DONTWAIT), sa, length) }
                }
            }
        }
    }

    /// `bind(fd, address)`, bind(2).
    static func bind(_ fd: FileDescriptor, to path: String) throws(Errno) {
        var (address, length) = try unixAddress(path)
        _ = try check(retryOnInterrupt: false) {
            withUnsafePointer(to: &address) { p in
                p.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd.rawValue, $0, length) }
            }
        }
    }

    /// `listen(fd, backlog)`, listen(2).
    static func listen(_ fd: FileDescriptor, backlog: CInt) throws(Errno) {
        _ = try check(retryOnInterrupt: false) { Glibc.listen(fd.rawValue, backlog) }
    }

    /// `accept(fd, NULL, NULL)`, accept(2), then non-blocking and
    /// close-on-exec (Swift's Glibc module does not declare accept4); nil
    /// when no connection is pending.
    static func accept(_ fd: FileDescriptor) throws(Errno) -> FileDescriptor? {
        guard let c = try acceptPending(fd) else { return nil }
        let connection = FileDescriptor(rawValue: c)
        do throws(Errno) {
            try setNonBlocking(connection)
            _ = try check(retryOnInterrupt: false) { fcntl(c, F_SETFD, FD_CLOEXEC) }
        } catch {
            close(connection)
            throw error
        }
        return connection
    }

    /// `accept(fd, NULL, NULL)`, accept(2), retried on `EINTR`: the new
    /// descriptor, or nil when none is pending (or it was reset before it
    /// was taken); any other error is thrown.
    static func acceptPending(_ fd: FileDescriptor) throws(Errno) -> CInt? {
        do throws(Errno) {
            return try check(retryOnInterrupt: true) { Glibc.accept(fd.rawValue, nil, nil) }
        } catch {
            if error == .wouldBlock || error == .connectionAbort { return nil }
            throw error
        }
    }

    /// `connect(fd, address)`, connect(2).
    static func connect(_ fd: FileDescriptor, to path: String) throws(Errno) {
        var (address, length) = try unixAddress(path)
        _ = try check(retryOnInterrupt: false) {
            withUnsafePointer(to: &address) { p in
                p.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd.rawValue, $0, length) }
            }
        }
    }

    /// `setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, timeout)`, socket(7): how
    /// long a blocking write may wait for room, and a blocking connect(2)
    /// for a place in the listener's backlog (unix(7) uses the send
    /// timeout there), before failing with `EAGAIN`.
    static func setSendTimeout(_ fd: FileDescriptor, milliseconds: Int) throws(Errno) {
        var tv = timeval(tv_sec: milliseconds / 1000, tv_usec: (milliseconds % 1000) * 1000)
        _ = try check(retryOnInterrupt: false) {
            setsockopt(fd.rawValue, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        }
    }

    /// `poll({fd, POLLIN}, 1, timeout)`, poll(2): whether `fd` has input,
    /// end of file or an error pending within `timeoutMilliseconds` (-1:
    /// no limit). `EINTR` answers false rather than being retried with the
    /// same timeout: the caller computes what is left of its deadline.
    static func waitReadable(_ fd: FileDescriptor, timeoutMilliseconds: CInt) throws(Errno) -> Bool {
        var p = pollfd(fd: fd.rawValue, events: Int16(POLLIN), revents: 0)
        do {
            return try check(retryOnInterrupt: false) { poll(&p, 1, timeoutMilliseconds) } > 0
        } catch where error == .interrupted {
            return false
        }
    }

    /// `lstat(path)`, stat(2): the type bits (`st_mode & S_IFMT`) of `path`
    /// itself, never of what a symbolic link points to; nil when nothing
    /// is there. Before a socket path is taken over, this says whether it
    /// holds a socket at all.
    static func fileType(_ path: String) throws(Errno) -> mode_t? {
        var st = stat()
        do {
            _ = try check(retryOnInterrupt: false) { lstat(path, &st) }
        } catch where error == .noSuchFileOrDirectory {
            return nil
        }
        return st.st_mode & S_IFMT
    }

    /// `fcntl(fd, F_SETFL, flags | O_NONBLOCK)`, fcntl(2).
    static func setNonBlocking(_ fd: FileDescriptor) throws(Errno) {
        let flags = try check(retryOnInterrupt: false) { fcntl(fd.rawValue, F_GETFL) }
        _ = try check(retryOnInterrupt: false) { fcntl(fd.rawValue, F_SETFL, flags | O_NONBLOCK) }
    }

    /// `chmod(path, mode)`, chmod(2).
    static func chmod(_ path: String, _ mode: mode_t) throws(Errno) {
        _ = try check(retryOnInterrupt: false) { Glibc.chmod(path, mode) }
    }

    /// `send(fd, bytes, MSG_NOSIGNAL | MSG_DONTWAIT)`, send(2): never
    /// blocks and never raises SIGPIPE; nil when the peer's buffer is full.
    static func send(_ fd: FileDescriptor, _ buffer: UnsafeRawBufferPointer) throws(Errno) -> Int? {
        do throws(Errno) {
            return try check(retryOnInterrupt: true) {
                Glibc.send(fd.rawValue, buffer.baseAddress, buffer.count, CInt(MSG_NOSIGNAL) | CInt(MSG_DONTWAIT))
            }
        } catch {
            if error == .wouldBlock { return nil }
            throw error
        }
    }
}

import Glibc
import SystemPackage

/// A listening Unix stream socket (the control socket) and its
/// connections, non-blocking, for the reactor.
public final class UnixListener {
    public let path: String
    public let descriptor: FileDescriptor
    private var closed = false

    /// Bind at `path` with the given permissions. Only ever replaces a
    /// socket, and only a stale one (left by a process that died: connect(2)
    /// is refused). A live socket, one something still accepts on, is
    /// `EADDRINUSE`; a path that holds anything but a socket is `ENOTSOCK`:
    /// neither is touched, whoever made them.
    public init(path: String, mode: mode_t = 0o660, backlog: CInt = 8) throws(Errno) {
        self.path = path
        if let type = try Syscall.fileType(path) {
            guard type == S_IFSOCK else { throw Errno.notSocket }
            guard !Self.isLive(path) else { throw Errno.addressInUse }
            do { try Syscall.unlink(path) } catch where error == .noSuchFileOrDirectory {}
        }
        let fd = try Syscall.unixSocket(CInt(SOCK_STREAM.rawValue) | CInt(SOCK_NONBLOCK.rawValue))
        do throws(Errno) {
            try Syscall.bind(fd, to: path)
            try Syscall.chmod(path, mode)
            try Syscall.listen(fd, backlog: backlog)
        } catch {
            Syscall.close(fd)
            throw error
        }
        descriptor = fd
    }

    /// Whether something listens on the socket at `path`. A non-blocking
    /// connect(2) either succeeds or, when the listener's backlog is full
    /// (say, it is stopped), fails with `EAGAIN`: both are live. Only
    /// `ECONNREFUSED` (unix(7): no one listens) means stale; anything else
    /// (`EACCES`: someone else's socket) counts as live and is left alone.
    static func isLive(_ path: String) -> Bool {
        guard let fd = try? Syscall.unixSocket(CInt(SOCK_STREAM.rawValue) | CInt(SOCK_NONBLOCK.rawValue)) else { return true }
        defer { Syscall.close(fd) }
        do {
            try Syscall.connect(fd, to: path)
            return true
        } catch {
            return error != .connectionRefused && error != .noSuchFileOrDirectory
        }
    }

    /// The next pending connection, if any.
    public func accept() throws(Errno) -> UnixConnection? {
        try Syscall.accept(descriptor).map(UnixConnection.init(descriptor:))
    }

    public func close() {
        guard !closed else { return }
        closed = true
        Syscall.close(descriptor)
        try? Syscall.unlink(path)
    }

    deinit { close() }
}

/// One stream connection; closed exactly once.
public final class UnixConnection {
    public let descriptor: FileDescriptor
    public private(set) var isClosed = false

    init(descriptor: FileDescriptor) { self.descriptor = descriptor }

    /// Connect to a listening socket (blocking: for the command-line
    /// client). With a `timeout`, the connect waits at most that long for
    /// room in a busy listener's backlog and every later write as long for
    /// room in the peer's buffer; either fails with `EAGAIN` after it.
    public static func connect(to path: String, timeout: Duration? = nil) throws(Errno) -> UnixConnection {
        let fd = try Syscall.unixSocket(CInt(SOCK_STREAM.rawValue))
        do throws(Errno) {
            if let timeout { try Syscall.setSendTimeout(fd, milliseconds: max(1, Int(timeout.nanoseconds / 1_000_000))) }
            try Syscall.connect(fd, to: path)
        } catch {
            Syscall.close(fd)
            throw error
        }
        return UnixConnection(descriptor: fd)
    }

    /// Wait until input (or end of stream) is pending, at most
    /// `milliseconds` (nil: as long as it takes). False when the time ran
    /// out, or a signal cut the wait short: the caller checks its deadline.
    public func waitForInput(milliseconds: Int?) throws(Errno) -> Bool {
        let timeout = milliseconds.map { CInt(clamping: max(0, $0)) } ?? -1
        return try Syscall.waitReadable(descriptor, timeoutMilliseconds: timeout)
    }

    /// What is pending, without blocking on a non-blocking socket: nil when
    /// nothing is (EAGAIN), empty at end of stream.
    public func read(max: Int = 4096) throws(Errno) -> [UInt8]? {
        var buf = [UInt8](repeating: 0, count: max)
        let r = buf.withUnsafeMutableBytes { raw in Result { () throws(Errno) in try Syscall.read(descriptor, into: raw) } }
        guard let n = try r.get() else { return nil }
        return Array(buf[..<n])
    }

    /// Send as much as the peer takes now; returns the count sent.
    public func send(_ bytes: [UInt8]) throws(Errno) -> Int {
        let r = bytes.withUnsafeBytes { raw in Result { () throws(Errno) in try Syscall.send(descriptor, raw) } }
        return try r.get() ?? 0
    }

    /// Blocking write of everything (for the command-line client).
    /// `EAGAIN` (the send timeout of `connect(to:timeout:)` ran out: the
    /// peer does not read) is thrown, not retried.
    public func writeAll(_ bytes: [UInt8]) throws(Errno) {
        var sent = 0
        while sent < bytes.count {
            let r = bytes.withUnsafeBytes { raw in
                Result { () throws(Errno) in try Syscall.write(descriptor, UnsafeRawBufferPointer(rebasing: raw[sent...])) }
            }
            guard let n = try r.get() else { throw Errno.wouldBlock }
            sent += n
        }
    }

    public func close() {
        guard !isClosed else { return }
        isClosed = true
        Syscall.close(descriptor)
    }

    deinit { close() }
}

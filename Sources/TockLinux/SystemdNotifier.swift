import Glibc
import SystemPackage
import TockCore

/// The service manager's notification protocol (sd_notify(3)): newline-
/// separated `KEY=value` assignments in one datagram to the Unix socket
/// named by `$NOTIFY_SOCKET` (a path, or `@name` in the abstract
/// namespace). Outside systemd the variable is unset and every call does
/// nothing. The few lines of the protocol are written here rather than
/// linking libsystemd: it is one `sendto` and keeps the binary free of a
/// library the initramfs test and the simulator would also have to carry.
public final class SystemdNotifier {
    private let socketPath: String?
    private var fd: FileDescriptor?
    /// Half of `$WATCHDOG_USEC` (systemd.service(5) recommends pinging at
    /// half the interval), when the watchdog is on for this process.
    public let watchdogInterval: Duration?

    public init(environment: Environment.Variables) {
        socketPath = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
        var interval: Duration? = nil
        if let usec = environment["WATCHDOG_USEC"].flatMap(Int64.init), usec > 0 {
            // WATCHDOG_PID, when set, must be ours.
            if let pid = environment["WATCHDOG_PID"].flatMap(Int32.init), pid != getpid() {
                interval = nil
            } else {
                interval = .microseconds(usec / 2)
            }
        }
        watchdogInterval = interval
    }

    public var isActive: Bool { socketPath != nil }

    /// Send assignments such as `["READY=1", "STATUS=ready"]`. Never blocks
    /// the loop: when the manager is not reading and its queue is full, the
    /// message is dropped with `wouldBlock` (a blocked send would stop the
    /// timer, the display and the buzzer with it).
    public func notify(_ assignments: [String]) throws(Errno) {
        guard let path = socketPath else { return }
        if fd == nil { fd = try Syscall.unixSocket(CInt(SOCK_DGRAM.rawValue)) }
        let text = assignments.map { $0.replacingNewlines }.joinedText(separator: "\n")
        try Syscall.sendDatagram(fd!, Array(text.utf8), to: path)
    }

    /// One assignment (the paced `STATUS=` line): no list to join.
    public func notify(_ assignment: String) throws(Errno) {
        guard let path = socketPath else { return }
        if fd == nil { fd = try Syscall.unixSocket(CInt(SOCK_DGRAM.rawValue)) }
        try Syscall.sendDatagram(fd!, Array(assignment.replacingNewlines.utf8), to: path)
    }

    deinit { if let fd { Syscall.close(fd) } }
}

extension String {
    /// A newline would end the assignment early. Checked on the bytes: the
    /// usual text has none and is used as it is.
    fileprivate var replacingNewlines: String {
        guard utf8.contains(where: { $0 == UInt8(ascii: "\n") }) else { return self }
        return String(decoding: utf8.map { $0 == UInt8(ascii: "\n") ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
    }
}

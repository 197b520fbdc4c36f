import Glibc
import SystemPackage

/// An owning signalfd (signalfd(2)): the given signals are blocked and
/// arrive as readable records instead of interrupting the program, so the
/// reactor handles Ctrl-C like any other input.
///
/// The mask belongs to the calling thread (pthread_sigmask(3)); threads
/// inherit it when they are created. Create this before any other thread
/// starts, or a process-directed signal can be delivered to a thread that
/// does not block it and take its default action there. Close it on the
/// thread that created it.
public final class SignalFD {
    /// Termination requests from a terminal or a service manager.
    public static let defaultSignals: [CInt] = [SIGINT, SIGTERM, SIGHUP]

    public let signals: [CInt]
    private var fd: FileDescriptor?
    private let previousMask: sigset_t
    private let owner: pthread_t

    /// Blocks `signals` on the calling thread and opens a descriptor that
    /// reports them. Non-blocking and close-on-exec.
    public init(signals: [CInt] = SignalFD.defaultSignals) throws(Errno) {
        self.signals = signals
        let set = Syscall.signalSet(signals)
        // Blocked first: signalfd(2) only reports signals that stay pending,
        // and an unblocked one would take its default action instead.
        previousMask = Syscall.threadSignalMask(SIG_BLOCK, set)
        owner = pthread_self()
        do {
            fd = try Syscall.signalfdCreate(set)
        } catch {
            Syscall.threadSignalMask(SIG_SETMASK, previousMask)
            throw error
        }
    }

    deinit { close() }

    /// The descriptor to watch for readability. Trapping after `close()`.
    public var descriptor: FileDescriptor {
        guard let fd else { preconditionFailure("SignalFD used after close()") }
        return fd
    }

    /// Every pending signal, in the order the kernel reports them; empty
    /// when none is pending. A standard signal raised twice before a read
    /// is pending once (signal(7)), so it is reported once.
    public func read() throws(Errno) -> [CInt] {
        // signalfd(2): each record is a 128-byte `struct signalfd_siginfo`
        // whose first field is `uint32_t ssi_signo` (linux/signalfd.h).
        let recordSize = 128
        var received: [CInt] = []
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: recordSize * 8, alignment: 8)
        defer { buffer.deallocate() }
        while let n = try Syscall.read(descriptor, into: buffer) {
            precondition(n > 0 && n % recordSize == 0, "signalfd(2): a read returns whole records, got \(n) bytes")
            for offset in stride(from: 0, to: n, by: recordSize) {
                received.append(CInt(buffer.load(fromByteOffset: offset, as: UInt32.self)))
            }
        }
        return received
    }

    /// Closes the descriptor and restores the signal mask the thread had
    /// before; later calls do nothing. A signal still pending at that point
    /// is then delivered as if it had never been blocked.
    public func close() {
        guard let fd else { return }
        precondition(pthread_equal(owner, pthread_self()) != 0,
                     "SignalFD closed on another thread: the signal mask to restore is per thread")
        self.fd = nil
        Syscall.close(fd)
        Syscall.threadSignalMask(SIG_SETMASK, previousMask)
    }
}

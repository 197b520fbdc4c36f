import Glibc
import SystemPackage
import TockCore
import TockHardware

/// A named pipe read without blocking, for feeding text to the event loop
/// (`tock run --mock-input`). One owner, closed exactly once.
///
/// fifo(7): a pipe opened for reading only reports end of file (and stays
/// readable for epoll) whenever no writer has it open, so it would wake the
/// loop for ever between writers. Opened read-write, this process is a
/// writer itself: writers may come and go, and the pipe is readable only
/// when there are bytes.
public final class FIFOReader {
    public let path: String
    private var fd: FileDescriptor?

    public init(path: String) throws(HardwareError) {
        self.path = path
        let isFIFO: Bool
        do { isFIFO = try Syscall.isFIFO(path) } catch { throw Self.openError(path, error) }
        guard isFIFO else {
            throw HardwareError(.unsupported, "\(path) is not a named pipe; give the path of one (mkfifo PATH makes one)")
        }
        do { fd = try Syscall.open(path, O_RDWR | O_NONBLOCK) } catch { throw Self.openError(path, error) }
    }

    private static func openError(_ path: String, _ error: Errno) -> HardwareError {
        switch error {
        case .noSuchFileOrDirectory: HardwareError(.notFound, "\(path) does not exist: make it with mkfifo \(path)")
        case .permissionDenied: HardwareError(.permission, "no permission to open \(path) for reading and writing")
        default: HardwareError(.io, "cannot open \(path): \(error)")
        }
    }

    /// The open descriptor; using a closed pipe is a programming error.
    public var descriptor: CInt {
        guard let fd else { preconditionFailure("\(path) used after close()") }
        return fd.rawValue
    }

    /// Every byte pending now (empty if none).
    public func readAvailable() throws(HardwareError) -> [UInt8] {
        guard let fd else { preconditionFailure("\(path) used after close()") }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n: Int?
            do {
                n = try chunk.withUnsafeMutableBytes { buffer in
                    Result { () throws(Errno) in try Syscall.read(fd, into: buffer) }
                }.get()
            } catch {
                throw HardwareError(.io, "reading \(path) failed: \(error)")
            }
            guard let n, n > 0 else { return out }
            out += chunk[..<n]
            if n < chunk.count { return out }
        }
    }

    /// Closes the pipe; later calls do nothing.
    public func close() {
        guard let fd else { return }
        self.fd = nil
        Syscall.close(fd)
    }

    deinit { close() }
}

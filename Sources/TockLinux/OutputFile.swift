import Glibc
import SystemPackage

/// A file a user names for Tock to write (`--trace`, `--timing-log`),
/// opened and written in place, as a shell's `>` does: a symbolic link is
/// followed, a regular file is emptied and written, a named pipe (FIFO) or
/// a character device such as `/dev/null` or a terminal is written to as
/// it is. Anything else (a directory, a block device, a socket) is refused
/// with a `FileError` naming the path and what it is, before anything is
/// written or truncated.
///
/// Never a temporary file renamed over the path: that would replace
/// `/dev/null` with a regular file, or a link with a copy. The atomic
/// rename is for the files Tock owns (`DurableFile`).
public final class OutputFile {
    public static let accepted = "a regular file, a named pipe (FIFO) or a character device such as /dev/null"

    public let path: String
    private var fd: FileDescriptor?
    /// False for standard output, which is written but never closed here.
    private let owned: Bool

    /// The process's standard output, as it was given.
    public static func standardOutput() -> OutputFile { OutputFile(standardOutput: ()) }

    private init(standardOutput: Void) {
        path = "standard output"
        fd = .standardOutput
        owned = false
    }

    /// Opens `path`, creating a regular file if there is none. Opening a
    /// FIFO waits for a reader, as any program writing to one does.
    public init(path: String) throws(FileError) {
        self.path = path
        owned = true
        let fd: FileDescriptor
        do throws(Errno) {
            // No O_TRUNC: what is there is looked at before anything changes.
            // O_NOCTTY: a terminal named here does not become the process's
            // controlling terminal.
            fd = try Syscall.open(path, O_WRONLY | O_CREAT | O_NOCTTY, mode: 0o644)
        } catch {
            // open(2): EISDIR for a directory, ENXIO for a socket; say which.
            let kind: FileKind? = switch error {
            case .isDirectory: .directory
            case .noSuchAddressOrDevice: try? Syscall.kind(ofPath: path, followingLinks: true)
            default: nil
            }
            throw FileError(path, kind.map { .kind($0) } ?? .system(error), accepted: Self.accepted)
        }
        do throws(FileError) {
            let kind: FileKind
            do throws(Errno) { kind = try Syscall.kind(of: fd) } catch { throw FileError(path, .system(error)) }
            switch kind {
            case .regular:
                do throws(Errno) { try Syscall.truncate(fd) } catch { throw FileError(path, .system(error)) }
            case .fifo, .characterDevice:
                break
            default:
                throw FileError(path, .kind(kind), accepted: Self.accepted)
            }
        } catch {
            Syscall.close(fd)
            throw error
        }
        self.fd = fd
    }

    /// Writes all of `bytes`, in as many write(2) calls as it takes.
    public func write(_ bytes: [UInt8]) throws(FileError) {
        guard let fd else { preconditionFailure("OutputFile \(path) written after close") }
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { raw in
                Result { () throws(Errno) in try Syscall.write(fd, UnsafeRawBufferPointer(rebasing: raw[written...])) }
            }
            do throws(Errno) {
                // A descriptor opened blocking never says EAGAIN; if it did, say so.
                guard let k = try n.get() else { throw Errno.wouldBlock }
                written += k
            } catch {
                throw FileError(path, .system(error))
            }
        }
    }

    public func close() {
        if let fd, owned { Syscall.close(fd) }
        fd = nil
    }

    deinit { close() }
}

import Glibc
import SystemPackage

/// An exclusive lock on a file (flock(2)) held for the life of the process,
/// with the holder's PID written in it so that a refused second instance
/// can name the first.
///
/// The file is never removed: removing it would let a third process lock a
/// fresh file of the same name while the second still holds the old one.
/// Nothing needs cleaning up either: the kernel drops the lock when the
/// descriptor closes, at exit or at a crash, and the descriptor is
/// close-on-exec, so no child inherits it.
public final class InstanceLock {
    public let path: String
    private let descriptor: FileDescriptor
    private var released = false

    /// The lock is held by another process.
    public struct Held: Error, Equatable {
        public var path: String
        /// The holder's PID as it wrote it; nil if it could not be read
        /// (the holder has not written it yet, or the file is not ours).
        public var pid: Int32?
    }

    public enum Failure: Error, Equatable {
        case held(Held)
        /// The lock file cannot be opened or locked (permissions, no
        /// directory): the errno says which.
        case unusable(path: String, Errno)
    }

    public init(path: String) throws(Failure) {
        self.path = path
        let fd: FileDescriptor
        do { fd = try Syscall.open(path, O_RDWR | O_CREAT, mode: 0o644) } catch { throw .unusable(path: path, error) }
        let locked: Bool
        do throws(Errno) {
            locked = try Syscall.tryLockExclusive(fd)
            if locked {
                try Syscall.truncate(fd, to: 0)
                _ = try Syscall.write(fd, Array("\(getpid())\n".utf8))
            }
        } catch {
            Syscall.close(fd)
            throw .unusable(path: path, error)
        }
        guard locked else {
            let pid = Self.pid(in: fd)
            Syscall.close(fd)
            throw .held(Held(path: path, pid: pid))
        }
        descriptor = fd
    }

    /// The PID the holder wrote, if the file holds one.
    private static func pid(in fd: FileDescriptor) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let r = buffer.withUnsafeMutableBytes { raw in Result { () throws(Errno) in try Syscall.read(fd, into: raw) } }
        guard let n = (try? r.get()) ?? nil else { return nil }
        let text = String(decoding: buffer[..<n], as: UTF8.self).split(separator: "\n").first ?? ""
        return Int32(text).flatMap { $0 > 0 ? $0 : nil }
    }

    /// Give the lock up before the process ends (tests; a clean stop).
    public func release() {
        guard !released else { return }
        released = true
        Syscall.close(descriptor)
    }

    deinit { release() }
}

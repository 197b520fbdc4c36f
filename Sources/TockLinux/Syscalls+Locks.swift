import Glibc
import SystemPackage

/// Advisory file locks: one running instance per state file. Same errno
/// policy as the rest of `Syscall`.
extension Syscall {
    /// `flock(fd, LOCK_EX | LOCK_NB)`, flock(2): false when another open
    /// file description holds the lock (`EWOULDBLOCK`). The lock belongs to
    /// the open file description, so it ends when the process does, however
    /// it ends: a crash never leaves a stale lock.
    static func tryLockExclusive(_ fd: FileDescriptor) throws(Errno) -> Bool {
        do {
            _ = try check(retryOnInterrupt: true) { flock(fd.rawValue, LOCK_EX | LOCK_NB) }
            return true
        } catch where error == .wouldBlock {
            return false
        }
    }

    /// `ftruncate(fd, length)`, ftruncate(2).
    static func truncate(_ fd: FileDescriptor, to length: Int) throws(Errno) {
        _ = try check(retryOnInterrupt: true) { ftruncate(fd.rawValue, off_t(length)) }
    }
}

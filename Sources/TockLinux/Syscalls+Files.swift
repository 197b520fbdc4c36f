import Glibc
import SystemPackage

/// What a path or descriptor is, from `st_mode & S_IFMT` (inode(7)).
public enum FileKind: Equatable, Sendable, CustomStringConvertible {
    case regular, directory, symbolicLink, fifo, characterDevice, blockDevice, socket, unknown

    init(mode: mode_t) {
        switch mode & S_IFMT {
        case S_IFREG: self = .regular
        case S_IFDIR: self = .directory
        case S_IFLNK: self = .symbolicLink
        case S_IFIFO: self = .fifo
        case S_IFCHR: self = .characterDevice
        case S_IFBLK: self = .blockDevice
        case S_IFSOCK: self = .socket
        default: self = .unknown
        }
    }

    public var description: String {
        switch self {
        case .regular: "a regular file"
        case .directory: "a directory"
        case .symbolicLink: "a symbolic link"
        case .fifo: "a named pipe (FIFO)"
        case .characterDevice: "a character device"
        case .blockDevice: "a block device"
        case .socket: "a socket"
        case .unknown: "of an unknown kind"
        }
    }
}

/// The calls on files' kinds and lengths, with the errno policy of `Syscall`.
extension Syscall {
    /// `fstat(fd, &st)`, fstat(2): what the open descriptor is. It does not
    /// block.
    static func kind(of fd: FileDescriptor) throws(Errno) -> FileKind {
        var st = stat()
        _ = try check(retryOnInterrupt: false) { fstat(fd.rawValue, &st) }
        return FileKind(mode: st.st_mode)
    }

    /// `fstatat(AT_FDCWD, path, &st, AT_SYMLINK_NOFOLLOW)`, lstat(2): what
    /// `path` itself is (a symbolic link is not followed); with
    /// `followingLinks`, stat(2): what it leads to.
    static func kind(ofPath path: String, followingLinks: Bool = false) throws(Errno) -> FileKind {
        var st = stat()
        let flags = followingLinks ? 0 : AT_SYMLINK_NOFOLLOW
        _ = try check(retryOnInterrupt: false) { fstatat(AT_FDCWD, path, &st, flags) }
        return FileKind(mode: st.st_mode)
    }

    /// `fstat(fd, &st)`, fstat(2): the kind, the length and the identity
    /// (device and inode) of an open descriptor.
    static func status(of fd: FileDescriptor) throws(Errno) -> (kind: FileKind, size: Int64, device: UInt64, inode: UInt64) {
        var st = stat()
        _ = try check(retryOnInterrupt: false) { fstat(fd.rawValue, &st) }
        return (FileKind(mode: st.st_mode), Int64(st.st_size), UInt64(st.st_dev), UInt64(st.st_ino))
    }

    /// `pwrite(fd, bytes, count, offset)`, pwrite(2), until every byte is
    /// written (a short write is continued).
    static func write(_ fd: FileDescriptor, _ bytes: [UInt8], at offset: Int64) throws(Errno) {
        var done = 0
        while done < bytes.count {
            let n = try bytes.withUnsafeBytes { raw in
                Result { () throws(Errno) in
                    try check(retryOnInterrupt: true) {
                        Glibc.pwrite(fd.rawValue, raw.baseAddress! + done, raw.count - done, off_t(offset) + off_t(done))
                    }
                }
            }.get()
            guard n > 0 else { throw Errno.ioError }
            done += n
        }
    }

    /// `fdatasync(fd)`, fdatasync(2): the data reach the device, and the
    /// metadata needed to read them back (not the times alone).
    static func fdatasync(_ fd: FileDescriptor) throws(Errno) {
        _ = try check(retryOnInterrupt: true) { Glibc.fdatasync(fd.rawValue) }
    }

    /// `ftruncate(fd, length)`, ftruncate(2).
    static func truncate(_ fd: FileDescriptor, to length: Int64 = 0) throws(Errno) {
        _ = try check(retryOnInterrupt: true) { ftruncate(fd.rawValue, off_t(length)) }
    }
}

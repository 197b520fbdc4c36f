import Glibc
import SystemPackage

/// Small files that survive a power cut whole: after `replace`, a reader
/// finds either the old content or the new, never a torn mix.
///
/// The sequence is the one rename(2) and fsync(2) make safe: write a
/// temporary file beside the target, fsync it, rename it over the target,
/// then fsync the directory so the rename itself is on the device (an SD
/// card losing power keeps only what was synced).
public enum DurableFile {
    public static func replace(_ path: String, with bytes: [UInt8]) throws(Errno) {
        let temporary = path + ".tmp"
        let fd = try Syscall.open(temporary, O_WRONLY | O_CREAT | O_TRUNC, mode: 0o640)
        do throws(Errno) {
            var written = 0
            while written < bytes.count {
                let n = bytes.withUnsafeBytes { raw in
                    Result { () throws(Errno) in try Syscall.write(fd, UnsafeRawBufferPointer(rebasing: raw[written...])) }
                }
                written += try n.get() ?? 0
            }
            try Syscall.fsync(fd)
        } catch {
            Syscall.close(fd)
            try? Syscall.unlink(temporary)
            throw error
        }
        Syscall.close(fd)
        try Syscall.rename(temporary, path)
        let directory = try Syscall.open(parent(of: path), O_RDONLY | O_DIRECTORY)
        defer { Syscall.close(directory) }
        try Syscall.fsync(directory)
    }

    /// The whole file, or nil if there is none; at most `limit` bytes
    /// (a larger file is refused with `EFBIG`: it is not ours).
    public static func read(_ path: String, limit: Int = 1 << 16) throws(Errno) -> [UInt8]? {
        let fd: FileDescriptor
        do throws(Errno) {
            fd = try Syscall.open(path, O_RDONLY)
        } catch {
            if error == .noSuchFileOrDirectory { return nil }
            throw error
        }
        defer { Syscall.close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let result = chunk.withUnsafeMutableBytes { raw in Result { () throws(Errno) in try Syscall.read(fd, into: raw) } }
            let n = try result.get() ?? 0
            if n == 0 { break }
            bytes += chunk[..<n]
            if bytes.count > limit { throw Errno.fileTooLarge }
        }
        return bytes
    }

    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}

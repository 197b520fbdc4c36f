import Glibc
import SystemPackage

/// Small files Tock owns, in a directory it owns (the state file under the
/// service's StateDirectory), that survive a power cut whole: after
/// `replace`, a reader finds either the old content or the new, never a
/// torn mix.
///
/// The sequence is the one rename(2) and fsync(2) make safe: write a
/// temporary file beside the target, fsync it, rename it over the target,
/// then fsync the directory so the rename itself is on the device (an SD
/// card losing power keeps only what was synced).
///
/// Only a regular file is read or written: nothing planted at the path or
/// at its temporary name is followed or waited on. A symbolic link is
/// refused (`O_NOFOLLOW`), a FIFO is opened without waiting for a writer
/// (`O_NONBLOCK`) and then refused, and the temporary file is created new
/// (`O_EXCL`), so a link there never sends the content to its target.
/// Files a user names (a trace, a timing log) are not written this way:
/// see `OutputFile`.
public enum DurableFile {
    public static func replace(_ path: String, with bytes: [UInt8]) throws(FileError) {
        let temporary = path + ".tmp"
        let fd = try createTemporary(temporary)
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
            throw FileError(temporary, .system(error))
        }
        Syscall.close(fd)
        do throws(Errno) { try Syscall.rename(temporary, path) } catch { throw FileError(path, .system(error)) }
        let parent = parent(of: path)
        do throws(Errno) {
            let directory = try Syscall.open(parent, O_RDONLY | O_DIRECTORY)
            defer { Syscall.close(directory) }
            try Syscall.fsync(directory)
        } catch {
            throw FileError(parent, .system(error))
        }
    }

    /// A new temporary file at `path`. A stale one left by a crash (a
    /// regular file, or a symbolic link someone planted) is removed first:
    /// unlink(2) removes the link, never its target. Anything else there
    /// (a FIFO, a directory) is refused, not removed.
    static func createTemporary(_ path: String) throws(FileError) -> FileDescriptor {
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW
        do throws(Errno) {
            return try Syscall.open(path, flags, mode: 0o640)
        } catch where error == .fileExists {
            let kind: FileKind
            do throws(Errno) { kind = try Syscall.kind(ofPath: path) } catch { throw FileError(path, .system(error)) }
            guard kind == .regular || kind == .symbolicLink else { throw FileError(path, .kind(kind)) }
            do throws(Errno) {
                try Syscall.unlink(path)
                return try Syscall.open(path, flags, mode: 0o640)
            } catch {
                throw FileError(path, .system(error))
            }
        } catch {
            throw FileError(path, .system(error))
        }
    }

    /// The whole file, or nil if there is none; at most `limit` bytes
    /// (a larger file is refused with `EFBIG`: it is not ours). A path that
    /// is not a regular file is refused with its kind, at once; so is a
    /// symbolic link, unless `followingLinks` (a file the owner edits, such
    /// as the configuration, may be one). With `cut`, a larger file is not
    /// refused: its first `limit + 1` bytes are returned, for the caller to
    /// say what is too long.
    public static func read(_ path: String, limit: Int = 1 << 16, followingLinks: Bool = false, cut: Bool = false) throws(FileError) -> [UInt8]? {
        let fd: FileDescriptor
        do throws(Errno) {
            fd = try Syscall.open(path, O_RDONLY | O_NONBLOCK | (followingLinks ? 0 : O_NOFOLLOW))
        } catch {
            if error == .noSuchFileOrDirectory { return nil }
            // open(2): O_NOFOLLOW fails with ELOOP on a symbolic link.
            if error == .tooManySymbolicLinkLevels { throw FileError(path, .kind(.symbolicLink)) }
            throw FileError(path, .system(error))
        }
        defer { Syscall.close(fd) }
        let kind: FileKind
        do throws(Errno) { kind = try Syscall.kind(of: fd) } catch { throw FileError(path, .system(error)) }
        guard kind == .regular else { throw FileError(path, .kind(kind)) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let result = chunk.withUnsafeMutableBytes { raw in Result { () throws(Errno) in try Syscall.read(fd, into: raw) } }
            let n: Int
            do throws(Errno) { n = try result.get() ?? 0 } catch { throw FileError(path, .system(error)) }
            if n == 0 { break }
            bytes += chunk[..<n]
            if bytes.count > limit {
                guard cut else { throw FileError(path, .system(.fileTooLarge)) }
                return Array(bytes[...limit])
            }
        }
        return bytes
    }

    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}

import Glibc

/// The few file operations outside the state file that Tock makes (the zone
/// database, the setup's files, tock-web's token list), over the system
/// calls. Paths follow symbolic links, as the owner's files may be links.
public enum FileSystem {
    /// Whether something is at `path` (a link is followed).
    public static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// Whether this process may read `path`.
    public static func isReadable(_ path: String) -> Bool { access(path, R_OK) == 0 }

    /// Where the symbolic link at `path` points, nil if it is none.
    public static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink(path, &buffer, buffer.count - 1)
        guard n >= 0 else { return nil }
        return String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A regular file's bytes (at most `limit`), nil if it cannot be read.
    public static func contents(_ path: String, limit: Int = 4 << 20) -> [UInt8]? {
        (try? DurableFile.read(path, limit: limit, followingLinks: true)) ?? nil
    }

    /// A regular file's size and modification time, nil when there is
    /// none: whether it changed since it was last read.
    public struct Stamp: Equatable, Sendable {
        public var size: Int64
        public var modified: Int64  // nanoseconds since 1970
    }

    public static func stamp(_ path: String) -> Stamp? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return Stamp(size: Int64(st.st_size), modified: Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec))
    }

    /// Removes a file or a link (never what a link points to).
    public static func remove(_ path: String) { _ = unlink(path) }

    /// The names in a directory (not `.` and `..`), nil if it cannot be read.
    public static func list(_ directory: String) -> [String]? {
        guard let dir = opendir(directory) else { return nil }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Makes `path` and any missing parents (mode 0755 less the umask).
    public static func makeDirectories(_ path: String) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            prefix += "/" + part
            _ = mkdir(prefix, 0o755)
        }
    }

    /// A new file (or one replaced) holding `bytes`, with `mode`; whether
    /// every byte was written.
    @discardableResult
    public static func create(_ path: String, _ bytes: [UInt8], mode: Int) -> Bool {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode_t(mode))
        guard fd >= 0 else { return false }
        defer { close(fd) }
        _ = fchmod(fd, mode_t(mode))
        return bytes.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                let n = write(fd, raw.baseAddress! + done, raw.count - done)
                if n < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                done += n
            }
            return true
        }
    }

    /// This machine's host name (gethostname(2)).
    public static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        return String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

import TockLinux
import SystemPackage
import Glibc

/// Where the control socket is when no `--socket` is given: the service's
/// under systemd, and on a desk the simulator's own, so that `tock status`
/// (and `tock start`, `tock watch` ...) reach whichever box runs here.
public enum ControlSocketPath {
    /// The service's (`RuntimeDirectory=tock`).
    public static let system = "/run/tock/control.sock"

    /// The simulator's: `$XDG_RUNTIME_DIR/tock/control.sock` (the user's
    /// own runtime directory), else `/tmp/tock-UID/control.sock`.
    public static func personal(_ environment: [String: String] = Environment.all()) -> String {
        let base = environment["XDG_RUNTIME_DIR"].flatMap { $0.hasPrefix("/") ? $0 + "/tock" : nil } ?? "/tmp/tock-\(getuid())"
        return base + "/control.sock"
    }

    /// What a client connects to: `$TOCK_SOCKET`; else the service's if it
    /// is there; else the simulator's if that is there; else the
    /// service's (so the error names it).
    public static func forClient(_ environment: [String: String] = Environment.all(),
                                 exists: (String) -> Bool = { FileSystem.exists($0) }) -> String {
        if let s = environment["TOCK_SOCKET"], !s.isEmpty { return s }
        if exists(system) { return system }
        let own = personal(environment)
        return exists(own) ? own : system
    }

    /// A directory of the user's own for the simulator's socket, created
    /// 0700 if missing; one that exists must be a real directory owned by
    /// this user and open to no one else (another user could otherwise
    /// put a socket of theirs where `tock` looks).
    public struct UnsafeDirectory: Error, CustomStringConvertible {
        public var description: String
    }

    public static func preparePersonal(_ path: String) throws(UnsafeDirectory) {
        let dir = FilePath(path).removingLastComponent().string
        if mkdir(dir, 0o700) != 0, errno != EEXIST {
            throw UnsafeDirectory(description: "cannot create \(dir): \(String(cString: strerror(errno)))")
        }
        var st = stat()
        guard lstat(dir, &st) == 0 else { throw UnsafeDirectory(description: "cannot read \(dir): \(String(cString: strerror(errno)))") }
        guard st.st_mode & S_IFMT == S_IFDIR, st.st_uid == getuid(), st.st_mode & 0o077 == 0 else {
            throw UnsafeDirectory(description: "\(dir) is not a directory of this user's open to no one else (mode 0700); remove it or give --socket")
        }
    }
}

import Glibc

/// Another program run to its end, its standard output and error read
/// together (posix_spawn, no shell).
public enum Subprocess {
    /// The exit status (127 when it could not be started, 128 + the
    /// signal when one ended it) and what it printed.
    public static func run(_ path: String, _ arguments: [String]) -> (status: Int32, output: String) {
        var pipe: [Int32] = [0, 0]
        guard Glibc.pipe(&pipe) == 0 else { return (127, "\(path): pipe: \(String(cString: strerror(errno)))") }
        // Not inherited by the child but through the dup2s below.
        for fd in pipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipe[1], STDOUT_FILENO)
        posix_spawn_file_actions_adddup2(&actions, pipe[1], STDERR_FILENO)
        // The child starts with every signal at its default and none
        // blocked: what this process ignores (SIGPIPE) or receives through a
        // signalfd (blocked) must not be inherited by another program.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t(), none = sigset_t()
        sigfillset(&all)
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for a in argv { free(a) } }
        var pid: pid_t = 0
        let started = posix_spawn(&pid, path, &actions, &attributes, argv, environ)
        Glibc.close(pipe[1])
        guard started == 0 else {
            Glibc.close(pipe[0])
            return (127, "\(path): \(String(cString: strerror(started)))")
        }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(pipe[0], $0.baseAddress, $0.count) }
            if n > 0 { output += chunk[..<n]; continue }
            if n < 0, errno == EINTR { continue }
            break
        }
        Glibc.close(pipe[0])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let code = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return (code, String(decoding: output, as: UTF8.self))
    }
}

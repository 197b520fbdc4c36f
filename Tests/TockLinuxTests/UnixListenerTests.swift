import Foundation
import Glibc
import SystemPackage
import Testing
@testable import TockLinux

/// What `UnixListener` does with what it finds at its path.
@Suite struct UnixListenerTests {
    static func path() -> String { NSTemporaryDirectory() + "tock-l-\(UUID().uuidString.prefix(8)).sock" }

    @Test func aFileThatIsNotASocketIsLeftAlone() throws {
        let path = Self.path()
        defer { unlink(path) }
        try "data".write(toFile: path, atomically: false, encoding: .utf8)
        #expect(throws: Errno.notSocket) { try UnixListener(path: path) }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "data")
    }

    @Test func aLiveSocketIsKeptAndAStaleOneReplaced() throws {
        let path = Self.path()
        // Bound and closed without listening or unlinking: what a crash
        // leaves behind.
        let fd = try Syscall.unixSocket(CInt(SOCK_STREAM.rawValue))
        try Syscall.bind(fd, to: path)
        Syscall.close(fd)
        #expect(!UnixListener.isLive(path))
        let live = try UnixListener(path: path)
        #expect(UnixListener.isLive(path))
        #expect(throws: Errno.addressInUse) { try UnixListener(path: path) }
        live.close()
    }
}

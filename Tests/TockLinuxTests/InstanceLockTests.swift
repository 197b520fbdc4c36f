import Foundation
import Glibc
import SystemPackage
import Testing
@testable import TockLinux

@Suite struct InstanceLockTests {
    static func path() -> String { NSTemporaryDirectory() + "tock-lock-\(UUID().uuidString.prefix(8)).lock" }

    /// flock(2) locks belong to the open file description, so a second
    /// open in the same process is refused like another process would be,
    /// and is told the holder's PID.
    @Test func aSecondHolderIsRefusedWithThePid() throws {
        let path = Self.path()
        defer { unlink(path) }
        let first = try InstanceLock(path: path)
        #expect(throws: InstanceLock.Failure.held(.init(path: path, pid: getpid()))) { try InstanceLock(path: path) }
        first.release()
        let again = try InstanceLock(path: path)
        again.release()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "\(getpid())\n")
    }

    @Test func aDirectoryThatDoesNotExistIsUnusable() {
        #expect(throws: InstanceLock.Failure.unusable(path: "/nonexistent/x.lock", .noSuchFileOrDirectory)) {
            try InstanceLock(path: "/nonexistent/x.lock")
        }
    }
}

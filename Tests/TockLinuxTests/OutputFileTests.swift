import Foundation
import Glibc
import SystemPackage
import Testing
@testable import TockLinux

/// What `OutputFile` refuses: nothing is truncated or written there, and
/// the error names the path and what it is.
@Suite struct OutputFileTests {
    func scratch() -> String {
        let dir = NSTemporaryDirectory() + "tock-output-\(UUID().uuidString)"
        try! FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test func aSocketIsRefusedAsASocket() throws {
        let dir = scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/sock"
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in path.utf8.enumerated() { raw[i] = b }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0)
        #expect(throws: FileError(path, .kind(.socket), accepted: OutputFile.accepted)) { try OutputFile(path: path) }
    }

    /// A block device node in a scratch directory (skipped where mknod(2)
    /// is not permitted): refused before anything is written to it.
    @Test func aBlockDeviceIsRefused() throws {
        let dir = scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/block"
        // Device 7:0 is /dev/loop0 (devices.txt); glibc encodes it as 0x700.
        guard mknod(path, S_IFBLK | 0o600, dev_t(0x700)) == 0 else { return }
        do {
            _ = try OutputFile(path: path)
            Issue.record("a block device was accepted")
        } catch {
            // Without a loop device the kernel may refuse the open itself.
            #expect(error == FileError(path, .kind(.blockDevice), accepted: OutputFile.accepted) || error.errno != nil, "\(error)")
        }
    }

    @Test func standardOutputIsNeverClosedByIt() throws {
        let out = OutputFile.standardOutput()
        out.close()
        #expect(fcntl(STDOUT_FILENO, F_GETFD) != -1)
    }
}

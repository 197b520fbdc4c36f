import Foundation
import Glibc
import Testing
import TockHardware
@testable import TockShell

/// A trace or timing log goes where the user said, written in place: a
/// link is followed, a FIFO or a device stays what it is.
@Suite struct TraceSinkTests {
    /// A scratch directory, removed when the test is done.
    final class Scratch {
        let path = NSTemporaryDirectory() + "tock-trace-\(UUID().uuidString)"
        init() { try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(atPath: path) }
    }

    /// `lstat(2)`: the path itself, not what a link points at.
    func status(_ path: String) -> stat? {
        var st = stat()
        return lstat(path, &st) == 0 ? st : nil
    }

    func kind(_ path: String) -> mode_t? { status(path).map { $0.st_mode & S_IFMT } }

    func trace(_ path: String, _ lines: [String]) throws {
        let sink = try TraceSink(path: path)
        for l in lines { sink.write(l) }
        sink.flush()
    }

    @Test func aRegularFileIsEmptiedAndWrittenInPlace() throws {
        let dir = Scratch()
        let path = dir.path + "/trace.jsonl"
        try Data(String(repeating: "old line\n", count: 100).utf8).write(to: URL(fileURLWithPath: path))
        let inode = status(path)?.st_ino
        try trace(path, ["{\"t\":0.000}"])
        #expect(FileManager.default.contents(atPath: path) == Data("{\"t\":0.000}\n".utf8))
        #expect(status(path)?.st_ino == inode, "the file was replaced, not written")
    }

    @Test func aSymbolicLinkIsFollowed() throws {
        let dir = Scratch()
        let target = dir.path + "/target", link = dir.path + "/link"
        try Data("old\n".utf8).write(to: URL(fileURLWithPath: target))
        #expect(symlink(target, link) == 0)
        try trace(link, ["new"])
        #expect(kind(link) == S_IFLNK)
        #expect(FileManager.default.contents(atPath: target) == Data("new\n".utf8))
    }

    @Test func aNamedPipeIsWrittenToAndStaysAPipe() throws {
        let dir = Scratch()
        let path = dir.path + "/fifo"
        #expect(mkfifo(path, 0o600) == 0)
        // A reader first, so the writer's open does not wait.
        let reader = open(path, O_RDONLY | O_NONBLOCK)
        #expect(reader >= 0)
        defer { close(reader) }
        try trace(path, ["through the pipe"])
        #expect(kind(path) == S_IFIFO)
        var bytes = [UInt8](repeating: 0, count: 64)
        let n = read(reader, &bytes, bytes.count)
        #expect(n > 0 && String(decoding: bytes[..<max(n, 0)], as: UTF8.self) == "through the pipe\n")
    }

    /// /dev/null itself is not used: a regression would replace the
    /// machine's. A node of the same device in a scratch directory shows
    /// the same (skipped where mknod(2) is not permitted).
    @Test func aCharacterDeviceStaysADevice() throws {
        let dir = Scratch()
        let path = dir.path + "/null"
        // Device 1:3 is /dev/null (devices.txt); glibc encodes major 1, minor 3 as 0x103.
        guard mknod(path, S_IFCHR | 0o666, dev_t(0x103)) == 0 else { return }
        try trace(path, ["into the void"])
        #expect(kind(path) == S_IFCHR)
    }

    @Test func aDirectoryIsRefusedNamingThePathAndWhatItIs() {
        let dir = Scratch()
        do {
            try trace(dir.path, ["x"])
            Issue.record("a directory was accepted as a trace")
        } catch {
            #expect("\(error)".contains(dir.path) && "\(error)".contains("is a directory"), "\(error)")
        }
    }
}

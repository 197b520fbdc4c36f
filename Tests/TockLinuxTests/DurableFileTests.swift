import Foundation
import SystemPackage
import Testing
@testable import TockLinux

@Suite struct DurableFileTests {
    func scratch() -> String {
        let dir = NSTemporaryDirectory() + "tock-durable-\(UUID().uuidString)"
        try! FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test func replaceWritesWholeContentAndLeavesNoTemporary() throws {
        let dir = scratch()
        let path = dir + "/state.json"
        try DurableFile.replace(path, with: Array("first".utf8))
        try DurableFile.replace(path, with: Array("second, longer".utf8))
        #expect(try DurableFile.read(path) == Array("second, longer".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["state.json"])
    }

    @Test func aMissingFileReadsAsNil() throws {
        #expect(try DurableFile.read(scratch() + "/none") == nil)
    }

    @Test func anOversizedFileIsRefused() throws {
        let path = scratch() + "/big"
        try DurableFile.replace(path, with: [UInt8](repeating: 65, count: 5000))
        #expect(throws: FileError(path, .system(.fileTooLarge))) { try DurableFile.read(path, limit: 4096) }
    }

    @Test func anUnwritableDirectoryIsAnError() {
        #expect(throws: FileError.self) { try DurableFile.replace("/proc/tock-cannot-write/state.json", with: [1]) }
    }

    @Test func aSymlinkAtThePathIsRefusedNotFollowed() throws {
        let dir = scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try DurableFile.replace(dir + "/elsewhere", with: Array("not the state".utf8))
        #expect(symlink(dir + "/elsewhere", dir + "/state.json") == 0)
        #expect(throws: FileError(dir + "/state.json", .kind(.symbolicLink))) { try DurableFile.read(dir + "/state.json") }
    }

    @Test func aStaleTemporaryFileIsReplacedAndAnythingElseThereIsRefused() throws {
        let dir = scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/state.json"
        try DurableFile.replace(dir + "/state.json.tmp", with: Array("half-written".utf8))
        try DurableFile.replace(path, with: Array("whole".utf8))
        #expect(try DurableFile.read(path) == Array("whole".utf8))
        #expect(mkfifo(path + ".tmp", 0o600) == 0)
        #expect(throws: FileError(path + ".tmp", .kind(.fifo))) { try DurableFile.replace(path, with: [1]) }
        #expect(try DurableFile.read(path) == Array("whole".utf8))
    }
}

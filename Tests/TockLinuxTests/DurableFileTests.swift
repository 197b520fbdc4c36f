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
        #expect(throws: Errno.fileTooLarge) { try DurableFile.read(path, limit: 4096) }
    }

    @Test func anUnwritableDirectoryIsAnError() {
        #expect(throws: Errno.self) { try DurableFile.replace("/proc/tock-cannot-write/state.json", with: [1]) }
    }
}

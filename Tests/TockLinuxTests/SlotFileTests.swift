import Foundation
import SystemPackage
import Testing
@testable import TockLinux

/// The state file's two slots: written in place, read back whole, and a
/// write cut short at any byte (or with its blocks reaching the card in
/// any order) reads as the state before it or the one after, never a mix.
@Suite struct SlotFileTests {
    func scratch() -> String {
        let dir = NSTemporaryDirectory() + "tock-slots-\(UUID().uuidString)"
        try! FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    func bytes(_ path: String) -> [UInt8] { Array(FileManager.default.contents(atPath: path) ?? Data()) }

    func payload(_ n: Int, _ fill: UInt8 = 0x61) -> [UInt8] { Array("{\"n\":\(n),\"pad\":\"".utf8) + [UInt8](repeating: fill, count: n % 700) + Array("\"}\n".utf8) }

    @Test func writesAlternateInPlaceAndReadBackTheNewest() throws {
        let path = scratch() + "/state.json"
        var w = SlotWriter(path: path)
        try w.write(payload(1))
        let inode = try #require(try SlotFile.identity(path))
        for n in 2...9 { try w.write(payload(n)) }
        #expect(w.whole == 1 && w.inPlace == 8)
        #expect(try SlotFile.identity(path) == inode, "a write in place keeps the file")
        #expect(bytes(path).count == SlotFile.fileSize)
        #expect(SlotFile.parse(bytes(path)) == .slot(payload(9), sequence: 10))
        // A writer that read the file at start carries on in place.
        var again = SlotWriter(path: path)
        guard case .slot(_, let sequence) = SlotFile.parse(bytes(path)) else { Issue.record("not slots"); return }
        again.read(sequence: sequence, identity: inode)
        try again.write(payload(10))
        #expect(again.inPlace == 1 && again.whole == 0)
        #expect(SlotFile.parse(bytes(path)) == .slot(payload(10), sequence: 11))
    }

    /// Every cut of the newest write, byte by byte: what is read is the
    /// state before it until the write is whole.
    @Test func aWriteCutAtAnyByteReadsAsTheStateBefore() throws {
        let path = scratch() + "/state.json"
        var w = SlotWriter(path: path)
        try w.write(payload(1))
        try w.write(payload(2))
        let before = bytes(path)
        let next = SlotFile.slot(payload(3), sequence: 4)
        for cut in 0...next.count {
            var torn = before
            torn.replaceSubrange(0..<cut, with: next[0..<cut])
            let want: SlotFile.Content = cut == next.count ? .slot(payload(3), sequence: 4) : .slot(payload(2), sequence: 3)
            #expect(SlotFile.parse(torn) == want, "cut at \(cut) of \(next.count)")
        }
    }

    /// A payload of several blocks whose 4 KiB blocks reach the card in any
    /// subset (a file system without data journalling may write them out of
    /// order): never a mix.
    @Test func blocksOfAWriteInAnyOrderReadAsOneStateOrTheOther() throws {
        let path = scratch() + "/state.json"
        var w = SlotWriter(path: path)
        let old = [UInt8](repeating: 0x41, count: 12_000), new = [UInt8](repeating: 0x42, count: 12_500)
        try w.write(Array("x".utf8))
        try w.write(old)
        let before = bytes(path)
        let next = SlotFile.slot(new, sequence: 4)
        let blocks = (next.count + 4095) / 4096
        for subset in 0..<(1 << blocks) {
            var torn = before
            for b in 0..<blocks where subset & (1 << b) != 0 {
                let r = (b * 4096)..<min(next.count, (b + 1) * 4096)
                torn.replaceSubrange(r, with: next[r])
            }
            let got = SlotFile.parse(torn)
            #expect(got == .slot(old, sequence: 3) || (subset == (1 << blocks) - 1 && got == .slot(new, sequence: 4)), "blocks \(subset)")
        }
    }

    @Test func bothSlotsDamagedSaysWhy() throws {
        let path = scratch() + "/state.json"
        var w = SlotWriter(path: path)
        try w.write(payload(1))
        try w.write(payload(2))
        var b = bytes(path)
        b[SlotFile.headerSize + 3] ^= 1
        b[SlotFile.slotSize + SlotFile.headerSize + 3] ^= 1
        guard case .damaged(let why) = SlotFile.parse(b) else { Issue.record("read as whole"); return }
        #expect(why == "slot 1: its CRC does not match (a write cut short); slot 2: its CRC does not match (a write cut short)")
        #expect(SlotFile.parse([UInt8](repeating: 0, count: SlotFile.fileSize)) == .damaged("40960 zero bytes, no slot written"))
    }

    /// Headers a crafted file could hold: refused slot by slot, never a
    /// read past the slot or a trap.
    @Test(arguments: [
        ("tock-state 0000000000000002 ffffffff 00000000\n", "slot 1: a length of 4294967295 bytes, past the slot"),
        ("tock-state 000000000000000g 00000002 00000000\n", "slot 1: a header that is not one"),
        ("tock-state 0000000000000002 00000002-00000000\n", "slot 1: a header that is not one"),
        ("tock-state 0000000000000003 00000002 00000000\n", "slot 1 holds sequence 3, which belongs in the other slot"),
        ("tock-state 0000000000000002 00000500 00000000\n", "slot 1: its CRC does not match (a write cut short)"),
        ("tock-state 0000", "slot 1: a header that is not one"),
    ])
    func craftedHeadersAreRefused(_ header: String, _ why: String) {
        var b = Array(header.utf8) + Array("{}".utf8)
        if header.hasPrefix("tock-state 0000000000000003") {
            // a whole slot, in the wrong place
            b = SlotFile.slot(Array("{}".utf8), sequence: 3)
        }
        b += [UInt8](repeating: 0, count: max(0, SlotFile.slotSize - b.count))
        guard case .damaged(let said) = SlotFile.parse(b) else { Issue.record("read as whole"); return }
        #expect(said.hasPrefix(why), "\(said)")
    }

    @Test func aPlainFileIsReadAsItIsAndReplacedWholeByTheNextWrite() throws {
        let path = scratch() + "/state.json"
        try DurableFile.replace(path, with: Array("{\"version\":4}\n".utf8))
        #expect(SlotFile.parse(bytes(path)) == .plain(Array("{\"version\":4}\n".utf8)))
        var w = SlotWriter(path: path)
        try w.write(payload(5))
        #expect(w.whole == 1)
        #expect(SlotFile.parse(bytes(path)) == .slot(payload(5), sequence: 2))
    }

    /// A file that is not the one read (replaced, cut to another length, a
    /// link planted) is never written into: it is written new, whole, and
    /// a link's target is left alone.
    @Test func aFileChangedUnderTheWriterIsWrittenWhole() throws {
        let dir = scratch()
        let path = dir + "/state.json"
        var w = SlotWriter(path: path)
        try w.write(payload(1))
        try DurableFile.replace(path, with: [UInt8](repeating: 0, count: SlotFile.fileSize))  // another inode
        try w.write(payload(2))
        #expect(w.whole == 2 && w.inPlace == 0)
        #expect(truncate(path, 100) == 0)
        try w.write(payload(3))
        #expect(w.whole == 3)
        try DurableFile.replace(dir + "/victim", with: Array("precious".utf8))
        #expect(unlink(path) == 0 && symlink(dir + "/victim", path) == 0)
        try w.write(payload(4))
        #expect(bytes(dir + "/victim") == Array("precious".utf8))
        #expect(SlotFile.parse(bytes(path)) == .slot(payload(4), sequence: 2))
        #expect(w.whole == 4)
    }

    /// A FIFO planted at the path is not waited on or written into: the
    /// state is written whole in its place.
    @Test func aFifoPlantedAtThePathIsReplaced() throws {
        let path = scratch() + "/state.json"
        var w = SlotWriter(path: path)
        try w.write(payload(1))
        #expect(unlink(path) == 0 && mkfifo(path, 0o600) == 0)
        try w.write(payload(2))
        #expect(w.whole == 2)
        #expect(SlotFile.parse(bytes(path)) == .slot(payload(2), sequence: 2))
    }

    @Test func aSequenceAtTheEndOfItsRangeStartsAgainWhole() throws {
        let path = scratch() + "/state.json"
        var w = SlotWriter(path: path)
        try w.write(payload(1))
        let id = try #require(try SlotFile.identity(path))
        w.read(sequence: UInt64.max - 1, identity: id)
        try w.write(payload(2))
        #expect(w.whole == 2)
        #expect(SlotFile.parse(bytes(path)) == .slot(payload(2), sequence: 2))
    }
}

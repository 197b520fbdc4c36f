import CZlib
import Glibc
import SystemPackage

/// A small file that changes often and must survive a power cut whole (the
/// state file), rewritten in place so that a change costs the card one
/// block rather than a new file, two syncs and a rename.
///
/// The file is two slots of `slotSize` bytes. Each holds a header line and
/// a payload:
///
///     tock-state SSSSSSSSSSSSSSSS LLLLLLLL CCCCCCCC\n<payload>
///
/// (S the slot's sequence number, L the payload's length, C a CRC-32 of the
/// header up to the CRC and of the payload; all hexadecimal). A write takes
/// the next sequence number and goes to the slot it names (`sequence % 2`),
/// never to the slot holding the newest whole payload: a write torn by a
/// power cut leaves the other slot, the state before it, to be read. One
/// `pwrite` and one `fdatasync` a write; the file's length and blocks never
/// change, so no metadata but its times is written.
///
/// A file that is not in this form (none yet, a plain payload written by an
/// earlier version, one of another length, one replaced since it was read)
/// is written new, whole, by `DurableFile.replace` (a temporary file, fsync,
/// rename, fsync of the directory), and then in place again.
public enum SlotFile {
    public static let slotSize = 20_480
    static let headerSize = 46
    /// The largest payload a slot holds.
    public static let capacity = slotSize - headerSize
    public static let fileSize = 2 * slotSize
    static let magic = Array("tock-state ".utf8)

    /// What a file holds.
    public enum Content: Equatable, Sendable {
        /// A file that is one payload (not in slots): read as it is.
        case plain([UInt8])
        /// The newest whole slot's payload, and its sequence number.
        case slot([UInt8], sequence: UInt64)
        /// Slots, none of them whole (why, for the log).
        case damaged(String)
    }

    /// The content of a file's bytes.
    public static func parse(_ bytes: [UInt8]) -> Content {
        guard bytes.starts(with: magic) || (bytes.count > slotSize && bytes[slotSize...].starts(with: magic)) else {
            return bytes.allSatisfy({ $0 == 0 }) && !bytes.isEmpty ? .damaged("\(bytes.count) zero bytes, no slot written") : .plain(bytes)
        }
        var best: (payload: [UInt8], sequence: UInt64)?
        var why: [String] = []
        for index in 0..<2 {
            let start = index * slotSize
            guard start < bytes.count else {
                why.append("slot \(index + 1) missing (the file has \(bytes.count) bytes)")
                continue
            }
            switch slot(bytes[start..<min(bytes.count, start + slotSize)]) {
            case .success(let s):
                if s.sequence % 2 != UInt64(index) {
                    why.append("slot \(index + 1) holds sequence \(s.sequence), which belongs in the other slot")
                } else if best.map({ s.sequence > $0.sequence }) ?? true {
                    best = s
                }
            case .failure(let e):
                why.append("slot \(index + 1): \(e.why)")
            }
        }
        guard let best else { return .damaged(why.joined(separator: "; ")) }
        return .slot(best.payload, sequence: best.sequence)
    }

    struct SlotError: Error { var why: String }

    /// One slot's payload and sequence, if it is whole.
    static func slot(_ bytes: ArraySlice<UInt8>) -> Result<(payload: [UInt8], sequence: UInt64), SlotError> {
        let b = Array(bytes)
        guard b.count >= headerSize, b.starts(with: magic) else { return .failure(SlotError(why: "no header")) }
        guard b[27] == 0x20, b[36] == 0x20, b[45] == 0x0A,
              let sequence = hex(b[11..<27]), let length = hex(b[28..<36]), let crc = hex(b[37..<45])
        else { return .failure(SlotError(why: "a header that is not one")) }
        guard length <= UInt64(capacity), headerSize + Int(length) <= b.count else {
            return .failure(SlotError(why: "a length of \(length) bytes, past the slot"))
        }
        let payload = Array(b[headerSize..<headerSize + Int(length)])
        guard UInt64(checksum(b[0..<37], payload)) == crc else {
            return .failure(SlotError(why: "its CRC does not match (a write cut short)"))
        }
        return .success((payload, sequence))
    }

    /// A slot's bytes: the header and the payload.
    static func slot(_ payload: [UInt8], sequence: UInt64) -> [UInt8] {
        precondition(payload.count <= capacity, "a slot holds at most \(capacity) bytes")
        var head = magic + hexDigits(sequence, 16) + [0x20] + hexDigits(UInt64(payload.count), 8) + [0x20]
        head += hexDigits(UInt64(checksum(head[...], payload)), 8) + [0x0A]
        return head + payload
    }

    static func checksum(_ head: ArraySlice<UInt8>, _ payload: [UInt8]) -> UInt32 {
        let c = head.withUnsafeBufferPointer { tock_crc32(0, $0.baseAddress, $0.count) }
        return payload.withUnsafeBufferPointer { tock_crc32(c, $0.baseAddress, $0.count) }
    }

    private static func hex(_ digits: ArraySlice<UInt8>) -> UInt64? {
        var v: UInt64 = 0
        for d in digits {
            let n: UInt8
            switch d {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): n = d - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): n = d - UInt8(ascii: "a") + 10
            default: return nil
            }
            v = v << 4 | UInt64(n)
        }
        return v
    }

    private static let digits = Array("0123456789abcdef".utf8)

    private static func hexDigits(_ value: UInt64, _ count: Int) -> [UInt8] {
        (0..<count).reversed().map { digits[Int(value >> (4 * UInt64($0)) & 0xF)] }
    }

    /// Which file was read or written: a write in place goes only to it.
    public struct Identity: Equatable, Sendable {
        var device: UInt64
        var inode: UInt64
    }

    /// The file's bytes (at most `fileSize`) and identity; nil if there is
    /// none. Refused as `DurableFile.read` refuses: a symbolic link, a FIFO,
    /// anything but a regular file, a file larger than a slot file.
    public static func read(_ path: String) throws(FileError) -> (bytes: [UInt8], identity: Identity)? {
        guard let bytes = try DurableFile.read(path, limit: fileSize) else { return nil }
        return (bytes, try identity(path) ?? Identity(device: 0, inode: 0))
    }

    static func identity(_ path: String) throws(FileError) -> Identity? {
        do throws(Errno) {
            let fd = try Syscall.open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW)
            defer { Syscall.close(fd) }
            let st = try Syscall.status(of: fd)
            return Identity(device: st.device, inode: st.inode)
        } catch where error == .noSuchFileOrDirectory {
            return nil
        } catch {
            throw FileError(path, .system(error))
        }
    }
}

/// Writes a slot file (`SlotFile`): in place while the file is the one it
/// knows, else whole and new.
public struct SlotWriter: Sendable {
    public let path: String
    /// The newest whole slot's sequence and the file holding it.
    private var known: (sequence: UInt64, identity: SlotFile.Identity)?
    /// Writes made in place, and whole (for the tests and the benchmark).
    public private(set) var inPlace = 0
    public private(set) var whole = 0

    public init(path: String) { self.path = path }

    /// What was read at start: the file's newest slot is the one written after.
    public mutating func read(sequence: UInt64, identity: SlotFile.Identity) {
        known = (sequence, identity)
    }

    public mutating func write(_ payload: [UInt8]) throws(FileError) {
        if let k = known, k.sequence < UInt64.max - 1, try writeInPlace(payload, sequence: k.sequence + 1, identity: k.identity) {
            known = (k.sequence + 1, k.identity)
            inPlace += 1
            return
        }
        known = nil
        var bytes = SlotFile.slot(payload, sequence: 2)
        bytes += [UInt8](repeating: 0, count: SlotFile.fileSize - bytes.count)
        try DurableFile.replace(path, with: bytes)
        whole += 1
        if let id = try SlotFile.identity(path) { known = (2, id) }
    }

    /// false when the file is not the one known (gone, replaced, another
    /// length, not a regular file): it is then written whole.
    private func writeInPlace(_ payload: [UInt8], sequence: UInt64, identity: SlotFile.Identity) throws(FileError) -> Bool {
        let fd: FileDescriptor
        do throws(Errno) {
            fd = try Syscall.open(path, O_WRONLY | O_NONBLOCK | O_NOFOLLOW)
        } catch where error == .noSuchFileOrDirectory || error == .tooManySymbolicLinkLevels || error == .noSuchAddressOrDevice {
            // Gone, a link planted, a FIFO planted with no reader (ENXIO):
            // not the file known, written whole in its place.
            return false
        } catch {
            throw FileError(path, .system(error))
        }
        defer { Syscall.close(fd) }
        do throws(Errno) {
            let st = try Syscall.status(of: fd)
            guard st.kind == .regular, st.size == Int64(SlotFile.fileSize),
                  SlotFile.Identity(device: st.device, inode: st.inode) == identity else { return false }
            try Syscall.write(fd, SlotFile.slot(payload, sequence: sequence), at: Int64(sequence % 2) * Int64(SlotFile.slotSize))
            try Syscall.fdatasync(fd)
            return true
        } catch {
            throw FileError(path, .system(error))
        }
    }
}

/// One line of authorized_keys (sshd(8) "AUTHORIZED_KEYS FILE FORMAT"),
/// without options: the key type, the key in base64, an optional comment.
/// The base64 is decoded and the type named inside the blob (RFC 4253
/// section 6.6: a string, then the key's fields) must be the one written
/// in front of it, so a key cut short or pasted with its type changed is
/// refused here rather than ignored by sshd at the first login.
public struct SSHKey: Equatable, Sendable, CustomStringConvertible {
    public let type: String
    public let base64: String
    public let comment: String

    public static let types = ["ssh-ed25519", "ssh-rsa", "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384", "ecdsa-sha2-nistp521",
                               "sk-ssh-ed25519@openssh.com", "sk-ecdsa-sha2-nistp256@openssh.com"]

    public var description: String { comment.isEmpty ? "\(type) \(base64)" : "\(type) \(base64) \(comment)" }

    public enum Invalid: Error, Equatable { case type(String), base64, blob, control }

    public static func parse(_ bytes: some Collection<UInt8>) -> Result<SSHKey, Invalid> {
        // A control character (a line break above all) would make another line of authorized_keys.
        guard !bytes.contains(where: { $0 < 0x20 || $0 == 0x7F }) else { return .failure(.control) }
        let fields = Array(bytes).split(separator: UInt8(ascii: " "), maxSplits: 2, omittingEmptySubsequences: true)
        let type = String(decoding: fields.first ?? [], as: UTF8.self)
        guard types.contains(type) else { return .failure(.type(type)) }
        guard fields.count >= 2, let blob = decodeBase64(fields[1]) else { return .failure(.base64) }
        // The blob: uint32 length, the type's name, then the key itself.
        guard blob.count > 4 else { return .failure(.blob) }
        let n = Int(blob[0]) << 24 | Int(blob[1]) << 16 | Int(blob[2]) << 8 | Int(blob[3])
        guard n == type.utf8.count, blob.count > 4 + n, Array(blob[4..<(4 + n)]) == Array(type.utf8) else { return .failure(.blob) }
        let comment = fields.count > 2 ? String(decoding: fields[2], as: UTF8.self) : ""
        return .success(SSHKey(type: type, base64: String(decoding: fields[1], as: UTF8.self), comment: comment))
    }

    /// RFC 4648 section 4, padded, nothing else allowed.
    static func decodeBase64(_ text: some Collection<UInt8>) -> [UInt8]? {
        guard !text.isEmpty, text.count % 4 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(text.count / 4 * 3)
        var acc: UInt32 = 0, bits = 0, padding = 0
        for c in text {
            let v: UInt32
            switch c {
            case 0x41...0x5A: v = UInt32(c - 0x41)
            case 0x61...0x7A: v = UInt32(c - 0x61 + 26)
            case 0x30...0x39: v = UInt32(c - 0x30 + 52)
            case UInt8(ascii: "+"): v = 62
            case UInt8(ascii: "/"): v = 63
            case UInt8(ascii: "="): padding += 1; continue
            default: return nil
            }
            if padding > 0 { return nil }
            acc = acc << 6 | v
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: acc >> UInt32(bits)))
            }
        }
        guard padding <= 2 else { return nil }
        return out
    }
}

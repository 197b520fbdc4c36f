/// An IPv4 address in dotted decimal as RFC 6943 section 3.1.1 calls
/// strict: four decimal numbers 0 to 255, no leading zeros (which
/// inet_aton would read as octal: 010 is 8), no other forms.
public struct IPv4Address: Equatable, Hashable, Sendable, CustomStringConvertible {
    public let value: UInt32

    public init(_ value: UInt32) { self.value = value }

    public init?(_ bytes: some Collection<UInt8>) {
        var parts: [UInt32] = []
        var current: UInt32 = 0
        var digits = 0
        var leadingZero = false
        for b in bytes {
            if b == UInt8(ascii: ".") {
                guard digits > 0, parts.count < 3 else { return nil }
                parts.append(current)
                (current, digits, leadingZero) = (0, 0, false)
            } else if (0x30...0x39).contains(b) {
                if leadingZero { return nil }
                if digits == 0 && b == 0x30 { leadingZero = true }
                current = current * 10 + UInt32(b - 0x30)
                digits += 1
                guard current <= 255, digits <= 3 else { return nil }
            } else {
                return nil
            }
        }
        guard digits > 0, parts.count == 3 else { return nil }
        parts.append(current)
        value = parts.reduce(0) { $0 << 8 | $1 }
    }

    public var description: String {
        (0..<4).map { String(value >> (24 - 8 * UInt32($0)) & 0xFF) }.joined(separator: ".")
    }

    /// Why this address cannot be a host's own, a gateway or a DNS server, if it cannot.
    public var notUnicast: String? {
        let first = value >> 24
        if first == 0 { return "0.0.0.0/8 means \"this network\" (RFC 1122)" }
        if first == 127 { return "127.0.0.0/8 is the box's own loopback" }
        if (224...239).contains(first) { return "224.0.0.0/4 is multicast" }
        if first >= 240 { return "240.0.0.0/4 is reserved (255.255.255.255 is broadcast)" }
        return nil
    }
}

/// The box's own address with its prefix length, `192.168.1.50/24`.
public struct IPv4Interface: Equatable, Sendable, CustomStringConvertible {
    public let address: IPv4Address
    public let prefix: Int

    public var description: String { "\(address)/\(prefix)" }

    public var mask: UInt32 { prefix == 0 ? 0 : UInt32.max << (32 - UInt32(prefix)) }

    public func contains(_ other: IPv4Address) -> Bool { other.value & mask == address.value & mask }

    public enum Invalid: Error, Equatable { case form, prefix, notUnicast(String), network, broadcast }

    /// Prefix 1 to 32 (0 would claim every address as on the link); below
    /// /31 the host part may be neither all zeros (the network) nor all ones
    /// (its broadcast); /31 (RFC 3021) and /32 have no such addresses.
    public static func parse(_ bytes: some Collection<UInt8>) -> Result<IPv4Interface, Invalid> {
        let text = Array(bytes)
        guard let slash = text.firstIndex(of: UInt8(ascii: "/")), let address = IPv4Address(text[..<slash]) else { return .failure(.form) }
        let p = text[(slash + 1)...]
        guard (1...2).contains(p.count), p.allSatisfy({ (0x30...0x39).contains($0) }), p.first != 0x30 else { return .failure(.prefix) }
        let prefix = p.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        guard (1...32).contains(prefix) else { return .failure(.prefix) }
        if let why = address.notUnicast { return .failure(.notUnicast(why)) }
        let i = IPv4Interface(address: address, prefix: prefix)
        if prefix < 31 {
            if address.value & ~i.mask == 0 { return .failure(.network) }
            if address.value & ~i.mask == ~i.mask { return .failure(.broadcast) }
        }
        return .success(i)
    }
}

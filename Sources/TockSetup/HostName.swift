/// A host name as RFC 1123 section 2.1 allows one label of it: 1 to 63
/// letters, digits and hyphens, not starting or ending with a hyphen (the
/// name mDNS announces as NAME.local).
public struct HostName: Equatable, Sendable, CustomStringConvertible {
    public let description: String

    public init?(_ bytes: some BidirectionalCollection<UInt8>) {
        guard (1...63).contains(bytes.count), bytes.first != UInt8(ascii: "-"), bytes.last != UInt8(ascii: "-"),
              bytes.allSatisfy({ HostName.allowed($0) }) else { return nil }
        description = String(decoding: bytes, as: UTF8.self)
    }

    static func allowed(_ b: UInt8) -> Bool {
        (0x30...0x39).contains(b) || (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b) || b == UInt8(ascii: "-")
    }

    public static let tock = HostName(Array("tock".utf8))!
}

/// An ISO 3166-1 alpha-2 country code in capitals, as wpa_supplicant's
/// `country=` and the kernel's regulatory database take it.
public struct CountryCode: Equatable, Sendable, CustomStringConvertible {
    public let description: String

    public init?(_ bytes: some Collection<UInt8>) {
        guard bytes.count == 2, bytes.allSatisfy({ (0x41...0x5A).contains($0) }) else { return nil }
        description = String(decoding: bytes, as: UTF8.self)
    }
}

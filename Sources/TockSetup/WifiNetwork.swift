/// The Wi-Fi network to join, its values as bytes exactly as typed: the
/// configuration written for wpa_supplicant carries them as hex, so no
/// quote, backslash or non-ASCII letter is ever read as syntax.
public struct WifiNetwork: Equatable, Sendable {
    /// 1 to 32 bytes (IEEE 802.11-2020 9.4.2.2: the SSID element's length).
    public var ssid: [UInt8]
    public var key: Key?
    public var country: CountryCode?
    /// The network does not announce itself: probe for it by name (scan_ssid=1).
    public var hidden = false

    public enum Key: Equatable, Sendable {
        /// 8 to 63 bytes (IEEE 802.11-2020 J.4.1).
        case passphrase([UInt8])
        /// The 32-byte pairwise master key itself, typed as 64 hex digits.
        case pmk([UInt8])
    }

    public init(ssid: [UInt8], key: Key?, country: CountryCode?, hidden: Bool = false) {
        self.ssid = ssid
        self.key = key
        self.country = country
        self.hidden = hidden
    }

    public enum Invalid: Error, Equatable { case ssidLength(Int), keyLength(Int), keyControl, notHex }

    public static func ssid(_ bytes: some Collection<UInt8>) -> Result<[UInt8], Invalid> {
        (1...32).contains(bytes.count) ? .success(Array(bytes)) : .failure(.ssidLength(bytes.count))
    }

    /// A passphrase of 8 to 63 bytes, or 64 hex digits (the PMK, as
    /// wpa_supplicant's `psk=` and Raspberry Pi Imager's saved password
    /// take it). Control characters are refused: no keyboard types them
    /// into a router's page.
    public static func key(_ bytes: some Collection<UInt8>) -> Result<Key, Invalid> {
        let b = Array(bytes)
        if b.count == 64 {
            guard let pmk = hexBytes(b) else { return .failure(.notHex) }
            return .success(.pmk(pmk))
        }
        guard (8...63).contains(b.count) else { return .failure(.keyLength(b.count)) }
        guard !b.contains(where: { $0 < 0x20 || $0 == 0x7F }) else { return .failure(.keyControl) }
        return .success(.passphrase(b))
    }

    /// The PMK wpa_supplicant uses: as typed, or PBKDF2-HMAC-SHA1 of the
    /// passphrase salted with the SSID, 4,096 rounds, 32 bytes (IEEE
    /// 802.11-2020 J.4.1; wpa_passphrase prints the same).
    public func pmk() throws(PBKDF2.Unavailable) -> [UInt8]? {
        switch key {
        case .none: return nil
        case .pmk(let k): return k
        case .passphrase(let p): return try PBKDF2.sha1(password: p, salt: ssid, iterations: 4096, length: 32)
        }
    }

    static func hexBytes(_ b: [UInt8]) -> [UInt8]? {
        guard b.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        var i = 0
        while i < b.count {
            guard let h = nibble(b[i]), let l = nibble(b[i + 1]) else { return nil }
            out.append(h << 4 | l)
            i += 2
        }
        return out
    }

    static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: return c - 0x30
        case 0x41...0x46: return c - 0x41 + 10
        case 0x61...0x66: return c - 0x61 + 10
        default: return nil
        }
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for b in bytes { out.append(digits[Int(b >> 4)]); out.append(digits[Int(b & 15)]) }
        return String(decoding: out, as: UTF8.self)
    }
}

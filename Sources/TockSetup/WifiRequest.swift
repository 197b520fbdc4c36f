/// The Wi-Fi setting chosen on the setup hotspot's page: the request the
/// page leaves for `tock setup hotspot` and the copy kept on /data. Every
/// value is written as hex, so any byte of a network name (32 of any
/// kind, NUL and line breaks included) or of a passphrase (quotes,
/// backslashes, spaces) passes through exactly; the values are checked by
/// the same `WifiNetwork` rules as tock-setup.txt's.
///
///     ssid = 486f6d65
///     passphrase = 636f7272656374...     (absent: an open network)
///     country = GB
///     hidden = no
///     replaces = 0123456789abcdef      (the kept copy only)
public enum WifiRequest {
    /// The most a request may be: its longest form is under 300 bytes.
    public static let limit = 1024

    public struct Invalid: Error, Equatable, Sendable, CustomStringConvertible {
        public var description: String
        init(_ d: String) { description = d }
    }

    public static func text(_ w: WifiNetwork, replaces: UInt64? = nil) -> String {
        var lines = ["ssid = \(WifiNetwork.hex(w.ssid))"]
        switch w.key {
        case .passphrase(let p): lines.append("passphrase = \(WifiNetwork.hex(p))")
        case .pmk(let k): lines.append("passphrase = \(WifiNetwork.hex(Array(WifiNetwork.hex(k).utf8)))")
        case .none: break
        }
        if let c = w.country { lines.append("country = \(c)") }
        lines.append("hidden = \(w.hidden ? "yes" : "no")")
        if let r = replaces { lines.append("replaces = \(hex64(r))") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A request or a kept copy, checked; `replaces` when it says.
    public static func parse(_ bytes: [UInt8]) -> Result<(WifiNetwork, replaces: UInt64?), Invalid> {
        guard bytes.count <= limit else { return .failure(Invalid("the request is more than \(limit) bytes")) }
        var fields: [String: [UInt8]] = [:]
        for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: true) {
            guard let eq = line.firstIndex(of: UInt8(ascii: "=")),
                  line.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return .failure(Invalid("a line is not key = value in ASCII")) }
            let key = String(decoding: line[..<eq], as: UTF8.self).trimmingSpaces
            guard ["ssid", "passphrase", "country", "hidden", "replaces"].contains(key) else { return .failure(Invalid("unknown key \(VisibleText.quoted(key.utf8))")) }
            guard fields[key] == nil else { return .failure(Invalid("\(key) is given twice")) }
            fields[key] = Array(String(decoding: line[(eq + 1)...], as: UTF8.self).trimmingSpaces.utf8)
        }
        guard let ssidHex = fields["ssid"], let ssidBytes = WifiNetwork.hexBytes(ssidHex) else { return .failure(Invalid("ssid is missing or not hex")) }
        let country = fields["country"].flatMap { CountryCode($0) }
        if fields["country"] != nil && country == nil { return .failure(Invalid("country is not a two-letter code in capitals")) }
        let hidden: Bool
        switch fields["hidden"].map({ String(decoding: $0, as: UTF8.self) }) {
        case "yes": hidden = true
        case "no", nil: hidden = false
        default: return .failure(Invalid("hidden is neither yes nor no"))
        }
        var replaces: UInt64?
        if let r = fields["replaces"] {
            guard let v = hex64(r) else { return .failure(Invalid("replaces is not 16 hex digits")) }
            replaces = v
        }
        var key: [UInt8]?
        if let p = fields["passphrase"] {
            guard let b = WifiNetwork.hexBytes(p) else { return .failure(Invalid("passphrase is not hex")) }
            key = b
        }
        switch check(ssid: ssidBytes, passphrase: key, country: country, hidden: hidden) {
        case .success(let w): return .success((w, replaces))
        case .failure(let e): return .failure(e)
        }
    }

    /// The typed checks, with what to fix in the words the page shows.
    public static func check(ssid: [UInt8], passphrase: [UInt8]?, country: CountryCode?, hidden: Bool) -> Result<WifiNetwork, Invalid> {
        guard case .success(let s) = WifiNetwork.ssid(ssid) else {
            return .failure(Invalid("the network name is \(ssid.count) bytes; a network name is 1 to 32 bytes"))
        }
        var key: WifiNetwork.Key?
        if let p = passphrase, !p.isEmpty {
            switch WifiNetwork.key(p) {
            case .success(let k): key = k
            case .failure(.notHex): return .failure(Invalid("the password is 64 characters but not 64 hex digits (a password is 8 to 63 characters)"))
            case .failure(.keyControl): return .failure(Invalid("the password holds a control character (a tab, a line break or another invisible one)"))
            case .failure: return .failure(Invalid("the password must be 8 to 63 characters (it has \(p.count) bytes), or empty for an open network"))
            }
        }
        guard let country else { return .failure(Invalid("choose the country the box is in (its radio may only use the channels allowed there)")) }
        return .success(WifiNetwork(ssid: s, key: key, country: country, hidden: hidden))
    }

    /// A digest of a network's settings (FNV-1a, 64 bits): the kept copy
    /// names the boot partition's Wi-Fi it replaced, so a later change on
    /// the card is seen. A change detector, not a secret.
    public static func fingerprint(_ w: WifiNetwork?) -> UInt64 {
        var h: UInt64 = 0xcbf29ce484222325
        func eat(_ bytes: [UInt8]) {
            for b in [UInt8(truncatingIfNeeded: bytes.count)] + bytes { h = (h ^ UInt64(b)) &* 0x100000001b3 }
        }
        guard let w else { eat(Array("none".utf8)); return h }
        eat(w.ssid)
        switch w.key {
        case .none: eat([0])
        case .passphrase(let p): eat([1]); eat(p)
        case .pmk(let k): eat([2]); eat(k)
        }
        eat(Array((w.country?.description ?? "").utf8))
        eat([w.hidden ? 1 : 0])
        return h
    }

    public static func hex(_ b: [UInt8]) -> String { WifiNetwork.hex(b) }

    /// Hex digits (either case) read back as bytes.
    public static func bytes(hex b: some Collection<UInt8>) -> [UInt8]? { WifiNetwork.hexBytes(Array(b)) }

    /// 16 hex digits read back.
    public static func hex64(_ b: some Collection<UInt8>) -> UInt64? {
        guard b.count == 16, let bytes = WifiNetwork.hexBytes(Array(b)) else { return nil }
        return bytes.reduce(0) { $0 << 8 | UInt64($1) }
    }

    public static func hex64(_ v: UInt64) -> String {
        WifiNetwork.hex((0..<8).map { UInt8(truncatingIfNeeded: v >> (56 - 8 * $0)) })
    }
}

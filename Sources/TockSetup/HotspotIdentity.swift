/// The setup hotspot's name and passphrase: made once per box from the
/// kernel's random numbers and kept on /data (docs/raspberry-pi.md, "No
/// network: the setup hotspot"), so what the boot partition's
/// tock/hotspot.txt says stays true.
public struct HotspotIdentity: Equatable, Sendable {
    /// `Tock-` and four letters or digits.
    public var ssid: [UInt8]
    /// Three groups of four letters and digits joined by hyphens: 12
    /// characters of 32 kinds, 60 bits; no 0/o, 1/l to misread.
    public var passphrase: [UInt8]

    public static let alphabet = Array("abcdefghijkmnpqrstuvwxyz23456789".utf8)
    /// What the display shows while the hotspot opens (a notice, 300 s):
    /// every glyph one the 7-segment font has.
    public static let notice = "AP on"
    /// The address of the box on its hotspot (and the page's).
    public static let address = "192.168.4.1"

    public init(ssid: [UInt8], passphrase: [UInt8]) {
        self.ssid = ssid
        self.passphrase = passphrase
    }

    public static func make(using random: inout some RandomNumberGenerator) -> HotspotIdentity {
        func pick(_ n: Int) -> [UInt8] { (0..<n).map { _ in alphabet[Int(random.next(upperBound: UInt32(alphabet.count)))] } }
        let name = Array("Tock-".utf8) + pick(4).map { $0 >= 0x61 ? $0 - 0x20 : $0 }
        var pass: [UInt8] = []
        for g in 0..<3 { if g > 0 { pass.append(UInt8(ascii: "-")) }; pass += pick(4) }
        return HotspotIdentity(ssid: name, passphrase: pass)
    }

    /// The network wpa_supplicant opens (its key made like any other).
    public var network: WifiNetwork { WifiNetwork(ssid: ssid, key: .passphrase(passphrase), country: nil) }

    /// The kept file: `ssid = ...` and `passphrase = ...`.
    public var text: String {
        "ssid = \(String(decoding: ssid, as: UTF8.self))\npassphrase = \(String(decoding: passphrase, as: UTF8.self))\n"
    }

    /// The kept file read back; nil when it is not one this code wrote
    /// (the caller makes a new identity).
    public static func parse(_ bytes: [UInt8]) -> HotspotIdentity? {
        guard bytes.count < 256 else { return nil }
        var ssid: [UInt8]?, pass: [UInt8]?
        for line in bytes.split(separator: 0x0A) {
            guard let eq = line.firstIndex(of: UInt8(ascii: "=")) else { return nil }
            let key = String(decoding: line[..<eq], as: UTF8.self).trimmingSpaces
            let value = Array(String(decoding: line[(eq + 1)...], as: UTF8.self).trimmingSpaces.utf8)
            switch key {
            case "ssid": ssid = value
            case "passphrase": pass = value
            default: return nil
            }
        }
        guard let ssid, let pass, (6...32).contains(ssid.count), (8...63).contains(pass.count),
              (ssid + pass).allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
        return HotspotIdentity(ssid: ssid, passphrase: pass)
    }

    /// tock/hotspot.txt on the boot partition.
    public var card: String {
        """
        Tock setup hotspot
        ==================
        When the box finds no network (no Wi-Fi joined and no Ethernet address
        for 90 seconds), it opens its own Wi-Fi network:

          name (SSID):  \(String(decoding: ssid, as: UTF8.self))
          password:     \(String(decoding: passphrase, as: UTF8.self))

        Join it with a phone or laptop and open http://\(Self.address)/
        to choose the box's Wi-Fi. The box then closes the hotspot and joins
        that network; if it cannot, the hotspot opens again.
        This name and password belong to this box (they are kept on its card).

        """
    }
}

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " || s.first == "\t" || s.first == "\r" { s.removeFirst() }
        while s.last == " " || s.last == "\t" || s.last == "\r" { s.removeLast() }
        return String(s)
    }
}

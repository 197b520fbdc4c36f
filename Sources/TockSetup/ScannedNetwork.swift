/// The networks the radio heard, as the setup hotspot's page lists them:
/// read from `wpa_cli scan_results` (its SSIDs escaped as wpa_supplicant's
/// printf_encode writes them), kept in a file of hex lines for the page.
public struct ScannedNetwork: Equatable, Sendable {
    public var ssid: [UInt8]
    /// dBm.
    public var signal: Int
    /// WPA/WPA2/WPA3 or WEP: a password is needed.
    public var secured: Bool

    public init(ssid: [UInt8], signal: Int, secured: Bool) {
        self.ssid = ssid
        self.signal = signal
        self.secured = secured
    }

    /// The most listed (the strongest).
    public static let limit = 40

    /// Whether a network's flags (`[WPA2-PSK+SAE-CCMP][ESS]`) name a
    /// security: a word of them (letters and digits) that begins with WPA,
    /// WEP, RSN or SAE.
    static func secured(flags: ArraySlice<UInt8>) -> Bool {
        let isWordByte = { (b: UInt8) in (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) }
        return flags.split(whereSeparator: { !isWordByte($0) }).contains { word in
            ["WPA", "WEP", "RSN", "SAE"].contains { word.starts(with: $0.utf8) }
        }
    }

    /// `wpa_cli scan_results`: one network per name, the strongest first;
    /// hidden ones (no name) and lines that do not parse are left out.
    public static func parse(scanResults text: [UInt8]) -> [ScannedNetwork] {
        var best: [[UInt8]: ScannedNetwork] = [:]
        for line in text.split(separator: 0x0A) {
            let f = line.split(separator: 0x09, maxSplits: 4, omittingEmptySubsequences: false)
            guard f.count == 5, f[0].count == 17, let signal = Int(String(decoding: f[2], as: UTF8.self)),
                  let ssid = unescape(f[4]), !ssid.isEmpty, ssid.count <= 32, !ssid.allSatisfy({ $0 == 0 }) else { continue }
            let n = ScannedNetwork(ssid: ssid, signal: signal, secured: secured(flags: f[3]))
            if let old = best[ssid], old.signal >= signal { continue }
            best[ssid] = n
        }
        let sorted = best.values.sorted { $0.signal != $1.signal ? $0.signal > $1.signal : $0.ssid.lexicographicallyPrecedes($1.ssid) }
        return Array(sorted.prefix(limit))
    }

    /// printf_decode: `\\`, `\"`, `\e`, `\n`, `\r`, `\t`, `\xHH`; nil for
    /// anything else after a backslash.
    static func unescape(_ s: ArraySlice<UInt8>) -> [UInt8]? {
        var out: [UInt8] = []
        var i = s.startIndex
        while i < s.endIndex {
            let c = s[i]
            i += 1
            guard c == UInt8(ascii: "\\") else { out.append(c); continue }
            guard i < s.endIndex else { return nil }
            let e = s[i]
            i += 1
            switch e {
            case UInt8(ascii: "\\"), UInt8(ascii: "\""): out.append(e)
            case UInt8(ascii: "e"): out.append(0x1B)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "x"):
                guard i + 2 <= s.endIndex, let b = WifiNetwork.hexBytes(Array(s[i..<(i + 2)])) else { return nil }
                out += b
                i += 2
            default: return nil
            }
        }
        return out
    }

    /// The file the page reads: `HEX<TAB>SIGNAL<TAB>1|0` a line.
    public static func file(_ list: [ScannedNetwork]) -> String {
        list.map { "\(WifiNetwork.hex($0.ssid))\t\($0.signal)\t\($0.secured ? 1 : 0)\n" }.joined()
    }

    public static func read(file bytes: [UInt8]) -> [ScannedNetwork] {
        var out: [ScannedNetwork] = []
        for line in bytes.split(separator: 0x0A).prefix(limit) {
            let f = line.split(separator: 0x09, omittingEmptySubsequences: false)
            guard f.count == 3, let ssid = WifiNetwork.hexBytes(Array(f[0])), (1...32).contains(ssid.count),
                  let signal = Int(String(decoding: f[1], as: UTF8.self)) else { continue }
            out.append(ScannedNetwork(ssid: ssid, signal: signal, secured: f[2].first == UInt8(ascii: "1")))
        }
        return out
    }
}

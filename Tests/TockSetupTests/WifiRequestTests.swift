import Testing
import TockCore
@testable import TockSetup

/// The page's Wi-Fi request, the scan list and the hotspot's identity.
struct WifiRequestTests {
    static let gb = CountryCode(Array("GB".utf8))

    @Test func anyBytesRoundTrip() throws {
        let ssid: [UInt8] = [0x00, 0xFF, 0x22, 0x5C, 0x0A, 0x20] + Array(repeating: 0x41, count: 26)
        let w = WifiNetwork(ssid: ssid, key: .passphrase(Array("correct\"horse \\battery".utf8)), country: Self.gb, hidden: true)
        let text = WifiRequest.text(w, replaces: 0x0123_4567_89AB_CDEF)
        #expect(text.hasSuffix("hidden = yes\nreplaces = 0123456789abcdef\n"))
        let (back, replaces) = try WifiRequest.parse(Array(text.utf8)).get()
        #expect(back == w && replaces == 0x0123_4567_89AB_CDEF)
    }

    @Test func aPMKAndAnOpenNetworkRoundTrip() throws {
        let pmk = Array(repeating: UInt8(0xAB), count: 32)
        for key in [WifiNetwork.Key.pmk(pmk), nil] {
            let w = WifiNetwork(ssid: Array("Home".utf8), key: key, country: Self.gb)
            #expect(try WifiRequest.parse(Array(WifiRequest.text(w).utf8)).get().0 == w)
        }
    }

    /// The same rules as tock-setup.txt, with what to fix.
    @Test func checks() {
        func why(_ ssid: [UInt8], _ pass: String?, _ c: CountryCode? = WifiRequestTests.gb) -> String? {
            if case .failure(let e) = WifiRequest.check(ssid: ssid, passphrase: pass.map { Array($0.utf8) }, country: c, hidden: false) { return e.description }
            return nil
        }
        #expect(why([], "password") == "the network name is 0 bytes; a network name is 1 to 32 bytes")
        #expect(why(Array(repeating: 0x41, count: 33), "password")?.contains("33 bytes") == true)
        #expect(why(Array(repeating: 0, count: 32), "password") == nil)
        #expect(why(Array("Home".utf8), "short")?.contains("8 to 63") == true)
        #expect(why(Array("Home".utf8), String(repeating: "x", count: 64))?.contains("not 64 hex digits") == true)
        #expect(why(Array("Home".utf8), String(repeating: "x", count: 65))?.contains("65 bytes") == true)
        #expect(why(Array("Home".utf8), "abcdefgh\u{0}ij")?.contains("control character") == true)
        #expect(why(Array("Home".utf8), String(repeating: "\"\\ ", count: 21)) == nil)
        #expect(why(Array("Home".utf8), "") == nil)  // an open network
        #expect(why(Array("Home".utf8), "password", nil)?.contains("country") == true)
    }

    /// A request is bounded and exact: what the page's user could leave there.
    @Test func hostileRequests() {
        func refused(_ s: String) -> Bool { if case .failure = WifiRequest.parse(Array(s.utf8)) { true } else { false } }
        #expect(refused(String(repeating: "#", count: WifiRequest.limit + 1)))
        #expect(refused("ssid = 486f6d65\nssid = 486f6d65\ncountry = GB\n"))
        #expect(refused("ssid = 486f6d6\ncountry = GB\n"))
        #expect(refused("ssid = 486f6d65\ncountry = gb\n"))
        #expect(refused("ssid = 486f6d65\ncountry = GB\nhidden = maybe\n"))
        #expect(refused("ssid = 486f6d65\ncountry = GB\nreplaces = 12\n"))
        #expect(refused("ssid = 486f6d65\ncountry = GB\nextra = 1\n"))
        #expect(refused("ssid = 486f6d65\ncountry = GB\u{0}\n"))
        #expect(refused("ssid = \(String(repeating: "41", count: 33))\ncountry = GB\n"))
        #expect(refused("ssid = 486f6d65\npassphrase = 0102\ncountry = GB\n"))
        #expect(refused(""))
        #expect(!refused("ssid = 486f6d65\ncountry = GB\n"))
    }

    @Test func fingerprintSeesEveryField() {
        let a = WifiNetwork(ssid: Array("Home".utf8), key: .passphrase(Array("password".utf8)), country: Self.gb)
        var b = a; b.hidden = true
        var c = a; c.key = .passphrase(Array("passwore".utf8))
        var d = a; d.country = CountryCode(Array("DE".utf8))
        let prints = Set([a, b, c, d].map { WifiRequest.fingerprint($0) } + [WifiRequest.fingerprint(nil)])
        #expect(prints.count == 5)
        #expect(WifiRequest.hex64(WifiRequest.hex64(WifiRequest.fingerprint(a)).utf8) == WifiRequest.fingerprint(a))
    }

    @Test func scanResultsAsWpaCliPrintsThem() {
        let text = """
            bssid / frequency / signal level / flags / ssid
            02:00:00:00:01:00\t2412\t-30\t[WPA2-PSK-CCMP][ESS]\t\\x00\\xff\\"\\\\\\n caf\\xc3\\xa9\\t\\r\\e
            02:00:00:00:02:00\t2437\t-70\t[ESS]\tOpen Cafe
            02:00:00:00:03:00\t2437\t-50\t[ESS]\tOpen Cafe
            02:00:00:00:04:00\t2462\t-40\t[WPA2-PSK-CCMP][ESS]\t
            02:00:00:00:05:00\t2462\t-40\t[WPA2-PSK-CCMP][ESS]\t\\x00\\x00
            02:00:00:00:06:00\t2462\t-45\t[WPA2-PSK-CCMP][ESS]\tbad\\q
            garbage line
            """
        let list = ScannedNetwork.parse(scanResults: Array(text.utf8))
        #expect(list == [
            ScannedNetwork(ssid: [0x00, 0xFF, 0x22, 0x5C, 0x0A, 0x20, 0x63, 0x61, 0x66, 0xC3, 0xA9, 0x09, 0x0D, 0x1B], signal: -30, secured: true),
            ScannedNetwork(ssid: Array("Open Cafe".utf8), signal: -50, secured: false),
        ])
        #expect(ScannedNetwork.read(file: Array(ScannedNetwork.file(list).utf8)) == list)
        let many = (0..<100).map { "02:00:00:00:00:00\t2412\t-\($0)\t[ESS]\tnet\($0)" }.joined(separator: "\n")
        #expect(ScannedNetwork.parse(scanResults: Array(many.utf8)).count == ScannedNetwork.limit)
    }

    /// A security is a word of the flags, not any substring of them.
    @Test func securityIsReadFromTheFlagsWords() {
        for (flags, secured) in [("[WPA2-PSK-CCMP][ESS]", true), ("[WPA2-PSK+SAE-CCMP][ESS]", true), ("[RSN-SAE-CCMP][ESS]", true),
                                 ("[WEP][ESS]", true), ("[SAE-EXT-KEY][ESS]", true), ("[ESS]", false), ("", false),
                                 ("[ESS][P2P]", false), ("[OWE-TRANS][ESS]", false), ("[ESS][NOWPA]", false)] {
            #expect(ScannedNetwork.secured(flags: Array(flags.utf8)[...]) == secured, "\(flags)")
        }
    }

    @Test func identity() {
        var g = SystemRandomNumberGenerator()
        let id = HotspotIdentity.make(using: &g)
        #expect(id.ssid.count == 9 && String(decoding: id.ssid, as: UTF8.self).hasPrefix("Tock-"))
        #expect(id.passphrase.count == 14 && id.passphrase.filter { $0 == UInt8(ascii: "-") }.count == 2)
        #expect(HotspotIdentity.parse(Array(id.text.utf8)) == id)
        #expect(id.card.contains("password:     \(String(decoding: id.passphrase, as: UTF8.self))"))
        #expect(HotspotIdentity.parse(Array("ssid = Tock\npassphrase = short\n".utf8)) == nil)
        #expect(HotspotIdentity.parse(Array("ssid = Tock-ABCD\npassphrase = has space in\n".utf8)) == nil)
        #expect(HotspotIdentity.parse(Array(String(repeating: "x", count: 300).utf8)) == nil)
    }

    @Test func theNoticeIsShownAsWritten() {
        #expect(HotspotIdentity.notice.count <= 8 && HotspotIdentity.notice.allSatisfy { SevenSegmentFont.glyphs[$0] != nil })
    }
}

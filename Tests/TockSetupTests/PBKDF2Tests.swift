import Testing
@testable import TockSetup

/// PBKDF2-HMAC-SHA1 through libcrypto against RFC 6070's vectors, the Wi-Fi
/// PMK against wpa_passphrase's output (wpasupplicant 2.10, Debian 12), and
/// a library that cannot be opened.
struct PBKDF2Tests {
    func hex(_ b: [UInt8]) -> String { WifiNetwork.hex(b) }

    @Test func pbkdf2RFC6070() throws {
        let p = Array("password".utf8), s = Array("salt".utf8)
        #expect(hex(try PBKDF2.sha1(password: p, salt: s, iterations: 1, length: 20)) == "0c60c80f961f0e71f3a9b524af6012062fe037a6")
        #expect(hex(try PBKDF2.sha1(password: p, salt: s, iterations: 2, length: 20)) == "ea6c014dc72d6f8ccd1ed92ace1d41f0d8de8957")
        #expect(hex(try PBKDF2.sha1(password: p, salt: s, iterations: 4096, length: 20)) == "4b007901b765489abead49d926f721d065a429c1")
        #expect(hex(try PBKDF2.sha1(password: Array("passwordPASSWORDpassword".utf8), salt: Array("saltSALTsaltSALTsaltSALTsaltSALTsalt".utf8),
                                iterations: 4096, length: 25)) == "3d2eec4fe41c849b80c8d83662c0e44a8b291a964cf2f07038")
    }

    /// `wpa_passphrase SSID PASSPHRASE`; the first is IEEE 802.11i-2004 H.4.3's.
    @Test(arguments: [
        ("IEEE", "password", "f42c6fc52df0ebef9ebb4b90b38a5f902e83fe1b135a70e23aed762e9710a12e"),
        ("ThisIsASSID", "ThisIsAPassword", "0dc0d6eb90555ed6419756b9a15ec3e3209b63df707dd508d14581f8982721af"),
        ("Home", "correct\"horse\\battery", "1176effe85871d8789f71c2e8ef81e14172f3172f63df6981cd3f10cfe25215a"),
        ("ABCDEFGHIJKLMNOPQRSTUVWXYZ012345", "12345678", "16e14c1097614b0c61bcdf18dea39f8353654652d96e11bd1cd313ba6d66f7e3"),
        ("Tock \"café\"", String(repeating: "q\"\\", count: 21), "0256e68c9e275c8f1d417202aff3ca735f5629e9b9b8ecf024b7914b866ab32c"),
    ])
    func wifiPMK(ssid: String, passphrase: String, pmk: String) throws {
        let w = WifiNetwork(ssid: Array(ssid.utf8), key: .passphrase(Array(passphrase.utf8)), country: nil)
        #expect(try w.pmk().map(hex) == pmk)
    }

    /// Without libcrypto no key is made, and the reason names the library
    /// and the package to install.
    @Test func aLibraryThatCannotBeOpened() {
        #expect(throws: PBKDF2.Unavailable.self) {
            try PBKDF2.sha1(password: Array("password".utf8), salt: Array("salt".utf8), iterations: 1, length: 20,
                            library: "libcrypto-absent.so.0")
        }
        do {
            _ = try PBKDF2.sha1(password: [1], salt: [2], iterations: 1, length: 20, library: "libc.so.6")
            Issue.record("libc has no PBKDF2, yet a key was made")
        } catch {
            #expect(error.reason == "libc.so.6 has no PKCS5_PBKDF2_HMAC_SHA1")
            #expect(error.fix.contains("libssl3"))
        }
    }
}

import Testing
@testable import TockSetup

/// SHA-1, HMAC-SHA1 and PBKDF2 against published vectors, and the Wi-Fi
/// PMK against wpa_passphrase's output (wpasupplicant 2.10, Debian 12).
struct SHA1Tests {
    func hex(_ b: [UInt8]) -> String { WifiNetwork.hex(b) }

    @Test func fipsExamples() {
        #expect(hex(SHA1.hash(Array("abc".utf8))) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(hex(SHA1.hash([])) == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        #expect(hex(SHA1.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
                == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
        #expect(hex(SHA1.hash([UInt8](repeating: 0x61, count: 1_000_000))) == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
    }

    @Test func hmacRFC2202() {
        #expect(hex(HMACSHA1(key: [UInt8](repeating: 0x0B, count: 20)).mac(Array("Hi There".utf8))) == "b617318655057264e28bc0b6fb378c8ef146be00")
        #expect(hex(HMACSHA1(key: Array("Jefe".utf8)).mac(Array("what do ya want for nothing?".utf8))) == "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79")
        // A key longer than the block is hashed first.
        #expect(hex(HMACSHA1(key: [UInt8](repeating: 0xAA, count: 80)).mac(Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)))
                == "aa4ae5e15272d00e95705637ce8a3b55ed402112")
    }

    @Test func pbkdf2RFC6070() {
        let p = Array("password".utf8), s = Array("salt".utf8)
        #expect(hex(PBKDF2.sha1(password: p, salt: s, iterations: 1, length: 20)) == "0c60c80f961f0e71f3a9b524af6012062fe037a6")
        #expect(hex(PBKDF2.sha1(password: p, salt: s, iterations: 2, length: 20)) == "ea6c014dc72d6f8ccd1ed92ace1d41f0d8de8957")
        #expect(hex(PBKDF2.sha1(password: p, salt: s, iterations: 4096, length: 20)) == "4b007901b765489abead49d926f721d065a429c1")
        #expect(hex(PBKDF2.sha1(password: Array("passwordPASSWORDpassword".utf8), salt: Array("saltSALTsaltSALTsaltSALTsaltSALTsalt".utf8),
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
    func wifiPMK(ssid: String, passphrase: String, pmk: String) {
        let w = WifiNetwork(ssid: Array(ssid.utf8), key: .passphrase(Array(passphrase.utf8)), country: nil)
        #expect(w.pmk.map(hex) == pmk)
    }
}

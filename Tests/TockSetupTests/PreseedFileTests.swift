import Testing
@testable import TockSetup

/// rpi-preseed.toml as Raspberry Pi Imager writes it, and what both files say together.
struct PreseedFileTests {
    func read(_ text: String) -> SetupReading {
        PreseedFile(zone: { SetupFileTests.zones.contains($0) ? nil : "no such zone" }).read(Array(text.utf8))
    }

    static let imager = """
        # Written by Raspberry Pi Imager
        [system]
        hostname = "kitchen"

        [user]
        name = "pi"
        password = "$6$salt$hash"

        [ssh]
        enabled = true
        authorized_keys = [
          "\(ValueTests.key)", # mine
        ]

        [wlan]
        ssid = "Caf\\u00e9 \\"Wi-Fi\\""
        password = 'q"\\q"\\q"\\q"\\'
        password_encrypted = false
        hidden = true
        country = "FR"

        [locale]
        timezone = "Europe/Berlin"
        keymap = "fr"
        """

    @Test func imagersSettings() throws {
        let r = read(Self.imager)
        #expect(r.problems == [])
        let s = r.settings
        #expect(s.hostname?.value.description == "kitchen" && s.hostname?.source.description == "rpi-preseed.toml line 3")
        #expect(s.sshKeys.map(\.value.description) == [ValueTests.key])
        #expect(s.wifi?.value.ssid == Array("Café \"Wi-Fi\"".utf8))
        #expect(s.wifi?.value.key == .passphrase(Array("q\"\\q\"\\q\"\\q\"\\".utf8)))  // a literal string: no escapes
        #expect(s.wifi?.value.hidden == true && s.wifi?.value.country?.description == "FR")
        #expect(s.timezone?.value == "Europe/Berlin")
        #expect(r.notes == ["rpi-preseed.toml: not used by Tock: user.name, user.password, ssh.enabled, locale.keymap"])
        let conf = try NetworkFiles.wpaSupplicant(s.wifi?.value)
        #expect(conf.contains("  scan_ssid=1\n"))
    }

    @Test func severalKeysInOneString() {
        let r = read("[ssh]\nauthorized_keys = \"\(ValueTests.key)\\n\(ValueTests.key.replacingOccurrences(of: "you@laptop", with: "other"))\\n\"\n")
        #expect(r.problems == [])
        #expect(r.settings.sshKeys.map(\.value.comment) == ["you@laptop", "other"])
    }

    @Test func aPMKAsImagerSavesIt() throws {
        let pmk = String(repeating: "ab", count: 32)
        let r = read("[wlan]\nssid = \"Home\"\npassword = \"\(pmk)\"\npassword_encrypted = true\ncountry = \"GB\"\n")
        #expect(try r.settings.wifi?.value.pmk().map(WifiNetwork.hex) == pmk)
    }

    @Test(arguments: [
        ("[system]\nhostname = \"bad_name\"", SetupCode.hostname, 2), ("[system]\nhostname = kitchen", .er01, 2),
        ("[system]\nhostname = \"a\"\nhostname = \"b\"", .er01, 3), ("[wlan]\nssid = \"x\"", .wifi, nil),
        ("[locale]\ntimezone = \"Mars/Olympus\"", .timezone, 2), ("[ssh]\nauthorized_keys = [\"ssh-rsa AAAA\"]", .sshKey, 2),
        ("[system\nhostname = \"a\"", .er01, 1), ("[system]\nhostname = \"a", .er01, 2), ("[wlan]\nssid = \"\\q\"", .er01, 2),
    ] as [(String, SetupCode, Int?)])
    func mistakes(text: String, code: SetupCode, line: Int?) {
        let r = read(text)
        #expect(r.code == code, "\(text)")
        #expect(r.problems.first?.line == line, "\(text)")
        #expect(r.problems.first?.file == "rpi-preseed.toml")
    }

    /// tock-setup.txt wins setting by setting; the Wi-Fi network and the
    /// static address each count as one setting; keys from both are used.
    @Test func bothFiles() {
        let preseed = read(Self.imager).settings
        let setup = SetupFileTests().read("hostname = mine\nssh_key = \(ValueTests.key)\naddress = 10.0.0.5/8\n").settings
        let (s, overridden) = setup.over(preseed)
        #expect(s.hostname?.value.description == "mine")
        #expect(s.wifi?.value.ssid == Array("Café \"Wi-Fi\"".utf8))
        #expect(s.timezone?.value == "Europe/Berlin")
        #expect(s.sshKeys.count == 1)
        #expect(overridden == ["hostname of rpi-preseed.toml line 3 not used: tock-setup.txt line 1 sets it"])
        let wifi = SetupFileTests().read("wifi_ssid = Other\nwifi_country = GB").settings
        let (w, o) = wifi.over(preseed)
        #expect(w.wifi?.value.ssid == Array("Other".utf8) && w.wifi?.value.key == nil && w.wifi?.value.hidden == false)
        #expect(o == ["Wi-Fi of rpi-preseed.toml line 16 not used: tock-setup.txt line 1 sets it"])
    }
}

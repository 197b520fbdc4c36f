import Testing
@testable import TockSetup

/// tock-setup.txt as people and their editors write it, and as no one
/// should: each file read with a clock that counts its reads.
struct SetupFileTests {
    static let key = ValueTests.key
    static let zones: Set<String> = ["UTC", "Europe/London", "Europe/Berlin"]

    func read(_ text: String, limits: SetupLimits = SetupLimits()) -> SetupReading {
        read(Array(text.utf8), limits: limits)
    }

    func read(_ bytes: [UInt8], limits: SetupLimits = SetupLimits(), now: @escaping () -> UInt64 = { 0 }) -> SetupReading {
        SetupFile(limits: limits, zone: { Self.zones.contains($0) ? nil : "no such file in the zone database" }, now: now).read(bytes)
    }

    @Test func aWholeSetup() throws {
        let r = read("""
            # comment
            hostname = kitchen-timer
            wifi_ssid = Home
            wifi_passphrase = correct horse battery staple
            wifi_country = GB
            timezone = Europe/London
            ssh_key = \(Self.key)
            address = 192.168.1.50/24
            gateway = 192.168.1.1
            dns = 192.168.1.1 9.9.9.9
            """)
        #expect(r.problems == [])
        let s = r.settings
        #expect(s.hostname?.value.description == "kitchen-timer" && s.hostname?.source.line == 2)
        #expect(s.wifi?.value == WifiNetwork(ssid: Array("Home".utf8), key: .passphrase(Array("correct horse battery staple".utf8)), country: CountryCode(Array("GB".utf8))))
        #expect(s.timezone?.value == "Europe/London")
        #expect(s.sshKeys.map(\.value.description) == [Self.key])
        #expect(s.address?.value.description == "192.168.1.50/24" && s.gateway?.value.description == "192.168.1.1")
        #expect(s.dns?.value.map(\.description) == ["192.168.1.1", "9.9.9.9"])
        #expect(s.summary == "hostname=kitchen-timer timezone=Europe/London wifi=Home address=192.168.1.50/24 ssh_keys=1")
    }

    /// The bytes typed reach wpa_supplicant as typed: no escaping to get wrong.
    @Test func quotesAndBackslashesAreBytes() throws {
        let pass = String(repeating: "q\"\\", count: 21)  // 63 bytes
        let r = read("wifi_ssid = Tock \"café\"\nwifi_passphrase = \(pass)\nwifi_country = DE\n")
        #expect(r.problems == [])
        #expect(r.settings.wifi?.value.ssid == Array("Tock \"café\"".utf8))
        #expect(r.settings.wifi?.value.key == .passphrase(Array(pass.utf8)))
        let conf = try NetworkFiles.wpaSupplicant(r.settings.wifi?.value)
        #expect(conf.contains("ssid=546f636b2022636166c3a922\n"))
        #expect(conf.contains("psk=0256e68c9e275c8f1d417202aff3ca735f5629e9b9b8ecf024b7914b866ab32c\n"))
        #expect(!conf.contains("\\") && !conf.contains("\"q"))
        // A value wrapped in quotes loses that one pair only.
        #expect(read("wifi_ssid = \"  Home \"\nwifi_country = GB").settings.wifi?.value.ssid == Array("  Home ".utf8))
        #expect(read("wifi_ssid = correct\"horse\\battery\nwifi_country = GB").settings.wifi?.value.ssid == Array("correct\"horse\\battery".utf8))
    }

    @Test func wifiValuesAtTheirBounds() throws {
        let pmk = String(repeating: "0123456789ABCDEF", count: 4)
        #expect(try read("wifi_ssid = a\nwifi_passphrase = \(pmk)\nwifi_country = GB").settings.wifi?.value.pmk().map(WifiNetwork.hex) == pmk.lowercased())
        let r65 = read("wifi_ssid = a\nwifi_passphrase = \(pmk)0\nwifi_country = GB")
        #expect(r65.code == .wifi && r65.problems.first?.line == 2 && r65.problems.first?.message.contains("65 bytes") == true)
        // 32 bytes of UTF-8 (16 two-byte letters) pass, 33 do not.
        #expect(read("wifi_ssid = \(String(repeating: "é", count: 16))\nwifi_country = FR").settings.wifi?.value.ssid.count == 32)
        let r33 = read("wifi_ssid = \(String(repeating: "é", count: 16))x\nwifi_country = FR")
        #expect(r33.code == .wifi && r33.problems.first?.message.contains("33 bytes") == true)
        #expect(read("wifi_ssid = a\nwifi_hidden = yes\nwifi_country = GB").settings.wifi?.value.hidden == true)
        #expect(read("wifi_ssid = a").problems.map(\.message) == ["wifi_ssid is set but wifi_country is not"])
        #expect(read("wifi_passphrase = 12345678").code == .wifi)
    }

    @Test(arguments: [
        ("address = 999.999.999.999/99", 1), ("address = 192.168.1.5/0", 1), ("address = 192.168.1.5/33", 1),
        ("address = 192.168.1.5/24\ngateway = 300.1.1.1", 2), ("address = 192.168.1.5/24\ndns = 256.0.0.1", 2),
        ("address = 192.168.001.5/24", 1), ("address = 192.168.1.5/24\ngateway = 192.168.2.1", 2),
        ("address = 192.168.1.5/24\ngateway = 192.168.1.5", 2), ("gateway = 192.168.1.1", 1), ("address = 192.168.1.0/24", 1),
    ])
    func impossibleAddressesAreRefused(text: String, line: Int) {
        let r = read(text)
        #expect(r.code == .address, "\(text)")
        #expect(r.problems.first?.line == line, "\(text)")
        #expect(r.problems.first?.fix.isEmpty == false)
    }

    @Test func windowsFilesRead() {
        let r = read(Array("\u{FEFF}hostname = pc-made\r\ntimezone = Europe/Berlin".utf8))  // BOM, CRLF, no final newline
        #expect(r.problems == [])
        #expect(r.settings.hostname?.value.description == "pc-made" && r.settings.timezone?.value == "Europe/Berlin")
        #expect(r.notes.first?.contains("byte order mark") == true)
        let utf16: [UInt8] = [0xFF, 0xFE] + Array("h\0o\0".utf8)
        #expect(read(utf16).problems.first?.message.contains("UTF-16") == true)
    }

    @Test func invisibleCharactersAreNamedInTheLog() {
        let mid = read("timezone = UTC\n\u{FEFF}hostname = tock")
        #expect(mid.problems.first?.description.contains("unknown setting \"<byte order mark U+FEFF>hostname\"") == true)
        let nbsp = read("hostname = tock\u{A0}")
        #expect(nbsp.problems.first?.message == "hostname \"tock<no-break space U+00A0>\" is not a host name")
        let tab = read("wifi_ssid = a\nwifi_passphrase = abc\tdefgh\nwifi_country = GB")
        #expect(tab.problems.first?.message.contains("<tab>") == true)
    }

    @Test func bytesThatAreNotText() {
        let nul = read(Array("hostname = a\0b\n".utf8))
        #expect(nul.code == .er01 && nul.problems.first?.message.contains("<NUL byte>") == true)
        let latin1 = read([0x68, 0x6F, 0x73, 0x74, 0x6E, 0x61, 0x6D, 0x65, 0x3D, 0xE9])  // hostname=é in Latin-1
        #expect(latin1.code == .er01 && latin1.problems.first?.message.contains("<byte 0xE9>") == true)
    }

    @Test func mistakesWithLineFixAndFirstCode() {
        let r = read("hostname = tock-test\ntimezone = Europe/Nowhere\ncolour = red\nssh_key = ssh-ed25519 AAAA\nnot a setting\nhostname = again")
        #expect(r.code == .timezone)
        #expect(r.problems.map(\.line) == [2, 3, 4, 5, 6])
        #expect(r.problems.map(\.code) == [.timezone, .er01, .sshKey, .er01, .hostname])
        #expect(r.report.hasPrefix("tock-setup.txt line 2: timezone \"Europe/Nowhere\" is not a zone this box knows"))
        #expect(r.report.contains("tock-setup.txt line 3: unknown setting \"colour\"\n    fix: the settings are hostname,"))
        #expect(r.problems.last?.message == "hostname is set twice (line 1 and line 6)")
        #expect(read("timezone = ../../etc/passwd").code == .timezone)
    }

    /// 100,000 lines: each line looked at once, the clock read once per 1,024 lines.
    @Test func aHundredThousandLines() {
        var text: [UInt8] = []
        for i in 0..<100_000 { text += Array((i % 2 == 0 ? "# a comment line\n" : "\n").utf8) }
        text += Array("hostname = last-line\n".utf8)
        var reads = 0
        let r = read(text, now: { reads += 1; return 0 })
        #expect(r.problems == [] && r.settings.hostname?.value.description == "last-line")
        #expect(reads == 1 + 100_001 / 1024)
    }

    /// Megabytes of mistakes: the first 50 listed, the rest counted.
    @Test func megabytesOfMistakes() {
        let line = Array("this line is not a setting at all, it is a paragraph of text pasted by mistake\n".utf8)
        var text: [UInt8] = []
        while text.count < 1_000_000 { text += line }
        let r = read(text)
        #expect(r.problems.count == 50 && r.problemCount == text.count / line.count)
        #expect(r.report.utf8.count < 16_000)
        #expect(r.report.hasSuffix("... and \(r.problemCount - 50) more mistakes not listed (the first 50 are above)"))
    }

    @Test func limits() {
        var small = SetupLimits()
        small.bytes = 100
        #expect(read([UInt8](repeating: 0x23, count: 101), limits: small).problems.first?.message == "the file is more than 100 bytes; a setup file is read up to that")
        // A clock that jumps 1 s at each read: stopped once past 5 s.
        var t: UInt64 = 0
        let r = read(Array(String(repeating: "#\n", count: 20_000).utf8), now: { t += 1_000_000_000; return t })
        #expect(r.code == .er01 && r.problems.first?.line == 6 * 1024)
    }
}

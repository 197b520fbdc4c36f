import Foundation
import Testing
@testable import TockSetup

/// `tock setup apply` on a directory tree standing for the image.
final class FakeSystem: SetupSystem {
    var hostname: String?
    var hostKeys = 0
    var logWrites = 0
    var configPasses = true

    func checkConfig(_ path: String) -> (passed: Bool, output: String) {
        configPasses ? (true, "OK") : (false, "config.yaml line 3: mode: \"timre\" is not a mode")
    }
    func setHostname(_ name: HostName) { hostname = name.description }
    func ensureHostKey(comment: String) { hostKeys += 1 }
    func writeBootLog(_ text: String, to path: String) {
        if path.hasSuffix("setup-log.txt") { logWrites += 1 }
        try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
    }
}

final class SetupApplyTests {
    let root: String
    let paths: SetupPaths
    let system = FakeSystem()

    init() throws {
        root = NSTemporaryDirectory() + "tock-setup-\(UUID().uuidString)"
        paths = SetupPaths(root: root)
        try FileManager.default.createDirectory(atPath: paths.imageNetwork, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: paths.boot + "/tock", withIntermediateDirectories: true)
        for f in ["20-wired.network", "25-wireless.network"] {
            try NetworkFilesTests.wired.write(toFile: "\(paths.imageNetwork)/\(f)", atomically: false, encoding: .utf8)
        }
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    func apply(_ setup: String?, preseed: String? = nil) -> (report: String, code: SetupCode?) {
        for (text, path) in [(setup, paths.setupFile), (preseed, paths.preseedFile)] {
            if let text { FileManager.default.createFile(atPath: path, contents: Data(text.utf8)) } else { try? FileManager.default.removeItem(atPath: path) }
        }
        return SetupApply(paths: paths, system: system, now: { 0 }).run()
    }

    func file(_ path: String) -> String? { FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) } }

    @Test func aGoodSetupIsAppliedAndKept() throws {
        let (report, code) = apply("hostname = tock-test\ntimezone = Europe/Berlin\nssh_key = \(ValueTests.key)\nwifi_ssid = Home\nwifi_passphrase = correct\"horse\\battery\nwifi_country = GB\n")
        #expect(code == nil)
        #expect(report.hasPrefix("OK \(paths.setupFile) applied\n"))
        // No Wi-Fi device in this tree: the network is not named as in use.
        #expect(report.hasSuffix("in use: hostname=tock-test timezone=Europe/Berlin wifi=none (no Wi-Fi device at this point of the boot: \"Home\" is kept for when one appears) address=dhcp ssh_keys=1"))
        #expect(file("\(paths.run)/applied") == "hostname=tock-test timezone=Europe/Berlin wifi=Home address=dhcp ssh_keys=1\n")
        #expect(system.hostname == "tock-test" && system.hostKeys == 1)
        #expect(file(paths.log) == report + "\n")
        #expect(file("\(paths.keep)/authorized_keys") == ValueTests.key + "\n")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: "\(paths.run)/localtime") == "/usr/share/zoneinfo/Europe/Berlin")
        let wpa = "\(paths.run)/wpa_supplicant-wlan0.conf"
        #expect(file(wpa)?.contains("psk=1176effe85871d8789f71c2e8ef81e14172f3172f63df6981cd3f10cfe25215a\n") == true)
        #expect(try FileManager.default.attributesOfItem(atPath: wpa)[.posixPermissions] as? Int == 0o600)
        #expect(FileManager.default.fileExists(atPath: "\(paths.keep)/tock-setup.txt"))
        #expect(!FileManager.default.fileExists(atPath: paths.errorCode))
        #expect(!FileManager.default.fileExists(atPath: "\(paths.runNetwork)/20-wired.network"))
        // The same files again: the log on the FAT is not written again.
        _ = apply("hostname = tock-test\ntimezone = Europe/Berlin\nssh_key = \(ValueTests.key)\nwifi_ssid = Home\nwifi_passphrase = correct\"horse\\battery\nwifi_country = GB\n")
        #expect(system.logWrites == 1)
    }

    /// A mistake never locks the box out: a broken address line leaves DHCP.
    @Test func aBrokenFileKeepsTheLastGoodSetup() {
        _ = apply("hostname = tock-test\ntimezone = Europe/Berlin\n")
        let (report, code) = apply("hostname = tock-new\ntimezone = Europe/Nowhere\naddress = 999.999.999.999/99\n")
        #expect(code == .timezone)
        #expect(file(paths.errorCode) == "Er04\n")
        #expect(report.hasPrefix("ERROR Er04 in \(paths.setupFile) (not applied; the box keeps its last good setup):\ntock-setup.txt line 2: timezone \"Europe/Nowhere\""))
        #expect(report.contains("tock-setup.txt line 3: address \"999.999.999.999/99\""))
        #expect(system.hostname == "tock-test")
        #expect(!FileManager.default.fileExists(atPath: "\(paths.runNetwork)/20-wired.network"))
        #expect(report.hasSuffix("in use: hostname=tock-test timezone=Europe/Berlin wifi=none address=dhcp ssh_keys=0"))
    }

    /// The zone database itself: a name it has, one it lacks, a file in it that is no zone.
    @Test func zonesByTheDatabase() {
        let a = SetupApply(paths: paths, system: system, now: { 0 })
        #expect(a.zoneCheck("Europe/Berlin") == nil)
        #expect(a.zoneCheck("Europe/Nowhere") == "no such name in /usr/share/zoneinfo")
        #expect(a.zoneCheck("zone.tab") != nil)
    }

    @Test func aStaticAddressAndPreseed() {
        let (report, code) = apply("address = 192.168.1.50/24\ngateway = 192.168.1.1\n", preseed: PreseedFileTests.imager)
        #expect(code == nil)
        #expect(report.contains("OK \(paths.preseedFile) applied"))
        #expect(file("\(paths.runNetwork)/25-wireless.network")?.contains("Address=192.168.1.50/24\nGateway=192.168.1.1\n") == true)
        #expect(report.hasSuffix("in use: hostname=kitchen timezone=Europe/Berlin wifi=none (no Wi-Fi device at this point of the boot: \"Café \"Wi-Fi\"\" is kept for when one appears) address=192.168.1.50/24 ssh_keys=1"))
    }

    /// With a Wi-Fi device the log says what it knows before the network
    /// starts: configured, not yet joined.
    @Test func withAWifiDeviceTheNetworkIsConfiguredNotYetJoined() throws {
        try FileManager.default.createDirectory(atPath: "\(paths.sysNet)/eth0", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: "\(paths.sysNet)/wlan0/wireless", withIntermediateDirectories: true)
        let (report, code) = apply("wifi_ssid = Home\nwifi_passphrase = correct horse\nwifi_country = GB\n")
        #expect(code == nil)
        #expect(report.hasSuffix("wifi=\"Home\" (configured, not yet joined: this log is written before the network starts; the display scrolls the address once it has one) address=dhcp ssh_keys=0"))
        #expect(!report.contains("no Wi-Fi device"))
        // No Wi-Fi setting: none, whatever the devices.
        #expect(apply("hostname = kitchen\n").report.hasSuffix("wifi=none address=dhcp ssh_keys=0"))
    }

    /// tock-buses.txt follows the configuration in use, written only when
    /// it changes, with a note that it applies from the next power-on.
    @Test func theBusesTheConfigurationNeeds() {
        let config = { (text: String) in FileManager.default.createFile(atPath: self.paths.config, contents: Data(text.utf8)) }
        let buses = "\(paths.boot)/tock-buses.txt"
        _ = apply(nil)
        #expect(file(buses) == nil)  // the default wiring: no bus, no file
        config("display:\n  kind: ht16k33\nbuzzer:\n  kind: passive\n")
        let (report, code) = apply(nil)
        #expect(code == nil)
        #expect(file(buses)?.hasSuffix("instead.\ndtparam=i2c_arm=on\ndtoverlay=pwm,pin=18,func=2\n") == true)
        #expect(report.contains("note: tock-buses.txt now says dtparam=i2c_arm=on, dtoverlay=pwm,pin=18,func=2: the firmware reads it at power-on, so switch the box off and on once"))
        #expect(!apply(nil).report.contains("tock-buses.txt"))  // unchanged: not written, not said
        config("display:\n  kind: max7219\n  digits: 8\nlight:\n  sensor: bh1750\n")
        #expect(apply(nil).report.contains("tock-buses.txt now says dtparam=i2c_arm=on, dtparam=spi=on"))
        config("display:\n  kind: tm1637\n")
        #expect(apply(nil).report.contains("tock-buses.txt now enables no bus"))
        #expect(file(buses)?.contains("dtparam") == false)
    }

    /// tock/mqtt-password on the card: the first line kept (CR, BOM and
    /// the rest dropped), linked where the card's config.yaml names it,
    /// before the configuration is checked; gone when the card's is gone.
    @Test func theMQTTPasswordOnTheCard() throws {
        FileManager.default.createFile(atPath: paths.mqttPassword, contents: Data([0xEF, 0xBB, 0xBF] + Array("s3cret pass\r\nsecond line\n".utf8)))
        let (report, code) = apply(nil)
        #expect(code == nil)
        #expect(report.contains("OK \(paths.mqttPassword) kept (11 bytes; tock reads it as \(paths.mqttPasswordInUse))"))
        #expect(file(paths.mqttPasswordInUse) == "s3cret pass\n")
        #expect(try FileManager.default.attributesOfItem(atPath: "\(paths.keep)/mqtt-password")[.posixPermissions] as? Int == 0o640)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: paths.mqttPasswordInUse) == "\(paths.keep)/mqtt-password")
        // Hostile: empty first line, a huge file: not used, said so, the rest applies.
        FileManager.default.createFile(atPath: paths.mqttPassword, contents: Data("\nlater\n".utf8))
        let empty = apply("hostname = kitchen\n")
        #expect(empty.report.contains("has an empty first line: not used"))
        #expect(empty.code == nil && system.hostname == "kitchen")
        FileManager.default.createFile(atPath: paths.mqttPassword, contents: Data(repeating: UInt8(ascii: "x"), count: 2 << 20))
        #expect(apply(nil).report.contains("is over 4 KiB: not used"))
        try FileManager.default.removeItem(atPath: paths.mqttPassword)
        _ = apply(nil)
        #expect(!FileManager.default.fileExists(atPath: "\(paths.keep)/mqtt-password"))
        #expect(file(paths.mqttPasswordInUse) == nil)
    }

    @Test func configMistakeIsEr10() {
        FileManager.default.createFile(atPath: paths.config, contents: Data("mode: timre\n".utf8))
        system.configPasses = false
        let (report, code) = apply(nil)
        #expect(code == .config)
        #expect(report.contains("ERROR Er10 in \(paths.config)") && report.contains("    config.yaml line 3: mode: \"timre\""))
        #expect(report.hasPrefix("OK no \(paths.setupFile): defaults"))
    }

    /// A megabyte of mistakes: the log is written, and capped.
    @Test func theLogIsAlwaysWrittenAndCapped() {
        let line = String(repeating: "x", count: 990) + "\n"
        let (report, code) = apply(String(repeating: line, count: 1000))
        #expect(code == .er01)
        #expect(report.utf8.count <= SetupApply.logLimit)
        #expect(report.contains("... and 950 more mistakes not listed"))
        #expect(file(paths.log) == report + "\n")
    }

    /// The Wi-Fi chosen on the hotspot's page wins over the card's it
    /// replaced; a Wi-Fi changed on the card afterwards wins over it.
    @Test func thePagesWifiUntilTheCardChanges() throws {
        let card = "wifi_ssid = Home\nwifi_passphrase = wrong password\nwifi_country = GB\n"
        _ = apply(card)
        let files = try #require(file(paths.filesWifi).flatMap { WifiRequest.hex64($0.utf8.prefix(16)) })
        let chosen = WifiNetwork(ssid: [0x00, 0x22, 0x5C], key: .passphrase(Array("right \"one\"".utf8)), country: CountryCode(Array("GB".utf8)))
        _ = FileManager.default.createFile(atPath: paths.pageWifi, contents: Data(WifiRequest.text(chosen, replaces: files).utf8))
        let (report, code) = apply(card)
        #expect(code == nil)
        #expect(report.contains("chosen on the setup hotspot's page"))
        let wpa = file("\(paths.run)/wpa_supplicant-wlan0.conf") ?? ""
        #expect(wpa.contains("  ssid=00225c\n"))
        // The hotspot's network comes first, disabled; its identity is kept and on the card.
        #expect(wpa.contains("  mode=2\n") && wpa.contains("  disabled=1\n"))
        #expect(wpa.range(of: "mode=2")!.lowerBound < wpa.range(of: "ssid=00225c")!.lowerBound)
        let id = try #require(FileManager.default.contents(atPath: paths.hotspotIdentity).flatMap { HotspotIdentity.parse([UInt8]($0)) })
        #expect(file(paths.hotspotCard) == id.card)
        _ = apply(card)
        #expect(FileManager.default.contents(atPath: paths.hotspotIdentity).flatMap { HotspotIdentity.parse([UInt8]($0)) } == id)
        // The card changed: its Wi-Fi, and the page's copy is gone.
        let (after, _) = apply("wifi_ssid = Home\nwifi_passphrase = another password\nwifi_country = GB\n")
        #expect(after.contains("the Wi-Fi on the boot partition changed"))
        #expect(!FileManager.default.fileExists(atPath: paths.pageWifi))
        #expect(file("\(paths.run)/wpa_supplicant-wlan0.conf")?.contains("ssid=486f6d65") == true)
    }

    /// A kept copy that is not one (a hand-edited file): not used, removed, said.
    @Test func aBrokenPageCopyIsDropped() throws {
        try FileManager.default.createDirectory(atPath: paths.keep, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: paths.pageWifi, contents: Data("ssid = zz\n".utf8))
        let (report, _) = apply(nil)
        #expect(report.contains("is not used: ssid is missing or not hex"))
        #expect(!FileManager.default.fileExists(atPath: paths.pageWifi))
    }
}

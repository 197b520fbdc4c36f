import Testing
@testable import TockSetup

struct NetworkFilesTests {
    static let wired = "# comment\n[Match]\nType=ether\n[Network]\nDHCP=yes\nLinkLocalAddressing=yes\n[DHCPv4]\nClientIdentifier=mac\n"

    @Test func wpaSupplicantWithoutWifi() throws {
        #expect(try NetworkFiles.wpaSupplicant(nil) == "ctrl_interface=DIR=/run/wpa_supplicant GROUP=netdev\n")
    }

    @Test func anOpenNetwork() throws {
        let w = WifiNetwork(ssid: [0x00, 0xFF, 0x22], key: nil, country: CountryCode(Array("US".utf8)))
        #expect(try NetworkFiles.wpaSupplicant(w) == """
            ctrl_interface=DIR=/run/wpa_supplicant GROUP=netdev
            country=US
            network={
              ssid=00ff22
              key_mgmt=NONE
            }

            """)
    }

    @Test func aStaticAddressReplacesDHCP() {
        let s = SetupFileTests().read("address = 192.168.1.50/24\ngateway = 192.168.1.1\ndns = 1.1.1.1 9.9.9.9").settings
        #expect(NetworkFiles.staticNetwork(base: Self.wired, s) == """
            # comment
            [Match]
            Type=ether
            [Network]
            Address=192.168.1.50/24
            Gateway=192.168.1.1
            DNS=1.1.1.1
            DNS=9.9.9.9
            LinkLocalAddressing=yes
            [DHCPv4]
            ClientIdentifier=mac

            """)
        #expect(NetworkFiles.staticNetwork(base: Self.wired, SetupSettings()) == nil)
    }
}

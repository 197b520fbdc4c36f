import Testing
@testable import TockSetup

struct ValueTests {
    func b(_ s: String) -> [UInt8] { Array(s.utf8) }

    @Test func ipv4AddressesAreStrict() {
        #expect(IPv4Address(b("192.168.1.50"))?.description == "192.168.1.50")
        #expect(IPv4Address(b("0.0.0.0"))?.value == 0)
        #expect(IPv4Address(b("255.255.255.255"))?.value == UInt32.max)
        for bad in ["999.999.999.999", "300.1.1.1", "256.0.0.1", "192.168.01.1", "010.0.0.1", "1.2.3", "1.2.3.4.5", "1..2.3", "1.2.3.4 ", "", ".1.2.3", "1.2.3.", "0x7f.0.0.1", "1.2.3.0000"] {
            #expect(IPv4Address(b(bad)) == nil, "\(bad)")
        }
    }

    @Test func interfacesHaveASensiblePrefix() throws {
        #expect(try IPv4Interface.parse(b("192.168.1.50/24")).get().description == "192.168.1.50/24")
        #expect(try IPv4Interface.parse(b("10.0.0.1/32")).get().prefix == 32)
        #expect(try IPv4Interface.parse(b("10.0.0.0/31")).get().prefix == 31)  // RFC 3021
        #expect(IPv4Interface.parse(b("999.999.999.999/99")) == .failure(.form))
        #expect(IPv4Interface.parse(b("192.168.1.50/0")) == .failure(.prefix))
        #expect(IPv4Interface.parse(b("192.168.1.50/33")) == .failure(.prefix))
        #expect(IPv4Interface.parse(b("192.168.1.50/024")) == .failure(.prefix))
        #expect(IPv4Interface.parse(b("192.168.1.50")) == .failure(.form))
        #expect(IPv4Interface.parse(b("192.168.1.0/24")) == .failure(.network))
        #expect(IPv4Interface.parse(b("192.168.1.255/24")) == .failure(.broadcast))
        if case .failure(.notUnicast) = IPv4Interface.parse(b("127.0.0.2/8")) {} else { Issue.record("loopback taken") }
        if case .failure(.notUnicast) = IPv4Interface.parse(b("224.0.0.5/24")) {} else { Issue.record("multicast taken") }
        let i = try! IPv4Interface.parse(b("192.168.1.50/24")).get()
        #expect(i.contains(IPv4Address(b("192.168.1.1"))!))
        #expect(!i.contains(IPv4Address(b("192.168.2.1"))!))
    }

    @Test func hostNames() {
        #expect(HostName(b("kitchen-timer"))?.description == "kitchen-timer")
        #expect(HostName(b(String(repeating: "a", count: 63))) != nil)
        for bad in ["", "-a", "a-", "a_b", "a.b", "tock\u{A0}", String(repeating: "a", count: 64), "kü"] {
            #expect(HostName(b(bad)) == nil, "\(bad)")
        }
    }

    static let key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGxSljUawNA79rkfJnVdYy6hn16/+bQaf3PX8/Li7Ua9 you@laptop"

    @Test func sshKeysByTypeAndBase64() throws {
        let k = try SSHKey.parse(b(Self.key)).get()
        #expect(k.type == "ssh-ed25519" && k.comment == "you@laptop")
        #expect(k.description == Self.key)
        #expect(SSHKey.parse(b("ssh-dss AAAA")) == .failure(.type("ssh-dss")))
        // Cut short (not whole base64), padding inside, another type's name in the blob.
        #expect(SSHKey.parse(b("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGxSljUawNA79rkfJnVdYy6hn16")) == .failure(.base64))
        #expect(SSHKey.parse(b("ssh-ed25519 AA==AAAA")) == .failure(.base64))
        #expect(SSHKey.parse(b(Self.key.replacingOccurrences(of: "ssh-ed25519", with: "ssh-rsa"))) == .failure(.blob))
        #expect(SSHKey.parse(b("ssh-ed25519")) == .failure(.base64))
        #expect(SSHKey.parse(b(Self.key + "\nssh-ed25519 AAAA injected")) == .failure(.control))
    }

    @Test func wifiKeys() {
        #expect(WifiNetwork.key(b(String(repeating: "\"\\", count: 31) + "x")) == .success(.passphrase(b(String(repeating: "\"\\", count: 31) + "x"))))
        let pmk = String(repeating: "0123456789abcdef", count: 4)
        #expect(WifiNetwork.key(b(pmk)) == .success(.pmk(WifiNetwork.hexBytes(b(pmk))!)))
        #expect(WifiNetwork.key(b(pmk + "0")) == .failure(.keyLength(65)))
        #expect(WifiNetwork.key(b(String(repeating: "z", count: 64))) == .failure(.notHex))
        #expect(WifiNetwork.key(b("1234567")) == .failure(.keyLength(7)))
        #expect(WifiNetwork.key(b("12345678\t")) == .failure(.keyControl))
        #expect(WifiNetwork.ssid([UInt8](repeating: 0xFF, count: 32)) == .success([UInt8](repeating: 0xFF, count: 32)))
        #expect(WifiNetwork.ssid([UInt8](repeating: 0x41, count: 33)) == .failure(.ssidLength(33)))
    }

    @Test func invisibleCharactersAreNamed() {
        #expect(VisibleText.quoted(b("\u{FEFF}hostname")) == "\"<byte order mark U+FEFF>hostname\"")
        #expect(VisibleText.visible(b("a\tb\u{A0}c")) == "a<tab>b<no-break space U+00A0>c")
        #expect(VisibleText.visible([0x61, 0xFF, 0x62]) == "a<byte 0xFF>b")
        #expect(VisibleText.visible([0xC3]) == "<byte 0xC3>")
        #expect(VisibleText.visible(b("café ✓")) == "café ✓")
        #expect(VisibleText.visible(b(String(repeating: "x", count: 100)), limit: 10) == "xxxxxxxxxx…(+90 bytes)")
    }
}

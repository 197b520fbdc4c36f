import Testing
import Glibc
import TockLinux

/// The lookup runs on glibc's side; the test polls it the way the MQTT
/// link does, from its own loop, and never waits inside the lookup.
@Suite struct HostLookupTests {
    func answer(_ host: String) -> HostLookup.Answer {
        let lookup = HostLookup(host: host)
        var spins = 0
        while case .pending = lookup.poll() {
            spins += 1
            if spins > 2_000_000 { return .failed("still pending") }
            sched_yield()
        }
        return lookup.poll()
    }

    @Test func anAddressAnswersAtOnceWithoutALookup() {
        #expect(HostLookup(host: "192.168.1.10").poll() == .address("192.168.1.10"))
        #expect(HostLookup(host: "::1").poll() == .address("::1"))
        #expect(HostLookup.isAddress("10.0.0.1") && !HostLookup.isAddress("broker.lan"))
    }

    @Test func aNameFromTheHostsFileIsFound() {
        // localhost is in /etc/hosts on every Debian system.
        let a = answer("localhost")
        #expect(a == .address("127.0.0.1") || a == .address("::1"))
    }

    @Test func anUnknownNameFails() {
        guard case .failed(let why) = answer("no-such-host.invalid") else {
            Issue.record("no-such-host.invalid was found")
            return
        }
        #expect(!why.isEmpty)
    }
}

import Glibc
import SystemPackage
import Testing
@testable import TockLinux

/// The address watcher's kernel side on this machine: the rtnetlink socket
/// opens non-blocking and close-on-exec, reads nothing when nothing
/// changed, and the list leaves loopback and link-local out. (A new address
/// reaching the display is `make address-test`, in a network namespace.)
@Suite struct AddressWatchTests {
    @Test func theSocketOpensAndDrainsNothingWhenNothingChanged() throws {
        let w = try AddressWatch()
        let fd = w.descriptor.rawValue
        #expect(fcntl(fd, F_GETFL) & O_NONBLOCK != 0)
        #expect(fcntl(fd, F_GETFD) & FD_CLOEXEC != 0)
        #expect(w.drain() == 0)
        w.close()
        w.close()  // closed once, whatever is asked
    }

    @Test func theListLeavesLoopbackAndLinkLocalOut() {
        let list = AddressWatch.addresses()
        #expect(!list.contains { $0.hasPrefix("127.") || $0.hasPrefix("169.254.") })
        #expect(Set(list).count == list.count)
        for a in list {
            let parts = a.split(separator: ".").compactMap { Int($0) }
            #expect(parts.count == 4 && parts.allSatisfy { (0...255).contains($0) }, "\(a)")
        }
    }

    @Test func dottedQuads() {
        #expect(AddressWatch.dotted(0xC0A8_0114) == "192.168.1.20")
        #expect(AddressWatch.dotted(0) == "0.0.0.0")
        #expect(AddressWatch.dotted(.max) == "255.255.255.255")
    }

    @Test func theNameEndsInLocal() {
        let name = AddressWatch.localName()
        #expect(name.hasSuffix(".local") && name.count > 6 && !name.dropLast(6).contains("."))
    }
}

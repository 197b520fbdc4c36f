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

    @Test func theListIsByInterfaceThenTheKernelsOrderWithoutRepeats() {
        func a(_ index: UInt32, _ address: UInt32, loopback: Bool = false) -> Syscall.InterfaceAddress {
            Syscall.InterfaceAddress(index: index, flags: loopback ? UInt32(IFF_LOOPBACK) : 0, address: address)
        }
        let kernel = [a(3, 0x0A00_0005), a(1, 0x7F00_0001, loopback: true), a(2, 0xC0A8_0114), a(3, 0x0A00_0004),
                      a(2, 0xA9FE_0102), a(4, 0xC0A8_0114), a(2, 0xC0A8_0115), a(5, 0x0A00_0009, loopback: true)]
        #expect(AddressWatch.shown(kernel) == ["192.168.1.20", "192.168.1.21", "10.0.0.5", "10.0.0.4"])
        #expect(AddressWatch.shown([]) == [])
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

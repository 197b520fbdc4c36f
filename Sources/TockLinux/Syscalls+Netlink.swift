import CTockLinux
import Glibc
import SystemPackage

/// rtnetlink(7) and getifaddrs(3): the kernel's IPv4 addresses and its
/// notices when one is added or removed. Same errno policy as the rest of
/// `Syscall`.
extension Syscall {
    /// `socket(AF_NETLINK, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC,
    /// NETLINK_ROUTE)` bound to `RTMGRP_IPV4_IFADDR` (netlink(7),
    /// rtnetlink(7); CTockLinux.c): the kernel sends it a message for each
    /// IPv4 address added or removed.
    static func ipv4AddressSocket() throws(Errno) -> FileDescriptor {
        FileDescriptor(rawValue: try check(retryOnInterrupt: false) { tock_ipv4_address_socket() })
    }

    /// An interface's IPv4 address (host order), its index and flags (`IFF_*`).
    struct InterfaceAddress {
        var index: UInt32
        var flags: UInt32
        var address: UInt32
    }

    /// getifaddrs(3): every interface's IPv4 addresses, in the kernel's order. (A struct,
    /// not a tuple: the first array of tuples a program makes has the
    /// runtime build its type from the name, 0.1 M instructions at start.)
    static func ipv4Addresses() throws(Errno) -> [InterfaceAddress] {
        var list: UnsafeMutablePointer<ifaddrs>?
        _ = try check(retryOnInterrupt: false) { getifaddrs(&list) }
        defer { freeifaddrs(list) }
        var out: [InterfaceAddress] = []
        var p = list
        while let entry = p {
            defer { p = entry.pointee.ifa_next }
            guard let sa = entry.pointee.ifa_addr, sa.pointee.sa_family == sa_family_t(AF_INET) else { continue }
            let a = sa.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt32(bigEndian: $0.pointee.sin_addr.s_addr) }
            out.append(InterfaceAddress(index: if_nametoindex(entry.pointee.ifa_name), flags: entry.pointee.ifa_flags, address: a))
        }
        return out
    }
}

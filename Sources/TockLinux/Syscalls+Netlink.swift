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

    /// getifaddrs(3): each IPv4 address with its interface's name, index
    /// and flags (`IFF_*`), in the kernel's order.
    static func ipv4Addresses() throws(Errno) -> [(interface: String, index: UInt32, flags: UInt32, address: UInt32)] {
        var list: UnsafeMutablePointer<ifaddrs>?
        _ = try check(retryOnInterrupt: false) { getifaddrs(&list) }
        defer { freeifaddrs(list) }
        var out: [(String, UInt32, UInt32, UInt32)] = []
        var p = list
        while let entry = p {
            defer { p = entry.pointee.ifa_next }
            guard let sa = entry.pointee.ifa_addr, sa.pointee.sa_family == sa_family_t(AF_INET) else { continue }
            let a = sa.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt32(bigEndian: $0.pointee.sin_addr.s_addr) }
            let name = String(decoding: UnsafeRawBufferPointer(start: entry.pointee.ifa_name, count: strlen(entry.pointee.ifa_name)), as: UTF8.self)
            out.append((name, if_nametoindex(entry.pointee.ifa_name), entry.pointee.ifa_flags, a))
        }
        return out
    }
}

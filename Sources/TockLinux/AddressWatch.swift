import CTockLinux
import Glibc
import SystemPackage

/// The box's IPv4 addresses as the kernel has them, and a descriptor that
/// becomes readable when one is added or removed: an rtnetlink(7) socket
/// in the `RTMGRP_IPV4_IFADDR` group, for the loop to watch (no polling).
/// On each notice the caller calls `drain()`, then reads `addresses()`
/// afresh: the list, not the messages, is the truth, so a notice lost to a
/// full queue (`ENOBUFS`) costs nothing but that read.
public final class AddressWatch {
    private var fd: FileDescriptor?

    public init() throws(Errno) {
        fd = try Syscall.ipv4AddressSocket()
    }

    deinit { close() }

    /// The descriptor to watch for readability. Trapping after `close()`.
    public var descriptor: FileDescriptor {
        guard let fd else { preconditionFailure("AddressWatch used after close()") }
        return fd
    }

    public func close() {
        if let fd { Syscall.close(fd) }
        fd = nil
    }

    /// Reads every pending notice: how many messages' bytes arrived (0:
    /// none, a spurious wake-up). A queue that overflowed counts as a change.
    @discardableResult
    public func drain() -> Int {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 8192, alignment: 8)
        defer { buffer.deallocate() }
        var total = 0
        while true {
            do throws(Errno) {
                // (Syscall.receive: recv(2) without waiting; ENOBUFS is thrown.)
                guard let n = try Syscall.receive(descriptor, into: buffer), n > 0 else { return total }
                total += n
            } catch {
                // ENOBUFS: messages were dropped; anything else: the
                // socket is unusable for now. Either way, read the list.
                return max(total, 1)
            }
        }
    }

    /// The IPv4 addresses to show: every interface's, but loopback
    /// (127.0.0.0/8, and any address on a loopback interface) and
    /// link-local (169.254.0.0/16, which no other host can route to), in
    /// the order of the interfaces' indexes (the wired port before Wi-Fi
    /// on a Pi), each interface's in the kernel's order; no duplicates.
    public static func addresses() -> [String] {
        guard let all = try? Syscall.ipv4Addresses() else { return [] }
        return shown(all)
    }

    /// What `addresses` keeps of the kernel's list, in its order.
    static func shown(_ all: [Syscall.InterfaceAddress]) -> [String] {
        // By interface index, each interface's in the kernel's order (an
        // insertion that keeps equal indexes in order; a handful of entries).
        var kept: [Syscall.InterfaceAddress] = []
        for e in all where e.flags & UInt32(IFF_LOOPBACK) == 0 && e.address >> 24 != 127 && e.address >> 16 != 0xA9FE {
            var i = kept.count
            while i > 0, kept[i - 1].index > e.index { i -= 1 }
            kept.insert(e, at: i)
        }
        var out: [String] = []
        for e in kept {
            let text = dotted(e.address)
            if !out.contains(text) { out.append(text) }
        }
        return out
    }

    /// `a.b.c.d` of a host-order address.
    static func dotted(_ a: UInt32) -> String {
        "\(a >> 24).\(a >> 16 & 0xFF).\(a >> 8 & 0xFF).\(a & 0xFF)"
    }

    /// The host name the box announces over mDNS, with `.local`
    /// (gethostname(2); avahi publishes this name).
    public static func localName() -> String {
        var bytes = [CChar](repeating: 0, count: 256)
        guard gethostname(&bytes, bytes.count - 1) == 0 else { return "tock.local" }
        let name = String(decoding: bytes.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).split(separator: ".").first.map(String.init) ?? ""
        return (name.isEmpty ? "tock" : name) + ".local"
    }
}

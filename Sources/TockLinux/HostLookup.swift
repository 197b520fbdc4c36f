import CTockLinux
import Glibc

/// A host name being looked up without blocking the caller's loop
/// (getaddrinfo_a(3)): start it, then `poll()` from a deadline until it has
/// answered. An address given as text (`192.168.1.10`, `::1`) answers at
/// once.
public final class HostLookup {
    public enum Answer: Equatable, Sendable {
        case pending
        /// The first address, as text.
        case address(String)
        case failed(String)
    }

    private var handle: UnsafeMutableRawPointer?
    private var literal: Answer?

    public init(host: String) {
        if Self.isAddress(host) {
            literal = .address(host)
            return
        }
        var error: CInt = 0
        handle = tock_lookup_start(host, &error)
        if handle == nil { literal = .failed(String(cString: tock_lookup_error(error))) }
    }

    deinit {
        if let handle { _ = tock_lookup_end(handle) }
    }

    public func poll() -> Answer {
        if let literal { return literal }
        guard let handle else { return .failed("no lookup") }
        var buffer = [CChar](repeating: 0, count: 64)
        let rc = tock_lookup_poll(handle, &buffer, CUnsignedInt(buffer.count))
        if tock_lookup_in_progress(rc) != 0 { return .pending }
        let answer: Answer = rc == 0 ? .address(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)) : .failed(String(cString: tock_lookup_error(rc)))
        literal = answer
        return answer
    }

    public static func isAddress(_ host: String) -> Bool {
        var v4 = in_addr(), v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }
}

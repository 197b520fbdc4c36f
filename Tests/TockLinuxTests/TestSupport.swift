import Glibc
import SystemPackage
@testable import TockLinux
import TockCore

/// Ends a reactor's run at a boottime instant through a second timerfd the
/// reactor watches: a bounded wait done by epoll itself, no sleeping.
final class StopTimer {
    let timer: TimerFD
    private(set) var fired = false

    init(_ reactor: Reactor, at deadline: Instant) throws {
        timer = try TimerFD(clock: .boottime)
        try timer.arm(at: deadline)
        // The reactor keeps this object alive through the handler; the
        // handler must not keep the reactor alive in turn.
        try reactor.watch(timer.descriptor.rawValue) { [unowned reactor] in
            _ = try? self.timer.read()
            self.fired = true
            reactor.stop()
        }
    }
}

/// A pipe closed at deinit.
final class TestPipe {
    let readEnd: FileDescriptor
    let writeEnd: FileDescriptor

    init() throws {
        (readEnd, writeEnd) = try FileDescriptor.pipe()
    }

    deinit {
        try? readEnd.close()
        try? writeEnd.close()
    }

    func send(_ bytes: [UInt8]) throws { _ = try writeEnd.writeAll(bytes) }

    func receive(upTo count: Int = 64) throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        let n = try buffer.withUnsafeMutableBytes { try readEnd.read(into: $0) }
        return Array(buffer[..<n])
    }
}

/// `12.345 ms`-style text for measured durations.
func millisecondsText(_ d: Duration) -> String {
    let us = d.nanoseconds / 1_000
    let sign = us < 0 ? "-" : ""
    let a = us.magnitude
    let frac = a % 1_000
    let fracText = frac < 10 ? "00\(frac)" : frac < 100 ? "0\(frac)" : "\(frac)"
    return "\(sign)\(a / 1_000).\(fracText) ms"
}

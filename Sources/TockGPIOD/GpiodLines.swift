import CGpiod
import Glibc
import TockHardware
import TockCore

/// The libgpiod API Tock was built against.
public enum Libgpiod {
    public static var api: Int { Int(tock_gpiod_api()) }
    public static var version: String { String(cString: tock_gpiod_version()) }
}

extension Bias {
    var raw: Int32 {
        switch self {
        case .asIs: Int32(TOCK_BIAS_AS_IS.rawValue)
        case .disabled: Int32(TOCK_BIAS_DISABLED.rawValue)
        case .pullUp: Int32(TOCK_BIAS_PULL_UP.rawValue)
        case .pullDown: Int32(TOCK_BIAS_PULL_DOWN.rawValue)
        }
    }
}

/// One requested line; released exactly once.
final class RequestedLine {
    let address: LineAddress
    private var handle: OpaquePointer?

    init(address: LineAddress, handle: OpaquePointer) {
        self.address = address
        self.handle = handle
    }

    var pointer: OpaquePointer {
        guard let handle else { preconditionFailure("\(address) used after release") }
        return handle
    }

    func release() {
        if let h = handle { tock_release(h) }
        handle = nil
    }

    deinit { release() }
}

/// The consumer name other programs see (`gpioinfo`, and our own busy errors).
let consumerName = "tock"

/// A GPIO input reporting both edges with the kernel's timestamps, as a
/// `LevelReader` for the reactor: no threads, no polling. The line is
/// requested without the kernel's active-low flag: its levels are the
/// pin's, and `InputReader` applies the polarity, as for the mock board.
public final class GpiodInput: LevelReader {
    public let role: InputLine
    private let line: RequestedLine
    private let timestamp: (UInt64) -> Instant
    private let onLoss: (String) -> Void
    public let initialLevels: PerLine<Bool>
    private var lastSeqno: UInt = 0

    /// - Parameters:
    ///   - timestamp: converts a CLOCK_MONOTONIC event time to the
    ///     appliance's clock.
    ///   - onLoss: told when the kernel's event buffer overflowed.
    public init(_ address: LineAddress, role: InputLine, bias: Bias, kernelDebounce: Duration,
                timestamp: @escaping (UInt64) -> Instant, onLoss: @escaping (String) -> Void) throws(HardwareError) {
        var err: Int32 = 0
        let us = UInt(max(kernelDebounce.nanoseconds / 1000, 0))
        guard let h = tock_request_input(address.chip.path, address.offset, consumerName, bias.raw, false, us, &err) else {
            throw GpioError.requesting(address, as: "an input", errno: -err)
        }
        line = RequestedLine(address: address, handle: h)
        self.role = role
        self.timestamp = timestamp
        self.onLoss = onLoss
        let v = tock_get_value(h)
        guard v >= 0 else { throw GpioError.requesting(address, as: "an input", errno: -v) }
        initialLevels = [role: v == 1]
    }

    public var descriptor: CInt { tock_line_fd(line.pointer) }

    public func readLevels() throws -> [LevelChange] {
        var buf = [tock_event](repeating: tock_event(), count: 16)
        var changes: [LevelChange] = []
        while true {
            let n = tock_read_events(line.pointer, &buf, Int32(buf.count))
            guard n >= 0 else { throw GpioError.reading(line.address, errno: -n) }
            for e in buf.prefix(Int(n)) {
                if e.line_seqno != 0, lastSeqno != 0, e.line_seqno != lastSeqno + 1 {
                    onLoss("\(line.address): \(e.line_seqno - lastSeqno - 1) edge events lost (the kernel's buffer overflowed)")
                }
                if e.line_seqno != 0 { lastSeqno = e.line_seqno }
                changes.append(LevelChange(line: role, high: e.rising, timestamp: timestamp(e.timestamp_ns)))
            }
            if n < buf.count { break }
        }
        return changes
    }

    public func close() { line.release() }
}

/// A GPIO output (buzzer, LED) in domain terms: active is on.
public final class GpiodOutput: DigitalOutput {
    private let line: RequestedLine
    private var shadow: Bool

    public init(_ address: LineAddress, role: String, activeLow: Bool) throws(HardwareError) {
        var err: Int32 = 0
        guard let h = tock_request_output(address.chip.path, address.offset, consumerName, activeLow, false, 0, &err) else {
            throw GpioError.requesting(address, as: role, errno: -err)
        }
        line = RequestedLine(address: address, handle: h)
        shadow = false
    }

    public func set(_ active: Bool) throws {
        guard active != shadow else { return }
        let rc = tock_set_value(line.pointer, active ? 1 : 0)
        guard rc == 0 else { throw GpioError.requesting(line.address, as: "an output", errno: -rc) }
        shadow = active
    }

    public func close() { line.release() }
}

/// Two open-drain lines for a bit-banged two-wire bus (TM1637).
public final class GpiodTwoWire: TwoWirePins {
    private let clock: RequestedLine
    private let data: RequestedLine

    public init(clock c: LineAddress, data d: LineAddress) throws(HardwareError) {
        var err: Int32 = 0
        // Open drain: 1 releases the line to the module's pull-up, so the
        // chip can pull DIO low for its ACK and we can read it.
        guard let ch = tock_request_output(c.chip.path, c.offset, consumerName, false, true, 1, &err) else {
            throw GpioError.requesting(c, as: "the display clock (CLK)", errno: -err)
        }
        clock = RequestedLine(address: c, handle: ch)
        guard let dh = tock_request_output(d.chip.path, d.offset, consumerName, false, true, 1, &err) else {
            throw GpioError.requesting(d, as: "the display data line (DIO)", errno: -err)
        }
        data = RequestedLine(address: d, handle: dh)
    }

    public func setClock(_ high: Bool) throws { try set(clock, high) }
    public func setData(_ high: Bool) throws { try set(data, high) }

    public func readData() throws -> Bool {
        let v = tock_get_value(data.pointer)
        guard v >= 0 else { throw GpioError.requesting(data.address, as: "DIO", errno: -v) }
        return v == 1
    }

    private func set(_ line: RequestedLine, _ high: Bool) throws {
        let rc = tock_set_value(line.pointer, high ? 1 : 0)
        guard rc == 0 else { throw GpioError.requesting(line.address, as: "an output", errno: -rc) }
    }
}

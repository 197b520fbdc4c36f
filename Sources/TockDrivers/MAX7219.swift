import TockHardware
import TockCore

/// A MAX7219 "serially interfaced, 8-digit LED display driver" on SPI, as
/// on the common 8-digit 7-segment modules.
///
/// MAX7219 datasheet (Maxim), "Serial-Addressing Modes": each write is a
/// 16-bit word, D15-D8 the register address (D15-D12 don't care), D7-D0
/// the data, latched on the rising edge of LOAD (CS). Table 2 "Register
/// Address Map" names the registers below.
///
/// The modules wire DIG0 to the rightmost digit, so the frame's leftmost
/// cell goes to the highest used digit register. They have no colon: a
/// frame's colon is not shown (8-digit frames use points instead).
public final class MAX7219: SegmentDisplay {
    /// Table 2, "Register Address Map".
    enum Register: UInt8 {
        case noOp = 0x00
        case digit0 = 0x01
        case decodeMode = 0x09
        case intensity = 0x0A
        case scanLimit = 0x0B
        case shutdown = 0x0C
        case displayTest = 0x0F
    }

    /// Decode-mode register: no decode for digits 7-0 (Table 4).
    static let noDecode: UInt8 = 0x00
    /// Shutdown register: 0 = shutdown mode, 1 = normal operation (Table 3).
    static let shutdownMode: UInt8 = 0x00
    static let normalOperation: UInt8 = 0x01
    /// Display-test register: 0 = normal operation (Table 10).
    static let displayTestOff: UInt8 = 0x00

    public let digits: Int

    private let bus: any SPIDevice

    /// Shadows of the write-only registers by address. Empty = unknown: at
    /// start, and after a failed write.
    private var shadow: [UInt8: UInt8] = [:]

    /// - Parameter digits: digits fitted, 1...8 (the scan limit). The
    ///   datasheet's "Scan-Limit Register" warns that scanning 3 digits or
    ///   fewer needs a larger RSET, as each digit then gets more current.
    public init(bus: any SPIDevice, digits: Int = 8) {
        precondition((1...8).contains(digits), "a MAX7219 drives 1 to 8 digits, not \(digits)")
        self.bus = bus
        self.digits = digits
    }

    public func show(_ frame: Frame) throws {
        // A frame of another width (a configuration that changed under a
        // running box) is refused as an error, never a trap: the shell logs it.
        guard frame.digits == digits else {
            throw HardwareError(.unsupported, "a \(frame.digits)-digit frame cannot be shown on the \(digits)-digit MAX7219 opened at start (display.digits changed: restart tock to apply it)")
        }
        guard (0...7).contains(frame.brightness) else {
            throw HardwareError(.unsupported, "frame brightness \(frame.brightness) is outside 0...7")
        }
        let lit = (0..<digits).contains { frame.segments(at: $0) != 0 }
        do {
            // The chip powers up in shutdown mode; everything is set up
            // before normal operation, so nothing stale lights.
            try write(.displayTest, Self.displayTestOff)
            try write(.scanLimit, UInt8(digits - 1))
            try write(.decodeMode, Self.noDecode)
            if lit {
                for i in 0..<digits {
                    // Cell 0 (leftmost) is the highest digit.
                    let digit = UInt8(digits - 1 - i)
                    try write(Register.digit0.rawValue + digit, Self.noDecodeSegments(frame.segments(at: i)))
                }
                try write(.intensity, Self.intensity(frame.brightness))
            }
            // A dark frame is shutdown mode: blank, registers kept.
            try write(.shutdown, lit ? Self.normalOperation : Self.shutdownMode)
        } catch {
            shadow.removeAll()
            throw error
        }
    }

    /// Tock's a...g, dp (bits 0...7) onto no-decode mode's bit order,
    /// Table 6: D7 = DP, D6 = A, D5 = B, ... D0 = G.
    static func noDecodeSegments(_ segments: UInt8) -> UInt8 {
        var bits: UInt8 = segments & SevenSegmentFont.dp
        for segment in 0..<7 where segments & (1 << segment) != 0 {
            bits |= 0x40 >> segment
        }
        return bits
    }

    /// Frame brightness 0...7 onto intensity 0...15 (duty (2n + 1)/32,
    /// Table 7), ends onto ends and evenly between, rounded.
    static func intensity(_ brightness: Int) -> UInt8 {
        UInt8((brightness * 15 + 3) / 7)
    }

    private func write(_ register: Register, _ data: UInt8) throws {
        try write(register.rawValue, data)
    }

    /// One 16-bit word, unless the register already holds `data`.
    private func write(_ address: UInt8, _ data: UInt8) throws {
        guard shadow[address] != data else { return }
        try bus.write([address, data])
        shadow[address] = data
    }
}

import TockHardware
import TockCore

/// A MAX7219 on an 8-digit 7-segment module behind a mock SPI device: it
/// interprets each 16-bit word as the chip would (MAX7219 datasheet,
/// Table 2 "Register Address Map") and decodes the digit registers back
/// into text.
public final class MockMAX7219: SPIDevice {
    /// The next write fails with this error and changes nothing.
    public var failNext: HardwareError?

    // MARK: Decoded chip state (power-on: shutdown, registers cleared)

    /// Digit registers by digit number: index 0 is DIG0 (register 0x01),
    /// the rightmost digit on the modules.
    public private(set) var digitRegisters = [UInt8](repeating: 0, count: 8)
    public private(set) var decodeMode: UInt8 = 0
    /// Intensity 0...15 (duty (2n + 1)/32).
    public private(set) var intensity = 0
    /// Digits scanned: 0...7 means DIG0 ... DIG0-7.
    public private(set) var scanLimit = 0
    /// Shutdown register D0 = 0: display blanked.
    public private(set) var shutdown = true
    public private(set) var displayTest = false

    // MARK: What went over the wire

    /// Every transfer, in order.
    public private(set) var writes: [[UInt8]] = []
    /// How much of `writes` is kept.
    public var keeping = MockHistory.all
    public private(set) var protocolErrors: [String] = []

    public init() {}

    public func write(_ bytes: [UInt8]) throws {
        if let error = failNext {
            failNext = nil
            throw error
        }
        writes.record(bytes, keeping: keeping)
        // One chip: the last 16 bits shifted in are latched when CS rises;
        // anything before them would go on to a next chip in a chain.
        guard bytes.count == 2 else {
            protocolErrors.append("a \(bytes.count)-byte transfer; one MAX7219 latches 2 bytes per CS")
            return
        }
        let address = bytes[0] & 0x0F  // D15-D12 are don't care.
        let data = bytes[1]
        switch address {
        case 0x00:
            break  // no-op
        case 0x01...0x08:
            digitRegisters[Int(address) - 1] = data
        case 0x09:
            decodeMode = data
            if data != 0 { protocolErrors.append("decode mode \(data): this mock decodes no-decode mode only") }
        case 0x0A:
            intensity = Int(data & 0x0F)
        case 0x0B:
            scanLimit = Int(data & 0x07)
        case 0x0C:
            shutdown = data & 0x01 == 0
        case 0x0F:
            displayTest = data & 0x01 != 0
        default:
            protocolErrors.append("register \(address) does not exist")
        }
    }

    /// What the display shows, in `Frame`'s trace notation: `digits`
    /// digits from DIG(digits-1) on the left to DIG0 on the right. Digits
    /// past the scan limit, and all in shutdown, are blank; display test
    /// lights everything.
    public func text(digits: Int = 8) -> String {
        precondition((1...8).contains(digits), "a MAX7219 has 8 digits")
        var s = ""
        for digit in (0..<digits).reversed() {
            var bits: UInt8
            if displayTest {
                bits = 0xFF
            } else if shutdown || digit > scanLimit {
                bits = 0
            } else {
                bits = Self.tockSegments(digitRegisters[digit])
            }
            s.append(SevenSegmentFont.glyph(for: bits))
            if bits & SevenSegmentFont.dp != 0 { s.append(".") }
        }
        return s
    }

    /// No-decode bits (D7 = DP, D6 = A ... D0 = G) back into
    /// `SevenSegmentFont`'s order (bit 0 = a ... bit 6 = g, bit 7 = dp).
    public static func tockSegments(_ register: UInt8) -> UInt8 {
        var bits = register & 0x80
        for segment in 0..<7 where register & (0x40 >> segment) != 0 {
            bits |= 1 << segment
        }
        return bits
    }

    /// Forget the recorded traffic (not the chip state).
    public func clearLog() {
        writes.removeAll()
        protocolErrors.removeAll()
    }
}

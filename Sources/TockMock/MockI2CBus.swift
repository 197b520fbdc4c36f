import TockHardware
import TockCore

/// An HT16K33 on Adafruit's 4-digit 7-segment backpack behind a mock I2C
/// device: it interprets every write as the chip would (HT16K33 datasheet,
/// "Command summary") and decodes the display RAM back into text.
public final class MockHT16K33: I2CDevice {
    /// The next write fails with this error and changes nothing (then it
    /// is cleared), as when the chip does not acknowledge or the bus hangs.
    public var failNext: HardwareError?

    // MARK: Decoded chip state (power-on: standby, display off)

    /// System setup S bit: the internal oscillator.
    public private(set) var oscillatorOn = false
    /// Display setup D bit and blinking frequency bits B1 B0.
    public private(set) var displayOn = false
    public private(set) var blink = 0
    /// Dimming set: row driver duty (level + 1)/16. Power-on 16/16.
    public private(set) var dimming = 15
    /// Display RAM, 16 bytes.
    public private(set) var ram = [UInt8](repeating: 0, count: 16)

    // MARK: What went over the wire

    /// Every write that reached the chip, in order.
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
        guard let command = bytes.first else {
            protocolErrors.append("an empty write (address only)")
            return
        }
        writes.record(bytes, keeping: keeping)
        let rest = bytes.dropFirst()
        switch command {
        case 0x00...0x0F:
            // Display data address pointer; the pointer wraps within the
            // 16-byte RAM.
            for (offset, byte) in rest.enumerated() { ram[(Int(command) + offset) % 16] = byte }
            return
        case 0x20, 0x21:
            oscillatorOn = command & 0x01 != 0
        case 0x80...0x87:
            displayOn = command & 0x01 != 0
            blink = Int(command >> 1 & 0x03)
        case 0xE0...0xEF:
            dimming = Int(command & 0x0F)
        default:
            protocolErrors.append("unknown command \(Self.hex(command))")
        }
        if !rest.isEmpty { protocolErrors.append("command \(Self.hex(command)) followed by \(rest.count) more bytes") }
    }

    /// What the display shows, in `Frame`'s trace notation (4 digits from
    /// rows 0, 1, 3, 4; the colon from row 2 bit 1). Blank unless the
    /// oscillator runs and the display is on.
    public var text: String {
        guard oscillatorOn, displayOn else { return "    " }
        var s = ""
        for (i, address) in [0x00, 0x02, 0x06, 0x08].enumerated() {
            s.append(SevenSegmentFont.glyph(for: ram[address]))
            if ram[address] & SevenSegmentFont.dp != 0 { s.append(".") }
            if i == 1, ram[0x04] & 0x02 != 0 { s.append(":") }
        }
        return s
    }

    /// Forget the recorded traffic (not the chip state).
    public func clearLog() {
        writes.removeAll()
        protocolErrors.removeAll()
    }

    private static func hex(_ byte: UInt8) -> String {
        "0x" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true)
    }
}

import TockHardware
import TockCore

/// An HT16K33 "RAM mapping 16*8 LED controller driver" on I2C, wired as
/// Adafruit's 0.56" 4-digit 7-segment backpack (default address 0x70).
///
/// HT16K33 datasheet (Holtek), "Command summary": display data address
/// pointer 0x00-0x0F followed by data (the pointer auto-increments),
/// system setup 0x20 | S (S = 1: oscillator on), display setup
/// 0x80 | B1 B0 D (D = 1: display on; B = 00: blinking off), dimming set
/// 0xE0 | P (row driver duty (P + 1)/16).
///
/// The backpack's display RAM: 8 rows of 16 bits, two bytes per row, the
/// low byte holding segments a...dp in bits 0...7 (`SevenSegmentFont`'s
/// order). Digits sit in rows 0, 1, 3 and 4; row 2 holds the colon (bit 1).
public final class HT16K33: SegmentDisplay {
    /// System setup register with S = 1: normal operation (oscillator on).
    static let systemSetupOscillatorOn: UInt8 = 0x21
    /// Display setup register: display off / display on, blinking off.
    static let displaySetupOff: UInt8 = 0x80
    static let displaySetupOn: UInt8 = 0x81
    /// Dimming set register, plus the level 0...15.
    static let dimmingSet: UInt8 = 0xE0
    /// Display data address pointer of the first RAM byte.
    static let displayDataAddress: UInt8 = 0x00
    /// Display RAM size in bytes (8 rows × 16 bits).
    static let ramSize = 16

    /// Byte addresses of the four digits (rows 0, 1, 3, 4, low bytes).
    static let digitAddresses = [0x00, 0x02, 0x06, 0x08]
    /// The colon: row 2, bit 1.
    static let colonAddress = 0x04
    static let colonBit: UInt8 = 0x02

    public static let digits = 4

    private let bus: any I2CDevice

    /// Shadows of the write-only registers. nil = unknown: at start, and
    /// after a failed write (the chip may have reset or missed a byte).
    private var ram: [UInt8]?
    private var systemSetup: UInt8?
    private var displaySetup: UInt8?
    private var dimming: UInt8?

    public init(bus: any I2CDevice) {
        self.bus = bus
    }

    public func show(_ frame: Frame) throws {
        // A frame of another width (a configuration that changed under a
        // running box) is refused as an error, never a trap: the shell logs it.
        guard frame.digits == Self.digits else {
            throw HardwareError(.unsupported, "a \(frame.digits)-digit frame cannot be shown on the \(Self.digits)-digit HT16K33 backpack opened at start (display.digits changed: restart tock to apply it)")
        }
        guard (0...7).contains(frame.brightness) else {
            throw HardwareError(.unsupported, "frame brightness \(frame.brightness) is outside 0...7")
        }
        let wanted = Self.displayRAM(for: frame)
        let lit = wanted.contains { $0 != 0 }
        do {
            // Oscillator first: the chip powers up in standby. RAM before
            // "display on", so nothing stale flashes up.
            try set(\.systemSetup, to: Self.systemSetupOscillatorOn)
            if lit {
                try writeRAM(wanted)
                try set(\.dimming, to: Self.dimmingSet | Self.dimmingLevel(frame.brightness))
            }
            try set(\.displaySetup, to: lit ? Self.displaySetupOn : Self.displaySetupOff)
        } catch {
            ram = nil
            systemSetup = nil
            displaySetup = nil
            dimming = nil
            throw error
        }
    }

    /// The 16 bytes of display RAM that show `frame`.
    static func displayRAM(for frame: Frame) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: ramSize)
        for (i, address) in digitAddresses.enumerated() { bytes[address] = frame.segments(at: i) }
        if frame.colon { bytes[colonAddress] = colonBit }
        return bytes
    }

    /// Frame brightness 0...7 onto dimming levels 0...15, ends onto ends
    /// and evenly between, rounded (0, 2, 4, 6, 9, 11, 13, 15).
    static func dimmingLevel(_ brightness: Int) -> UInt8 {
        UInt8((brightness * 15 + 3) / 7)
    }

    /// A one-byte command, unless the chip already has it.
    private func set(_ register: ReferenceWritableKeyPath<HT16K33, UInt8?>, to command: UInt8) throws {
        guard self[keyPath: register] != command else { return }
        try bus.write([command])
        self[keyPath: register] = command
    }

    /// One write of the span from the first changed byte to the last,
    /// through the auto-incrementing address pointer; all 16 bytes when
    /// the RAM is unknown.
    private func writeRAM(_ wanted: [UInt8]) throws {
        var first = 0
        var last = Self.ramSize - 1
        if let ram {
            guard let f = wanted.indices.first(where: { wanted[$0] != ram[$0] }) else { return }
            first = f
            last = wanted.indices.last { wanted[$0] != ram[$0] }!
        }
        try bus.write([Self.displayDataAddress + UInt8(first)] + wanted[first...last])
        ram = wanted
    }
}

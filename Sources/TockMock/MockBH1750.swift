import TockHardware

/// A BH1750 behind a mock SMBus device: it takes the instructions as the
/// chip does (BH1750FVI datasheet, "Instruction set architecture") and
/// answers `lux` as the chip would count it, high byte first.
public final class MockBH1750: SMBusDevice {
    /// The room's light, lux (the chip saturates at 65535 counts).
    public var lux: Double = 200
    /// Every call fails with this error while set (the sensor unplugged).
    public var failing: HardwareError?

    public private(set) var poweredOn = false
    /// The measurement mode instruction last sent, nil before one.
    public private(set) var mode: UInt8?
    public private(set) var reads = 0
    public private(set) var protocolErrors: [String] = []

    public init() {}

    public func sendByte(_ byte: UInt8) throws {
        if let failing { throw failing }
        switch byte {
        case 0x00: poweredOn = false
        case 0x01: poweredOn = true
        case 0x10, 0x11, 0x13, 0x20, 0x21, 0x23: mode = byte
        default: protocolErrors.append("unknown instruction 0x\(String(byte, radix: 16))")
        }
    }

    public func readWord(command: UInt8) throws -> UInt16 {
        if let failing { throw failing }
        guard poweredOn, mode == command else {
            protocolErrors.append("read in mode 0x\(String(command, radix: 16)) before it was set")
            return 0
        }
        reads += 1
        let counts = UInt16(min(max(lux * 1.2, 0), 65535).rounded())
        return counts.byteSwapped  // high byte first on the wire: the SMBus word's low byte
    }
}

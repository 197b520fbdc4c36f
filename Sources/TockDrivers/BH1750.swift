import TockHardware

/// A ROHM BH1750FVI "digital 16bit serial output type ambient light sensor
/// IC" on I2C (the common GY-302 breakout): address 0x23 with ADDR low or
/// open, 0x5C with ADDR high.
///
/// BH1750FVI datasheet, "Instruction set architecture": Power On 0x01,
/// Continuously H-Resolution Mode 0x10 (1 lx resolution, typically 120 ms,
/// at most 180 ms a measurement). "Measurement sequence": the result is two
/// bytes, high byte first; illuminance = result / 1.2 lx (at the default
/// measurement time, MTreg 69), so 0 ... 54612 lx.
///
/// The result is read with SMBus Read Word Data whose command byte is the
/// mode instruction again: the chip, already in that mode, keeps measuring
/// and answers its last result (a plain two-byte read has no SMBus form,
/// and `i2c-stub` takes only SMBus). The driver never waits: in continuous
/// mode a result is there 180 ms after `start()`, and the caller reads at
/// most once a second.
public final class BH1750: LightSensor {
    /// Instruction set: Power On (waiting for a measurement command).
    static let powerOn: UInt8 = 0x01
    /// Instruction set: Continuously H-Resolution Mode.
    static let continuousHighResolution: UInt8 = 0x10
    /// Datasheet: illuminance = count / 1.2 at MTreg = 69 (the default).
    static let countsPerLux = 1.2
    public static let defaultAddress = 0x23
    public static let addresses = [0x23, 0x5C]

    private let bus: any SMBusDevice

    public init(bus: any SMBusDevice) { self.bus = bus }

    public func start() throws {
        try bus.sendByte(Self.powerOn)
        try bus.sendByte(Self.continuousHighResolution)
    }

    public func lux() throws -> Double {
        let word = try bus.readWord(command: Self.continuousHighResolution)
        // The chip sends the high byte first; SMBus puts the first byte low.
        return Double(word.byteSwapped) / Self.countsPerLux
    }
}

/// A device read and written with SMBus transactions: the subset every
/// Raspberry Pi I2C adapter takes and the kernel's `i2c-stub` emulates
/// (Documentation/i2c/smbus-protocol.rst), so a driver over it runs the same
/// on a board and under the stub in a VM.
public protocol SMBusDevice: AnyObject {
    /// SMBus Send Byte: START, address+W, the byte, STOP.
    func sendByte(_ byte: UInt8) throws
    /// SMBus Read Word Data: START, address+W, `command`, repeated START,
    /// address+R, two bytes, STOP. The first byte on the wire is the low
    /// byte of the result (SMBus words are little-endian).
    func readWord(command: UInt8) throws -> UInt16
}

/// An ambient light sensor, in the room's terms.
public protocol LightSensor: AnyObject {
    /// Set the sensor measuring (power on, mode); called once after
    /// opening and again after a read failed (it may have lost power).
    func start() throws
    /// The latest illuminance measured, in lux.
    func lux() throws -> Double
}

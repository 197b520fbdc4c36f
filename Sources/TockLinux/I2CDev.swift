import CTockLinux
import Glibc
import SystemPackage
import TockCore
import TockHardware

/// One device on an I2C bus through the kernel's i2c-dev interface
/// (Documentation/i2c/dev-interface.rst): `/dev/i2c-N` opened, the
/// device's 7-bit address set with `ioctl(I2C_SLAVE)`, and each `write(2)`
/// one transaction (START, address + W, the bytes, STOP).
public final class I2CDev: I2CDevice {
    public let bus: Int
    public let address: UInt8
    let device: BusDevice
    public var path: String { device.path }

    /// Opens `/dev/i2c-<bus>` for the device at `address` (0x08...0x77;
    /// 0x70 for the HT16K33 backpack with no address jumpers closed).
    public init(bus: Int, address: UInt8) throws(HardwareError) {
        precondition(address <= 0x7F, "I2C addresses are 7 bits, not \(address)")
        self.bus = bus
        self.address = address
        device = try BusDevice(path: "/dev/i2c-\(bus)", kind: .i2c)
        do {
            try Syscall.ioctl(device.descriptor, UInt(I2C_SLAVE), value: CInt(address))
        } catch {
            throw addressError(error)  // the device closes as it goes
        }
    }

    /// One write transaction.
    public func write(_ bytes: [UInt8]) throws(HardwareError) {
        let written: Int?
        do {
            written = try Syscall.write(device.descriptor, bytes)
        } catch {
            throw writeError(error)
        }
        // Documentation/i2c/fault-codes.rst: EAGAIN is a lost arbitration.
        guard let written else {
            throw HardwareError(.bus, "another I2C master took \(path) while writing to \(hexAddress): is something else driving the bus?")
        }
        guard written == bytes.count else {
            throw HardwareError(.io, "only \(written) of \(bytes.count) bytes reached \(hexAddress) on \(path)")
        }
    }

    /// Closes the device; later calls do nothing.
    public func close() { device.close() }

    var hexAddress: String { "0x" + String(address, radix: 16) }

    private func addressError(_ error: Errno) -> HardwareError {
        switch error {
        case .resourceBusy:
            HardwareError(.busy, "address \(hexAddress) on \(path) is in use by a kernel driver (i2cdetect -y \(bus) shows UU there): remove the overlay that claims it, or use another address")
        default:
            HardwareError(.io, "cannot select address \(hexAddress) on \(path) (ioctl I2C_SLAVE): \(error)")
        }
    }

    func writeError(_ error: Errno) -> HardwareError {
        switch error {
        // Documentation/i2c/fault-codes.rst: ENXIO (SMBus adapters) and
        // EREMOTEIO (I2C adapters) mean the address was not acknowledged.
        case .noSuchAddressOrDevice, Errno(rawValue: EREMOTEIO):
            HardwareError(.noAcknowledge, "no device answered at \(hexAddress) on \(path); check wiring and the address jumpers (i2cdetect -y \(bus))")
        case .timedOut:
            HardwareError(.bus, "writing to \(hexAddress) on \(path) timed out: is SDA or SCL held low? Check the pull-ups and the device's power")
        default:
            HardwareError(.io, "writing to \(hexAddress) on \(path) failed: \(error)")
        }
    }
}

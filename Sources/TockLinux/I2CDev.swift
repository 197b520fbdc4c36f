import CTockLinux
import Glibc
import SystemPackage

/// One device on an I2C bus through the kernel's i2c-dev interface
/// (Documentation/i2c/dev-interface.rst): `/dev/i2c-N` opened, the
/// device's 7-bit address set with `ioctl(I2C_SLAVE)`, and each `write(2)`
/// one transaction (START, address + W, the bytes, STOP).
public final class I2CDev: I2CDevice {
    public let bus: Int
    public let address: UInt8
    public let path: String
    private var fd: FileDescriptor?

    /// Opens `/dev/i2c-<bus>` for the device at `address` (0x08...0x77;
    /// 0x70 for the HT16K33 backpack with no address jumpers closed).
    public init(bus: Int, address: UInt8) throws(HardwareError) {
        precondition(address <= 0x7F, "I2C addresses are 7 bits, not \(address)")
        self.bus = bus
        self.address = address
        self.path = "/dev/i2c-\(bus)"
        let fd: FileDescriptor
        do {
            fd = try Syscall.open(path, O_RDWR)
        } catch {
            throw openError(error)
        }
        do {
            try Syscall.ioctl(fd, UInt(I2C_SLAVE), value: CInt(address))
        } catch {
            Syscall.close(fd)
            throw addressError(error)
        }
        self.fd = fd
    }

    deinit { close() }

    /// One write transaction.
    public func write(_ bytes: [UInt8]) throws(HardwareError) {
        guard let fd else { preconditionFailure("I2CDev \(path) used after close()") }
        let written: Int?
        do {
            written = try Syscall.write(fd, bytes)
        } catch {
            throw writeError(error)
        }
        // Documentation/i2c/fault-codes.rst: EAGAIN is a lost arbitration.
        guard let written else {
            throw HardwareError(.bus, "another I2C master took \(path) while writing to \(device): is something else driving the bus?")
        }
        guard written == bytes.count else {
            throw HardwareError(.io, "only \(written) of \(bytes.count) bytes reached \(device) on \(path)")
        }
    }

    /// Closes the device; later calls do nothing.
    public func close() {
        guard let fd else { return }
        self.fd = nil
        Syscall.close(fd)
    }

    private var device: String { "0x" + String(address, radix: 16) }

    private func openError(_ error: Errno) -> HardwareError {
        switch error {
        case .noSuchFileOrDirectory:
            HardwareError(.notFound, "\(path) does not exist: enable I2C with dtparam=i2c_arm=on in /boot/firmware/config.txt (or raspi-config, Interface Options, I2C) and reboot; ls /dev/i2c-* lists the buses there are")
        case .permissionDenied, .notPermitted:
            HardwareError(.permission, "no permission to open \(path): add the user to the i2c group (sudo usermod -aG i2c $USER) and log in again")
        default:
            HardwareError(.io, "cannot open \(path): \(error)")
        }
    }

    private func addressError(_ error: Errno) -> HardwareError {
        switch error {
        case .resourceBusy:
            HardwareError(.busy, "address \(device) on \(path) is in use by a kernel driver (i2cdetect -y \(bus) shows UU there): remove the overlay that claims it, or use another address")
        default:
            HardwareError(.io, "cannot select address \(device) on \(path) (ioctl I2C_SLAVE): \(error)")
        }
    }

    private func writeError(_ error: Errno) -> HardwareError {
        switch error {
        // Documentation/i2c/fault-codes.rst: ENXIO (SMBus adapters) and
        // EREMOTEIO (I2C adapters) mean the address was not acknowledged.
        case .noSuchAddressOrDevice, Errno(rawValue: EREMOTEIO):
            HardwareError(.noAcknowledge, "no device answered at \(device) on \(path); check wiring and the address jumpers (i2cdetect -y \(bus))")
        case .timedOut:
            HardwareError(.bus, "writing to \(device) on \(path) timed out: is SDA or SCL held low? Check the pull-ups and the device's power")
        default:
            HardwareError(.io, "writing to \(device) on \(path) failed: \(error)")
        }
    }
}

import CTockLinux
import Glibc
import SystemPackage
import TockCore
import TockHardware

/// One device on an SPI bus through the kernel's spidev interface
/// (Documentation/spi/spidev.rst): `/dev/spidevB.C` opened, mode, word
/// size and clock set with the `SPI_IOC_WR_*` ioctls, and each `write(2)`
/// one transfer with chip select asserted for exactly those bytes (which
/// is what latches a MAX7219's 16-bit word on the rising edge of LOAD).
public final class SPIDev: SPIDevice {
    private let device: BusDevice
    public var path: String { device.path }

    /// Opens `/dev/spidev<bus>.<chipSelect>`.
    /// - Parameters:
    ///   - mode: SPI mode 0 (clock idle low, data sampled on the rising
    ///     edge), what the MAX7219 timing diagram shows.
    ///   - speedHz: the clock. The MAX7219 takes up to 10 MHz; 1 MHz
    ///     leaves margin for module wiring and a 3.3 V drive into its 5 V
    ///     inputs, and a 2-byte write still takes only 16 µs.
    public convenience init(bus: Int, chipSelect: Int, mode: UInt8 = 0, speedHz: UInt32 = 1_000_000) throws(HardwareError) {
        try self.init(path: "/dev/spidev\(bus).\(chipSelect)", mode: mode, speedHz: speedHz)
    }

    /// Opens an spidev device by path (a udev symlink, say).
    public init(path: String, mode: UInt8 = 0, speedHz: UInt32 = 1_000_000) throws(HardwareError) {
        device = try BusDevice(path: path, kind: .spi)
        // A failed setting throws; the device closes as `device` goes.
        let fd = device.descriptor
        var mode = mode
        var bitsPerWord: UInt8 = 8
        var speed = speedHz
        try setting("mode \(mode)") { () throws(Errno) in try Syscall.ioctl(fd, TOCK_SPI_IOC_WR_MODE, pointingTo: &mode) }
        try setting("8 bits per word") { () throws(Errno) in try Syscall.ioctl(fd, TOCK_SPI_IOC_WR_BITS_PER_WORD, pointingTo: &bitsPerWord) }
        try setting("a \(speedHz) Hz clock") { () throws(Errno) in try Syscall.ioctl(fd, TOCK_SPI_IOC_WR_MAX_SPEED_HZ, pointingTo: &speed) }
    }

    /// One transfer.
    public func write(_ bytes: [UInt8]) throws(HardwareError) {
        let written: Int?
        do {
            written = try Syscall.write(device.descriptor, bytes)
        } catch where error == .messageTooLong {
            throw HardwareError(.unsupported, "a \(bytes.count)-byte transfer is over spidev's buffer size (the spidev.bufsiz module parameter, 4096 by default)")
        } catch {
            throw HardwareError(.io, "writing \(bytes.count) bytes to \(path) failed: \(error)")
        }
        guard written == bytes.count else {
            throw HardwareError(.io, "only \(written ?? 0) of \(bytes.count) bytes went out on \(path)")
        }
    }

    /// Closes the device; later calls do nothing.
    public func close() { device.close() }

    private func setting(_ what: String, _ ioctl: () throws(Errno) -> Void) throws(HardwareError) {
        do {
            try ioctl()
        } catch where error == .invalidArgument {
            throw HardwareError(.unsupported, "\(path) does not support \(what)")
        } catch where error == .inappropriateIOCTLForDevice {
            throw HardwareError(.unsupported, "\(path) is not an spidev device: it refused \(what)")
        } catch {
            throw HardwareError(.io, "cannot set \(what) on \(path): \(error)")
        }
    }
}

import Glibc
import SystemPackage
import TockCore
import TockHardware

/// A bus character device (`/dev/i2c-N`, `/dev/spidevB.C`) opened
/// read-write; one owner, closed exactly once. Opening says what to do when
/// the bus is not enabled or the user may not use it.
final class BusDevice {
    /// What a person needs to know about the bus to fix an open error.
    struct Kind {
        /// "I2C", "SPI".
        var name: String
        /// The config.txt line that enables it.
        var dtparam: String
        /// The raspi-config menu entry.
        var menu: String
        /// The group that may use it.
        var group: String
        /// The device files to list (`/dev/i2c-*`).
        var devices: String
        /// "buses", "devices".
        var plural: String

        static let i2c = Kind(name: "I2C", dtparam: "dtparam=i2c_arm=on", menu: "I2C", group: "i2c", devices: "/dev/i2c-*", plural: "buses")
        static let spi = Kind(name: "SPI", dtparam: "dtparam=spi=on", menu: "SPI", group: "spi", devices: "/dev/spidev*", plural: "devices")
    }

    let path: String
    private var fd: FileDescriptor?

    init(path: String, kind: Kind) throws(HardwareError) {
        self.path = path
        do {
            fd = try Syscall.open(path, O_RDWR)
        } catch {
            switch error {
            case .noSuchFileOrDirectory:
                throw HardwareError(.notFound, "\(path) does not exist: enable \(kind.name) with \(kind.dtparam) in /boot/firmware/config.txt (or raspi-config, Interface Options, \(kind.menu)) and reboot; ls \(kind.devices) lists the \(kind.plural) there are")
            case .permissionDenied, .notPermitted:
                throw HardwareError(.permission, "no permission to open \(path): add the user to the \(kind.group) group (sudo usermod -aG \(kind.group) $USER) and log in again")
            default:
                throw HardwareError(.io, "cannot open \(path): \(error)")
            }
        }
    }

    /// The open descriptor; using a closed device is a programming error.
    var descriptor: FileDescriptor {
        guard let fd else { preconditionFailure("\(path) used after close()") }
        return fd
    }

    /// Closes the device; later calls do nothing.
    func close() {
        guard let fd else { return }
        self.fd = nil
        Syscall.close(fd)
    }

    deinit { close() }
}

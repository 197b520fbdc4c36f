import CTockLinux
import SystemPackage
import TockHardware

/// SMBus transactions on the same device, through i2c-dev's `I2C_SMBUS`
/// ioctl (Documentation/i2c/dev-interface.rst, "Full interface
/// description"): what an SMBus-only adapter such as `i2c-stub` takes, and
/// what every Pi adapter emulates over plain I2C.
extension I2CDev: SMBusDevice {
    /// SMBus Send Byte (`i2c_smbus_write_byte`).
    public func sendByte(_ byte: UInt8) throws(HardwareError) {
        var data = i2c_smbus_data()
        try transfer(read: false, command: byte, size: I2C_SMBUS_BYTE, &data)
    }

    /// SMBus Read Word Data (`i2c_smbus_read_word_data`): the first byte
    /// on the wire is the word's low byte.
    public func readWord(command: UInt8) throws(HardwareError) -> UInt16 {
        var data = i2c_smbus_data()
        try transfer(read: true, command: command, size: I2C_SMBUS_WORD_DATA, &data)
        return data.word
    }

    private func transfer(read: Bool, command: UInt8, size: CInt, _ data: inout i2c_smbus_data) throws(HardwareError) {
        do {
            try withUnsafeMutablePointer(to: &data) { pointer throws(Errno) in
                var args = i2c_smbus_ioctl_data(read_write: UInt8(read ? I2C_SMBUS_READ : I2C_SMBUS_WRITE), command: command,
                                                size: UInt32(size), data: pointer)
                try Syscall.ioctl(device.descriptor, UInt(I2C_SMBUS), pointingTo: &args)
            }
        } catch {
            throw smbusError(error, reading: read)
        }
    }

    private func smbusError(_ error: Errno, reading: Bool) -> HardwareError {
        // i2c-dev: EOPNOTSUPP when the adapter lacks the transaction.
        if error == .notSupported {
            return HardwareError(.unsupported, "the adapter behind \(path) cannot do SMBus \(reading ? "Read Word Data" : "Send Byte") for \(hexAddress)")
        }
        let e = writeError(error)
        guard reading, e.kind == .io else { return e }
        return HardwareError(.io, "reading from \(hexAddress) on \(path) failed: \(error)")
    }
}

import Testing
@testable import TockLinux
import TockCore
import TockHardware

@Suite struct I2CDevTests {
    @Test func aMissingBusSaysHowToEnableI2C() {
        let error = #expect(throws: HardwareError.self) { try I2CDev(bus: 99, address: 0x70) }
        #expect(error?.kind == .notFound)
        #expect(error?.message.hasPrefix("/dev/i2c-99 does not exist: enable I2C with dtparam=i2c_arm=on in /boot/firmware/config.txt") == true)
    }
}

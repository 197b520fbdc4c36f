import Testing
@testable import TockLinux
import TockCore
import TockHardware

@Suite struct SPIDevTests {
    @Test func aMissingDeviceSaysHowToEnableSPI() {
        let error = #expect(throws: HardwareError.self) { try SPIDev(bus: 9, chipSelect: 9) }
        #expect(error?.kind == .notFound)
        #expect(error?.message.hasPrefix("/dev/spidev9.9 does not exist: enable SPI with dtparam=spi=on in /boot/firmware/config.txt") == true)
    }

    /// A device that is not spidev refuses the SPI ioctls: the error says
    /// which setting, and the descriptor is not leaked.
    @Test func aDeviceThatIsNotSPIRefusesTheSettings() {
        let error = #expect(throws: HardwareError.self) { try SPIDev(path: "/dev/null") }
        #expect(error?.message.contains("/dev/null") == true)
        #expect(error?.message.contains("mode 0") == true)
    }
}

import Testing
import TockDrivers
import TockHardware
import TockMock

/// The BH1750 driver against a mock chip that takes the instructions as
/// the datasheet says.
@Suite struct BH1750Tests {
    @Test func startPowersOnAndSetsContinuousHighResolutionThenReadsLux() throws {
        let chip = MockBH1750()
        let sensor = BH1750(bus: chip)
        try sensor.start()
        #expect(chip.poweredOn && chip.mode == 0x10)
        for lux in [0.0, 5, 100, 250, 10_000] {
            chip.lux = lux
            #expect(try sensor.lux() == lux)  // whole counts of 1/1.2 lx
        }
        chip.lux = 1_000_000  // beyond the 16-bit count: saturates, as the chip does
        #expect(try sensor.lux() == 65_535 / 1.2)
        #expect(chip.protocolErrors.isEmpty)
    }

    @Test func theHighByteComesFirstOnTheWire() throws {
        // 0x1234 counts arrive as 0x12, 0x34: the SMBus word 0x3412.
        final class Wire: SMBusDevice {
            func sendByte(_ byte: UInt8) throws {}
            func readWord(command: UInt8) throws -> UInt16 { 0x3412 }
        }
        #expect(try BH1750(bus: Wire()).lux() == Double(0x1234) / 1.2)
    }

    @Test func aSensorThatDoesNotAnswerThrows() {
        let chip = MockBH1750()
        chip.failing = HardwareError(.noAcknowledge, "no device answered at 0x23")
        #expect(throws: HardwareError.self) { try BH1750(bus: chip).start() }
        #expect(throws: HardwareError.self) { try BH1750(bus: chip).lux() }
    }
}

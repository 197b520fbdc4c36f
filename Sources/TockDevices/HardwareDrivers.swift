import Logging
import TockConfig
import TockDrivers
import TockGPIOD
import TockHardware
import TockLinux

extension Devices {
    /// The display driver for the configured kind. A display that does not
    /// answer is not fatal: its first frame logs the fault and the timer
    /// (and its buzzer) keep working.
    static func openDisplay(_ hw: HardwareConfig, address: [String: LineAddress], log: Logger) throws -> any SegmentDisplay {
        switch hw.display {
        case .none:
            return NoDisplay()
        case .tm1637:
            let pins = try GpiodTwoWire(clock: address["display.clk"]!, data: address["display.dio"]!)
            return TM1637(pins: pins, delay: NanosleepDelay(), clockLine: hw.clk, dataLine: hw.dio)
        case .ht16k33:
            return HT16K33(bus: try I2CDev(bus: hw.i2cBus, address: UInt8(hw.i2cAddress)))
        case .max7219:
            return MAX7219(bus: try SPIDev(bus: hw.spiBus, chipSelect: hw.spiDevice))
        }
    }

    /// A passive buzzer on a hardware PWM channel (frequency from the pattern).
    static func passiveBuzzer(_ hw: HardwareConfig) throws -> any Sounder {
        PWMBuzzer(channel: try SysfsPWM(chip: hw.pwmChip, channel: hw.pwmChannel))
    }
}

import Logging
import TockConfig
import TockCore
import TockDrivers
import TockGPIOD
import TockHardware
import TockLinux

extension Devices {
    /// The display, the buzzer and the LEDs the configuration names,
    /// opened over `board`: the same drivers on a Pi (`GpiodBoard`) and on
    /// a PC (`MockBoard`). A display that does not answer is not fatal:
    /// its first frame logs the fault and the timer (and its buzzer) keep
    /// working.
    /// - Parameter leds: the LEDs to open (on a board, those with a line).
    static func outputs(_ config: Configuration, leds names: [String], on board: any Board)
        throws -> (display: any SegmentDisplay, sounder: any Sounder, leds: [String: any DigitalOutput]) {
        let hw = config.hardware
        let display = try self.display(config, on: board)
        let sounder: any Sounder
        switch hw.buzzer {
        case .active: sounder = ActiveBuzzer(line: try board.output("buzzer.pin", role: "the buzzer", activeLow: hw.buzzerActiveLow))
        case .passive: sounder = PWMBuzzer(channel: try board.pwm(chip: hw.pwmChip, channel: hw.pwmChannel))
        case .none: sounder = SilentBuzzer()
        }
        var leds: [String: any DigitalOutput] = [:]
        for name in names { leds[name] = try board.output("leds.\(name)", role: "the \(name) LED", activeLow: false) }
        return (display, sounder, leds)
    }
}

extension Devices {
    /// The display the configuration names, opened over `board` (and
    /// nothing else: `tock splash` opens only this).
    static func display(_ config: Configuration, on board: any Board) throws -> any SegmentDisplay {
        let hw = config.hardware
        switch hw.display {
        case .none:
            return NoDisplay()
        case .tm1637:
            let wires = try board.twoWire(clock: "display.clk", data: "display.dio")
            return TM1637(pins: wires.pins, delay: wires.delay, clockLine: hw.clk, dataLine: hw.dio, digits: config.settings.display.digits)
        case .ht16k33:
            return HT16K33(bus: try board.i2c(bus: hw.i2cBus, address: UInt8(hw.i2cAddress)))
        case .max7219:
            return MAX7219(bus: try board.spi(bus: hw.spiBus, chipSelect: hw.spiDevice), digits: config.settings.display.digits)
        }
    }
}

extension Devices {
    /// The light sensor the configuration names, opened over `board`, or
    /// why it could not be (said for the log and the status).
    static func lightSensor(_ config: Configuration, on board: any Board) -> ((any LightSensor)?, String?) {
        let hw = config.hardware
        switch hw.light {
        case .none:
            return (nil, nil)
        case .bh1750:
            do {
                return (BH1750(bus: try board.smbus(bus: hw.lightI2CBus, address: UInt8(hw.lightAddress))), nil)
            } catch {
                return (nil, "light sensor (BH1750 at 0x\(String(hw.lightAddress, radix: 16)) on /dev/i2c-\(hw.lightI2CBus)): \(error)")
            }
        }
    }
}

/// A Raspberry Pi (or any board with a GPIO character device): lines
/// through libgpiod by the addresses the configuration's names resolved
/// to, buses through the kernel's i2c-dev, spidev and PWM sysfs.
final class GpiodBoard: Board {
    /// Each configuration key's line (a list: no dictionary of strings
    /// before ready, docs/benchmarks.md says why).
    struct Keyed {
        let key: String
        let address: LineAddress
    }
    private let address: [Keyed]
    private let timestamp: (UInt64) -> Instant
    private let onLoss: (String) -> Void

    /// - Parameters:
    ///   - timestamp: converts a kernel CLOCK_MONOTONIC event time to the
    ///     appliance's clock.
    ///   - onLoss: told when a line's kernel event buffer overflowed.
    init(address: [Keyed], timestamp: @escaping (UInt64) -> Instant, onLoss: @escaping (String) -> Void) {
        self.address = address
        self.timestamp = timestamp
        self.onLoss = onLoss
    }

    private func line(_ key: String) throws -> LineAddress {
        guard let a = address.first(where: { $0.key == key })?.address else { throw HardwareError(.notFound, "\(key) has no line in the configuration") }
        return a
    }

    /// One line request per input (`pins.NAME`), each with its own event
    /// descriptor, as libgpiod's examples request them.
    func inputs(_ lines: [InputLine], bias: Bias, kernelDebounce: Duration) throws -> [any LevelReader] {
        try lines.map {
            try GpiodInput(try line("pins.\($0.name)"), role: $0, bias: bias, kernelDebounce: kernelDebounce,
                           timestamp: timestamp, onLoss: onLoss)
        }
    }

    func output(_ key: String, role: String, activeLow: Bool) throws -> any DigitalOutput {
        try GpiodOutput(try line(key), role: role, activeLow: activeLow)
    }

    func twoWire(clock: String, data: String) throws -> (pins: any TwoWirePins, delay: any Delay) {
        (try GpiodTwoWire(clock: try line(clock), data: try line(data)), NanosleepDelay())
    }

    func i2c(bus: Int, address: UInt8) throws -> any I2CDevice { try I2CDev(bus: bus, address: address) }
    func smbus(bus: Int, address: UInt8) throws -> any SMBusDevice { try I2CDev(bus: bus, address: address) }
    func spi(bus: Int, chipSelect: Int) throws -> any SPIDevice { try SPIDev(bus: bus, chipSelect: chipSelect) }
    func pwm(chip: Int, channel: Int) throws -> any PWMChannel { try SysfsPWM(chip: chip, channel: channel) }
}

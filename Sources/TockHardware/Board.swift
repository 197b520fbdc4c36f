import TockCore

/// Where the configured parts are opened, in gpiozero's sense of a pin
/// factory: the GPIO character device and the kernel's buses on a board,
/// mock lines and buses (with a chip at the end that decodes what it is
/// sent) on a PC. The display, buzzer and LED drivers are opened the same
/// way over either, so the simulator and the tests run the drivers a
/// board runs.
public protocol Board: AnyObject {
    /// The input lines (`pins.start` … `pins.switch`), each requested for
    /// both edges with `bias`, the pull resistor, which the board applies:
    /// the kernel's on a Pi, the level an undriven mock line rests at on a
    /// PC. What they read is electrical; polarity (`pins.active_low`) is
    /// applied once, by the `InputReader` over them, for every board.
    /// `kernelDebounce`: the kernel's filter, where the board has one.
    func inputs(_ lines: [InputLine], bias: Bias, kernelDebounce: Duration) throws -> [any LevelReader]
    /// An output line by its configuration key (`buzzer.pin`, `leds.running`);
    /// `role` names it in errors.
    func output(_ key: String, role: String, activeLow: Bool) throws -> any DigitalOutput
    /// A TM1637's two lines (`display.clk`, `display.dio`) and what waits
    /// between their edges.
    func twoWire(clock: String, data: String) throws -> (pins: any TwoWirePins, delay: any Delay)
    func i2c(bus: Int, address: UInt8) throws -> any I2CDevice
    /// A device on an I2C bus spoken to in SMBus transactions (a light sensor).
    func smbus(bus: Int, address: UInt8) throws -> any SMBusDevice
    func spi(bus: Int, chipSelect: Int) throws -> any SPIDevice
    func pwm(chip: Int, channel: Int) throws -> any PWMChannel
}

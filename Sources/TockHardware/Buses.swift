/// The small buses the display and buzzer drivers are generic over. Each is
/// one or two methods, so a driver runs the same against the Linux device
/// and against a mock that decodes what went over the wire.

/// A device on an I2C bus at a fixed address (`/dev/i2c-N` + address).
public protocol I2CDevice: AnyObject {
    /// One write transaction: START, address+W, the bytes, STOP.
    func write(_ bytes: [UInt8]) throws
}

/// A device on an SPI bus with its own chip select (`/dev/spidevB.C`).
public protocol SPIDevice: AnyObject {
    /// One transfer: chip select asserted for exactly these bytes.
    func write(_ bytes: [UInt8]) throws
}

/// Two GPIO lines for a bit-banged two-wire bus (TM1637's CLK and DIO).
/// Both are open drain: `high` releases the line to its pull-up, `low`
/// drives it down; `readData` samples what is actually on DIO (the
/// display's ACK). Both start released (high) when the pins are opened.
public protocol TwoWirePins: AnyObject {
    func setClock(_ high: Bool) throws
    func setData(_ high: Bool) throws
    func readData() throws -> Bool
}

/// Waits a short time between bus edges. Drivers never sleep by themselves;
/// they are handed one of these (a real nanosleep, or a mock that only
/// records the time that should have passed).
public protocol Delay: AnyObject {
    func wait(_ d: Duration)
}

/// A hardware PWM channel (`/sys/class/pwm/pwmchipN/pwmM`).
public protocol PWMChannel: AnyObject {
    /// Set period and duty cycle and enable, or disable with nil.
    func output(period: Duration, duty: Duration) throws
    func disable() throws
}

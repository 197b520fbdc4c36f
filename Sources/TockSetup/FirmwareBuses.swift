import TockConfig

/// The buses the configuration needs, as Raspberry Pi firmware lines
/// (config.txt(5) on the Pi: `dtparam=`, `dtoverlay=`), for
/// `tock-buses.txt` on the boot partition. The image's config.txt
/// includes that file (`include tock-buses.txt`, put there from
/// /etc/default/raspi-firmware-custom by raspi-firmware's hook at every
/// kernel or firmware upgrade), so neither the owner nor an upgrade
/// edits config.txt. The firmware reads it at power-on: a change applies
/// from the next boot (docs/raspberry-pi.md, "Buses").
public enum FirmwareBuses {
    /// The file's name on the boot partition.
    public static let file = "tock-buses.txt"

    /// The lines for `hardware`, in a fixed order (empty for the default
    /// wiring: the TM1637 and the buttons are plain GPIO lines).
    public static func lines(for hardware: HardwareConfig) -> [String] {
        var out: [String] = []
        // I2C1 on GPIO2/GPIO3 (SDA [3], SCL [5]): /dev/i2c-1.
        if hardware.display == .ht16k33 || hardware.light == .bh1750 { out.append("dtparam=i2c_arm=on") }
        // SPI0 on GPIO7-11: /dev/spidev0.0 and 0.1.
        if hardware.display == .max7219 { out.append("dtparam=spi=on") }
        // PWM0 channel 0 on GPIO18 (function ALT5, func=2 in the overlay):
        // /sys/class/pwm/pwmchip0/pwm0. Only for a passive buzzer: with
        // the overlay GPIO18 is no longer a plain line for an active one.
        if hardware.buzzer == .passive { out.append("dtoverlay=pwm,pin=18,func=2") }
        return out
    }

    /// The whole file: a header saying what writes it, then the lines.
    public static func text(for hardware: HardwareConfig) -> String {
        let head = """
            # Written by `tock setup apply` at every boot from tock/config.yaml:
            # the buses the configuration needs (config.txt includes this file).
            # Edits here are replaced; change tock/config.yaml instead.

            """
        return head + lines(for: hardware).map { $0 + "\n" }.joined()
    }
}

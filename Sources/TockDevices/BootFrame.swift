import TockConfig
import TockCore
import TockGPIOD
import TockHardware

/// What the display shows while the box boots (`tock splash`): `boot`,
/// sent once over the display's own bus before tock runs. Each display
/// Tock drives (TM1637, HT16K33, MAX7219) keeps what it was sent after the
/// lines are let go, so the frame stays until tock's first frame replaces
/// it. Only the display is opened: no input, no buzzer, no LED line.
public enum BootFrame {
    public static let text = "boot"

    /// The frame: at the configured brightness, or the night's when that
    /// is dimmer (the clock may not be known yet at boot, and a light in
    /// a dark bedroom is the worse mistake).
    public static func frame(_ config: Configuration) -> Frame {
        let d = config.settings.display
        return Frame(text: text, digits: d.digits, brightness: min(d.brightness, d.night?.brightness ?? 7))
    }

    /// What was done, for the log and the command's output.
    public enum Outcome: Equatable, Sendable {
        /// The frame was sent to the display (`what`: the display and where).
        case shown(String)
        /// The configuration has no display (`display.kind: none`).
        case noDisplay
    }

    /// Sends the boot frame over `board`, opening only the display.
    public static func show(_ config: Configuration, on board: any Board) throws -> Outcome {
        let hw = config.hardware
        guard hw.display != .none else { return .noDisplay }
        let display = try Devices.display(config, on: board)
        try display.show(frame(config))
        return .shown(placeName(hw))
    }

    /// On the GPIO character device: finds the display's two lines (a
    /// TM1637's) by name in `chips` before claiming anything; the buses of
    /// the other displays are the kernel's.
    public static func show(_ config: Configuration, chips directory: String) throws -> Outcome {
        let hw = config.hardware
        guard hw.display != .none else { return .noDisplay }
        var address: [GpiodBoard.Keyed] = []
        let wanted = hw.lines.filter { $0.key.hasPrefix("display.") }
        if !wanted.isEmpty {
            let finder = LineFinder(chips: try GpioChip.all(in: directory))
            for use in wanted { address.append(GpiodBoard.Keyed(key: use.key, address: try finder.find(use.line, for: use.key))) }
        }
        let board = GpiodBoard(address: address, timestamp: { _ in Instant(nanoseconds: 0) }, onLoss: { _ in })
        return try show(config, on: board)
    }

    private static func placeName(_ hw: HardwareConfig) -> String {
        switch hw.display {
        case .none: "no display"
        case .tm1637: "tm1637 on \(hw.clk) and \(hw.dio)"
        case .ht16k33: "ht16k33 at 0x\(String(hw.i2cAddress, radix: 16)) on /dev/i2c-\(hw.i2cBus)"
        case .max7219: "max7219 on /dev/spidev\(hw.spiBus).\(hw.spiDevice)"
        }
    }
}

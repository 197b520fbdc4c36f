import TockCore
import TockHardware

/// The hardware half of the configuration: which line each part is on.
/// Lines are named (`GPIO17`) so the same file works on a Pi 4
/// (`gpiochip0`) and a Pi 5 (`pinctrl-rp1`), or given as `CHIP:OFFSET`.
public struct HardwareConfig: Equatable, Sendable {
    public enum BuzzerKind: String, CaseIterable, Sendable { case active, passive, none }
    public enum DisplayKind: String, CaseIterable, Sendable { case tm1637, ht16k33, max7219, none }
    public enum LightKind: String, CaseIterable, Sendable { case bh1750, none }

    public var start = "GPIO17"
    public var stop = "GPIO27"
    public var reset = "GPIO22"
    public var directionSwitch = "GPIO23"
    public var bias = Bias.pullUp
    public var activeLow = true
    /// The kernel's own debounce (libgpiod 2 only); 0 leaves it to Tock.
    public var kernelDebounce: Duration = .zero

    public var buzzer = BuzzerKind.active
    public var buzzerPin = "GPIO18"
    public var buzzerActiveLow = false
    public var pwmChip = 0
    public var pwmChannel = 0

    /// Status LED name -> line.
    public var leds: [String: String] = [:]

    public var display = DisplayKind.tm1637
    public var clk = "GPIO5"
    public var dio = "GPIO6"
    public var i2cBus = 1
    public var i2cAddress = 0x70
    public var spiBus = 0
    public var spiDevice = 0

    /// The ambient light sensor (`light:`), on I2C.
    public var light = LightKind.none
    public var lightI2CBus = 1
    public var lightAddress = 0x23

    public init() {}

    /// Every line the configuration uses, with the key that names it.
    public var lines: [LineUse] {
        var l = [LineUse("pins.start", start), LineUse("pins.stop", stop), LineUse("pins.reset", reset), LineUse("pins.switch", directionSwitch)]
        if buzzer == .active { l.append(LineUse("buzzer.pin", buzzerPin)) }
        for name in leds.keys.sorted() { l.append(LineUse("leds.\(name)", leds[name]!)) }
        if display == .tm1637 { l += [LineUse("display.clk", clk), LineUse("display.dio", dio)] }
        return l
    }

    /// A line and the key that names it. (A struct: an array of tuples
    /// has its type built at run time from its name, `make bench-startup`.)
    public struct LineUse: Equatable, Sendable {
        public let key: String
        public let line: String
        init(_ key: String, _ line: String) { self.key = key; self.line = line }
    }
}

extension Configuration {
    static let hardwareKeys = ["pins", "buzzer"]
    static let displayHardwareKeys = ["night", "kind", "clk", "dio", "i2c_bus", "i2c_address", "spi_bus", "spi_device"]

    mutating func readHardware(_ top: Section, _ r: ConfigReader) {
        if let n = top["pins"] {
            let p = r.mapping(n, "pins", allowed: ["start", "stop", "reset", "switch", "bias", "active_low", "kernel_debounce"])
            if let v = p["start"], let s = r.line(v, "pins.start") { hardware.start = s }
            if let v = p["stop"], let s = r.line(v, "pins.stop") { hardware.stop = s }
            if let v = p["reset"], let s = r.line(v, "pins.reset") { hardware.reset = s }
            if let v = p["switch"], let s = r.line(v, "pins.switch") { hardware.directionSwitch = s }
            if let v = p["bias"], let s = r.choice(v, "pins.bias", Bias.allCases.map(\.rawValue)) { hardware.bias = Bias(rawValue: s)! }
            if let v = p["active_low"], let b = r.bool(v, "pins.active_low") { hardware.activeLow = b }
            if let v = p["kernel_debounce"], let d = r.duration(v, "pins.kernel_debounce", min: .zero, max: .milliseconds(100)) { hardware.kernelDebounce = d }
        }
        if let n = top["buzzer"] {
            let b = r.mapping(n, "buzzer", allowed: ["kind", "pin", "active_low", "pwm_chip", "pwm_channel"])
            if let v = b["kind"], let s = r.choice(v, "buzzer.kind", HardwareConfig.BuzzerKind.allCases.map(\.rawValue)) { hardware.buzzer = .init(rawValue: s)! }
            if let v = b["pin"], let s = r.line(v, "buzzer.pin") { hardware.buzzerPin = s }
            if let v = b["active_low"], let x = r.bool(v, "buzzer.active_low") { hardware.buzzerActiveLow = x }
            if let v = b["pwm_chip"], let k = r.int(v, "buzzer.pwm_chip", 0...63) { hardware.pwmChip = k }
            if let v = b["pwm_channel"], let k = r.int(v, "buzzer.pwm_channel", 0...15) { hardware.pwmChannel = k }
        }
    }

    mutating func readDisplayHardware(_ d: Section, _ r: ConfigReader) {
        if let v = d["kind"], let s = r.choice(v, "display.kind", HardwareConfig.DisplayKind.allCases.map(\.rawValue)) {
            hardware.display = .init(rawValue: s)!
        } else if settings.display.digits == 8 {
            hardware.display = .max7219  // the 8-digit module
        }
        if let v = d["clk"], let s = r.line(v, "display.clk") { hardware.clk = s }
        if let v = d["dio"], let s = r.line(v, "display.dio") { hardware.dio = s }
        if let v = d["i2c_bus"], let k = r.int(v, "display.i2c_bus", 0...255) { hardware.i2cBus = k }
        if let v = d["i2c_address"], let k = r.int(v, "display.i2c_address", 0x70...0x77) { hardware.i2cAddress = k }
        if let v = d["spi_bus"], let k = r.int(v, "display.spi_bus", 0...15) { hardware.spiBus = k }
        if let v = d["spi_device"], let k = r.int(v, "display.spi_device", 0...15) { hardware.spiDevice = k }
    }

    /// LEDs: a list of names (the simulator) or a mapping name -> line.
    mutating func readLeds(_ node: Node, _ r: ConfigReader) {
        if case .mapping = node.value {
            let m = r.mapping(node, "leds", allowed: Machine.ledNames)
            for name in Machine.ledNames {
                if let v = m[name], let s = r.line(v, "leds.\(name)") { hardware.leds[name] = s }
            }
            leds = Machine.ledNames.filter { hardware.leds[$0] != nil }
        } else if let items = r.list(node, "leds") {
            leds = items.enumerated().compactMap { i, item in r.choice(item, "leds[\(i)]", Machine.ledNames) }
        }
    }

    /// The same line used twice is a wiring mistake the file can show.
    func checkLines(_ top: Section, _ r: ConfigReader) {
        let lines = hardware.lines
        for (i, use) in lines.enumerated() {
            let (key, line) = (use.key, use.line)
            if let other = lines[..<i].first(where: { $0.line == line }) {
                let section = String(key.split(separator: ".").first!)
                r.problem(top[section], key, "\(line) is already used by \(other.key); every part needs its own line")
            }
        }
        if hardware.display == .max7219, settings.display.digits != 8 {
            r.problem(top["display"], "display.digits", "a MAX7219 module has 8 digits; set display.digits: 8")
        }
        if hardware.display == .tm1637 || hardware.display == .ht16k33, settings.display.digits != 4 {
            r.problem(top["display"], "display.digits", "a \(hardware.display.rawValue) module has 4 digits; set display.digits: 4")
        }
    }
}

extension ConfigReader {
    /// A line name such as GPIO17, or CHIP:OFFSET.
    func line(_ node: Node, _ key: String) -> String? {
        guard let s = string(node, key) else { return nil }
        let ok = s.allSatisfy { $0.isLetter || $0.isNumber || "_-:/.".contains($0) }
        guard ok, !s.isEmpty else {
            problem(node, key, "\"\(s)\" is not a line name; write a name such as GPIO17, or CHIP:OFFSET such as gpiochip0:17")
            return nil
        }
        return s
    }
}

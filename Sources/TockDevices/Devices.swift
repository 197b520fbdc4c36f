import Logging
import TockConfig
import TockCore
import TockGPIOD
import TockHardware
import TockMock

/// The parts the appliance drives, opened from the configuration.
public final class Devices {
    public enum Backend: String, CaseIterable, Sendable { case gpiod, mock }

    /// GPIO inputs, read when their descriptors become readable.
    public private(set) var readers: [any EdgeReader] = []
    /// The mock panel, when running on the mock backend.
    public private(set) var panel: MockPanel?
    public let display: any SegmentDisplay
    public let sounder: any Sounder
    public let leds: [String: any DigitalOutput]
    public let switchPosition: SwitchPosition
    /// What was opened, for the log.
    public let summary: String

    public init(readers: [any EdgeReader], panel: MockPanel?, display: any SegmentDisplay, sounder: any Sounder,
         leds: [String: any DigitalOutput], switchPosition: SwitchPosition, summary: String) {
        self.readers = readers
        self.panel = panel
        self.display = display
        self.sounder = sounder
        self.leds = leds
        self.switchPosition = switchPosition
        self.summary = summary
    }

    /// Everything on mock lines: runs on any PC. With `input`, edges
    /// written to a named pipe drive the inputs (`--mock-input`).
    public static func mock(_ config: Configuration, clock: @escaping MockClock, input: MockInputStream? = nil) -> Devices {
        let panel = MockPanel(switchPosition: config.switchPosition)
        let leds = Dictionary(uniqueKeysWithValues: config.leds.map { ($0, MockOutput(name: $0, clock: clock) as any DigitalOutput) })
        return Devices(readers: input.map { [$0] } ?? [], panel: panel, display: MockDisplay(clock: clock), sounder: MockSounder(clock: clock),
                        leds: leds, switchPosition: config.switchPosition,
                        summary: "mock GPIO" + (input.map { ", inputs from \($0.path)" } ?? ""))
    }

    /// The real GPIO character device through libgpiod.
    /// - Parameter timestamp: converts a kernel CLOCK_MONOTONIC event time
    ///   to the appliance's clock.
    public static func gpiod(_ config: Configuration, chips directory: String = "/dev", log: Logger,
                             timestamp: @escaping (UInt64) -> Instant) throws -> Devices {
        let hw = config.hardware
        let finder = LineFinder(chips: try GpioChip.all(in: directory))
        // Find every line first, so a typo is reported before anything is claimed.
        var address: [String: LineAddress] = [:]
        for (key, line) in hw.lines { address[key] = try finder.find(line, for: key) }
        if hw.kernelDebounce > .zero, Libgpiod.api < 2 {
            throw HardwareError(.unsupported, "pins.kernel_debounce needs libgpiod 2 (this build uses \(Libgpiod.version)); remove it, Tock debounces in software")
        }
        let onLoss: (String) -> Void = { log.warning("\($0)") }
        var readers: [any EdgeReader] = []
        var switchUp = false
        for (key, role) in [("pins.start", InputLine.button(.start)), ("pins.stop", .button(.stop)),
                            ("pins.reset", .button(.reset)), ("pins.switch", .directionSwitch)] {
            let input = try GpiodInput(address[key]!, role: role, bias: hw.bias, activeLow: hw.activeLow,
                                       kernelDebounce: hw.kernelDebounce, timestamp: timestamp, onLoss: onLoss)
            if role == .directionSwitch { switchUp = input.active }
            readers.append(input)
        }
        let sounder: any Sounder
        switch hw.buzzer {
        case .active: sounder = ActiveBuzzer(line: try GpiodOutput(address["buzzer.pin"]!, role: "the buzzer", activeLow: hw.buzzerActiveLow))
        case .passive: sounder = try passiveBuzzer(hw)
        case .none: sounder = SilentBuzzer()
        }
        var leds: [String: any DigitalOutput] = [:]
        for name in hw.leds.keys { leds[name] = try GpiodOutput(address["leds.\(name)"]!, role: "the \(name) LED", activeLow: false) }
        let display = try openDisplay(hw, address: address, log: log)
        let lines = hw.lines.map { "\($0.key)=\(address[$0.key]!)" }.joined(separator: ", ")
        return Devices(readers: readers, panel: nil, display: display, sounder: sounder, leds: leds,
                        switchPosition: switchUp ? .up : .down,
                        summary: "libgpiod \(Libgpiod.version): \(lines); display \(hw.display.rawValue); buzzer \(hw.buzzer.rawValue)")
    }
}

/// No buzzer fitted.
final class SilentBuzzer: Sounder {
    func sound(_ tone: Tone?) throws {}
}

/// No display fitted (or none answering): frames go nowhere.
final class NoDisplay: SegmentDisplay {
    func show(_ frame: Frame) throws {}
}

import Logging
import TockConfig
import TockCore
import TockGPIOD
import TockHardware
import TockMock

/// The parts the appliance drives, opened from the configuration.
public final class Devices {
    public enum Backend: String, CaseIterable, Sendable { case gpiod, mock }

    /// The inputs, read when their descriptors become readable: the
    /// board's lines through `InputReader`, on either backend.
    public private(set) var readers: [any EdgeReader] = []
    /// The mock panel, when running on the mock backend.
    public private(set) var panel: MockPanel?
    /// The script that drives the mock panel (`--mock-input`), if any.
    public let script: MockInputStream?
    public let display: any SegmentDisplay
    public let sounder: any Sounder
    public let leds: [String: any DigitalOutput]
    public let switchPosition: SwitchPosition
    /// The mock board the parts were opened on (the mock backend).
    public let board: MockBoard?
    /// What was opened, for the log.
    public let summary: String
    /// The ambient light sensor (`light:`), and why it could not be opened.
    public internal(set) var light: (any LightSensor)?
    public internal(set) var lightProblem: String?

    public init(readers: [any EdgeReader], panel: MockPanel?, script: MockInputStream? = nil, display: any SegmentDisplay,
                sounder: any Sounder, leds: [String: any DigitalOutput], switchPosition: SwitchPosition, board: MockBoard? = nil,
                summary: String) {
        self.readers = readers
        self.panel = panel
        self.script = script
        self.display = display
        self.sounder = sounder
        self.leds = leds
        self.switchPosition = switchPosition
        self.board = board
        self.summary = summary
    }

    /// Everything on mock lines: runs on any PC. With `input`, edges
    /// written to a named pipe drive the inputs (`--mock-input`). The
    /// parts keep only their latest records (`MockHistory.service`): this
    /// is the appliance itself, which runs for days. No one reads what its
    /// display and buzzer did (the status reads the core's frame): the
    /// buzzer keeps nothing, and frames go to the display's driver on the
    /// mock bus as they would on a board, with no record and no check of
    /// what the chip lights beside it (the tests' parts check that).
    public static func mock(_ config: Configuration, clock: @escaping MockClock, input: MockInputStream? = nil) -> Devices {
        let parts = mockParts(config, clock: clock, input: input, keeping: .service, checked: false)
        parts.sounder.keeping = .nothing
        return parts.devices
    }

    /// What `mock` opens, with its mock parts typed: the display (what the
    /// chip lights), the buzzer and the LEDs.
    public struct MockParts {
        public let devices: Devices
        public let panel: MockPanel
        public let display: MockDisplay
        public let sounder: MockSounder
        /// The LEDs' lines, by name (a list: `MockOutputs` says why).
        public let leds: MockOutputs
        public let board: MockBoard
    }

    /// - Parameter checked: the devices draw through `MockParts.display`,
    ///   which records each frame and checks it against what the chip
    ///   lights; unchecked, they draw through the driver alone.
    public static func mockParts(_ config: Configuration, clock: @escaping MockClock, input: MockInputStream? = nil,
                                 keeping: MockHistory = .all, checked: Bool = true) -> MockParts {
        let hw = config.hardware
        let board = MockBoard(clock: clock, keeping: keeping)
        // Mock lines and buses cannot fail to open.
        let lines = try! board.inputs(InputLine.all, bias: hw.bias, kernelDebounce: hw.kernelDebounce)
        let panel = MockPanel(lines: board.inputLines!, activeLow: hw.activeLow, switchPosition: config.switchPosition)
        let readers = lines.map { InputReader($0, activeLow: hw.activeLow) }
        let (driver, buzzer, leds) = try! outputs(config, leds: config.leds, on: board)
        let display = MockDisplay(clock: clock, driver: driver, chip: board.displayChip)
        let sounder = MockSounder(clock: clock, driver: buzzer)
        display.keeping = keeping
        sounder.keeping = keeping
        let devices = Devices(readers: readers, panel: panel, script: input, display: checked ? display : driver, sounder: sounder,
                              leds: leds, switchPosition: Self.switchPosition(readers), board: board,
                              summary: "mock GPIO, the \(config.hardware.display.rawValue) driver on a mock bus" + (input.map { ", inputs from \($0.path)" } ?? ""))
        (devices.light, devices.lightProblem) = lightSensor(config, on: board)
        return MockParts(devices: devices, panel: panel, display: display, sounder: sounder,
                         leds: MockOutputs(board.outputs.filter { config.leds.contains($0.name) }), board: board)
    }

    /// Where the switch is, as the inputs read it now.
    static func switchPosition(_ readers: [InputReader]) -> SwitchPosition {
        readers.lazy.compactMap { $0.active[.directionSwitch] }.first == true ? .up : .down
    }

    /// The real GPIO character device through libgpiod.
    /// - Parameter timestamp: converts a kernel CLOCK_MONOTONIC event time
    ///   to the appliance's clock.
    public static func gpiod(_ config: Configuration, chips directory: String = "/dev", log: Logger,
                             timestamp: @escaping (UInt64) -> Instant) throws -> Devices {
        let hw = config.hardware
        let finder = LineFinder(chips: try GpioChip.all(in: directory))
        // Find every line first, so a typo is reported before anything is claimed.
        let address = try hw.lines.map { use throws(HardwareError) in GpiodBoard.Keyed(key: use.key, address: try finder.find(use.line, for: use.key)) }
        if hw.kernelDebounce > .zero, Libgpiod.api < 2 {
            throw HardwareError(.unsupported, "pins.kernel_debounce needs libgpiod 2 (this build uses \(Libgpiod.version)); remove it, Tock debounces in software")
        }
        let onLoss: (String) -> Void = { log.warning("\($0)") }
        let board = GpiodBoard(address: address, timestamp: timestamp, onLoss: onLoss)
        let readers = try board.inputs(InputLine.all, bias: hw.bias, kernelDebounce: hw.kernelDebounce).map {
            InputReader($0, activeLow: hw.activeLow, onProblem: onLoss)
        }
        let (display, sounder, leds) = try outputs(config, leds: hw.leds.keys.sorted(), on: board)
        let lines = address.map { "\($0.key)=\($0.address)" }.joined(separator: ", ")
        let devices = Devices(readers: readers, panel: nil, display: display, sounder: sounder, leds: leds,
                              switchPosition: Self.switchPosition(readers),
                              summary: "libgpiod \(Libgpiod.version): \(lines); display \(hw.display.rawValue); buzzer \(hw.buzzer.rawValue)"
                                + (hw.light == .none ? "" : "; light \(hw.light.rawValue)"))
        // A light sensor that cannot be opened is not fatal: the display
        // keeps the brightness set by hand (docs/display.md).
        (devices.light, devices.lightProblem) = lightSensor(config, on: board)
        return devices
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

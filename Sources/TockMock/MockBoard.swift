import TockCore
import TockHardware

/// A PC's board: the inputs wires at their pull's level (`MockInputLines`,
/// read through the same `InputReader` and loop as a GPIO chip), every
/// output line a `MockOutput` at its electrical level, and on each bus the
/// chip a module carries (a TM1637 on the two wires, an HT16K33 on I2C, a
/// MAX7219 on SPI, a PWM channel), each decoding what the driver sends.
public final class MockBoard: Board {
    private let clock: MockClock
    /// The input lines opened, if any: a `MockPanel` drives them.
    public private(set) var inputLines: MockInputLines?
    /// Every output opened, by its name (the key's last part: `running`, `pin`).
    public private(set) var outputs = MockOutputs()
    /// The display chip opened, if any: what it lights, read back.
    public private(set) var displayChip: (any MockDisplayChip)?
    public private(set) var pwmChannel: MockPWM?
    /// The light sensor opened, if any: set its `lux` to change the room.
    public private(set) var lightChip: MockBH1750?

    /// How much the parts it makes keep of what they record.
    public let keeping: MockHistory

    public init(clock: @escaping MockClock, keeping: MockHistory = .all) {
        self.clock = clock
        self.keeping = keeping
    }

    /// All the lines on one queue, so their edges are read in the order
    /// they were driven. A mock has no kernel filter: `kernelDebounce` is
    /// left to the software debouncer, which a board runs as well.
    public func inputs(_ lines: [InputLine], bias: Bias, kernelDebounce: Duration) throws -> [any LevelReader] {
        let input = MockInputLines(lines, bias: bias)
        inputLines = input
        return [input]
    }

    public func output(_ key: String, role: String, activeLow: Bool) throws -> any DigitalOutput {
        let name = String(key.split(separator: ".").last ?? Substring(key))
        let line = MockOutput(name: name, clock: clock, activeLow: activeLow)
        line.keeping = keeping
        outputs.opened(line)
        return line
    }

    public func twoWire(clock: String, data: String) throws -> (pins: any TwoWirePins, delay: any Delay) {
        let bus = MockTwoWireBus()
        displayChip = bus
        return (bus, bus)
    }

    public func i2c(bus: Int, address: UInt8) throws -> any I2CDevice {
        let chip = MockHT16K33()
        chip.keeping = keeping
        displayChip = chip
        return chip
    }

    public func smbus(bus: Int, address: UInt8) throws -> any SMBusDevice {
        let chip = MockBH1750()
        lightChip = chip
        return chip
    }

    public func spi(bus: Int, chipSelect: Int) throws -> any SPIDevice {
        let chip = MockMAX7219()
        chip.keeping = keeping
        displayChip = chip
        return chip
    }

    public func pwm(chip: Int, channel: Int) throws -> any PWMChannel {
        let pwm = MockPWM()
        pwm.keeping = keeping
        pwmChannel = pwm
        return pwm
    }
}

/// A display chip at the end of a mock bus: what it lights, read back
/// from its registers.
public protocol MockDisplayChip: AnyObject {
    /// What the chip lights on `digits` digits (blank while it is off).
    func lit(digits: Int) -> Frame
    /// What this chip, wired as its module is, lights for `frame` when its
    /// driver is right.
    func expected(_ frame: Frame) -> Frame
    /// What it was sent that the chip would not take.
    var protocolErrors: [String] { get }
}

extension MockDisplayChip {
    public func expected(_ frame: Frame) -> Frame { frame.with(brightness: 7) }
}

extension Frame {
    /// The digits' segment bits.
    fileprivate var bits: [UInt8] { (0..<digits).map { segments(at: $0) } }

    fileprivate func with(brightness: Int) -> Frame { Frame.segments(bits, colon: colon, brightness: brightness) }
}

extension MockTwoWireBus: MockDisplayChip {
    /// A 4-digit module wires the colon to the second digit's point: either
    /// lights it, read here as the colon.
    public func lit(digits: Int) -> Frame {
        var bits = displayOn ? Array(displayRegisters[..<digits]) : [UInt8](repeating: 0, count: digits)
        var colon = false
        if digits == 4, bits[1] & SevenSegmentFont.dp != 0 {
            colon = true
            bits[1] &= ~SevenSegmentFont.dp
        }
        return Frame.segments(bits, colon: colon)
    }

    public func expected(_ frame: Frame) -> Frame {
        var bits = frame.bits
        var colon = false
        if frame.digits == 4, frame.colon || bits[1] & SevenSegmentFont.dp != 0 {
            colon = true
            bits[1] &= ~SevenSegmentFont.dp
        }
        return Frame.segments(bits, colon: colon)
    }
}

extension MockHT16K33: MockDisplayChip {
    /// Digits in rows 0, 1, 3 and 4, the colon in row 2 bit 1.
    public func lit(digits: Int) -> Frame {
        guard oscillatorOn, displayOn else { return Frame.blank(digits: 4) }
        return Frame.segments([0x00, 0x02, 0x06, 0x08].map { ram[$0] }, colon: ram[0x04] & 0x02 != 0)
    }
}

extension MockMAX7219: MockDisplayChip {
    public func lit(digits: Int) -> Frame {
        Frame.segments((0..<digits).reversed().map { digit in
            displayTest ? 0xFF : shutdown || digit > scanLimit ? 0 : Self.tockSegments(digitRegisters[digit])
        })
    }

    /// A MAX7219 module has no colon: a frame's colon is not lit.
    public func expected(_ frame: Frame) -> Frame { Frame.segments(frame.bits) }
}

/// The outputs a board opened, read by name (a list: no dictionary of
/// strings before ready, docs/benchmarks.md says why).
public struct MockOutputs: RandomAccessCollection {
    public private(set) var all: [MockOutput]

    public init(_ all: [MockOutput] = []) { self.all = all }

    /// The output opened last by that name.
    public subscript(name: String) -> MockOutput? { all.last { $0.name == name } }

    mutating func opened(_ o: MockOutput) {
        all.removeAll { $0.name == o.name }
        all.append(o)
    }

    public var startIndex: Int { all.startIndex }
    public var endIndex: Int { all.endIndex }
    public subscript(position: Int) -> MockOutput { all[position] }
}

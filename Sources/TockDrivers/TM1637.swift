import TockHardware
import TockCore

/// A TM1637 "LED drive control special circuit" on two GPIO lines (CLK,
/// DIO), as fitted to the common 4-digit clock modules.
///
/// TM1637 datasheet (Titan Micro, V2.4), "Interface interpretation": the
/// bus is not I2C (no slave address, bits LSB first). DIO may only change
/// while CLK is low; DIO falling while CLK is high is the start, DIO
/// rising while CLK is high the stop. The chip pulls DIO low from the
/// falling edge of the 8th clock to the end of the 9th clock as ACK.
///
/// A frame is written as the datasheet's "write SRAM data in address auto
/// increment mode": data command setting, then address command setting
/// with the display data, then display and control command setting. Only
/// the parts that differ from the last frame are sent: the data command
/// (which the chip keeps) only while its state is unknown, the span of
/// changed grids, the control byte when it changes. Each line's level is
/// shadowed too, so a line is never set to the level it already has: one
/// changed digit costs about 50 line operations (each an ioctl on the
/// kernel's GPIO character device).
public final class TM1637: SegmentDisplay {
    /// Data command setting: write data to display register, automatic
    /// address adding, normal mode.
    static let dataCommand: UInt8 = 0x40
    /// Address command setting: display register C0H (GRID1), plus offset.
    static let addressCommand: UInt8 = 0xC0
    /// Display and control command setting: B3 = display on, B2..B0 =
    /// pulse width 1/16, 2/16, 4/16, 10/16, 11/16, 12/16, 13/16, 14/16.
    static let displayControl: UInt8 = 0x80
    static let displayOn: UInt8 = 0x08

    /// Display registers C0H-C5H: six grids.
    static let gridCount = 6

    public let digits: Int
    /// Half of one CLK period. TM1637 datasheet: the clock should be below
    /// 250 kHz (a half period of at least 2 µs); 5 µs leaves room for slow
    /// edges through the modules' pull-ups and filter capacitors.
    public let halfPeriod: Duration

    /// Half of a half period: DIO changes in the middle of CLK's low phase.
    private let quarterPeriod: Duration
    private let pins: any TwoWirePins
    private let delay: any Delay
    private let clockLine: String
    private let dataLine: String

    /// Shadows of the write-only registers: the display registers of the
    /// used grids (byte `i` is GRID`i+1`) and the display control byte.
    /// nil = unknown (at start, and after a failed transfer left the chip
    /// in an unknown state).
    @exclusivity(unchecked) private var registers: UInt64?
    @exclusivity(unchecked) private var control: UInt8?
    /// The levels last driven on CLK and DIO (true = released): both start
    /// released (`TwoWirePins`); nil = unknown after a failed transfer, so
    /// the next set is made whatever it is.
    @exclusivity(unchecked) private var clockLevel: Bool? = true
    @exclusivity(unchecked) private var dataLevel: Bool? = true

    /// - Parameters:
    ///   - clockLine, dataLine: the line names, for error messages only.
    ///   - digits: grids in use, left to right from GRID1 (C0H).
    public init(
        pins: any TwoWirePins, delay: any Delay, clockLine: String, dataLine: String,
        digits: Int = 4, halfPeriod: Duration = .microseconds(5)
    ) {
        precondition((1...Self.gridCount).contains(digits), "a TM1637 drives 1 to 6 digits, not \(digits)")
        precondition(halfPeriod > .zero, "the TM1637 clock needs a positive half period")
        self.pins = pins
        self.delay = delay
        self.clockLine = clockLine
        self.dataLine = dataLine
        self.digits = digits
        self.halfPeriod = halfPeriod
        self.quarterPeriod = halfPeriod / 2
    }

    public func show(_ frame: Frame) throws {
        // A frame of another width (a configuration that changed under a
        // running box) is refused as an error, never a trap: the shell logs it.
        guard frame.digits == digits else {
            throw HardwareError(.unsupported, "a \(frame.digits)-digit frame cannot be shown on the \(digits)-digit TM1637 opened at start (display.digits changed: restart tock to apply it)")
        }
        guard (0...7).contains(frame.brightness) else {
            throw HardwareError(.unsupported, "frame brightness \(frame.brightness) is outside 0...7")
        }
        let wanted = Self.registerWord(for: frame)
        // A dark frame turns the display off and leaves the registers as
        // they are: one command instead of a rewrite.
        let lit = wanted != 0
        let wantedControl = lit ? Self.displayControl | Self.displayOn | UInt8(frame.brightness) : Self.displayControl
        do {
            if lit { try writeRegisters(wanted) }
            if control != wantedControl {
                try transfer(UInt64(wantedControl), count: 1)
                control = wantedControl
            }
        } catch {
            registers = nil
            control = nil
            clockLevel = nil
            dataLevel = nil
            throw error
        }
    }

    /// Segment bytes for GRID1... (bit 0 = SEG1 = a ... bit 7 = SEG8 = dp,
    /// the order of `SevenSegmentFont`). The 4-digit modules wire the
    /// colon to SEG8 of GRID2, so it shares the second digit's point.
    static func displayRegisters(for frame: Frame) -> [UInt8] {
        let word = registerWord(for: frame)
        return (0..<frame.digits).map { UInt8(truncatingIfNeeded: word >> (8 * UInt64($0))) }
    }

    /// `displayRegisters(for:)` packed, GRID1 in the low byte.
    private static func registerWord(for frame: Frame) -> UInt64 {
        var word: UInt64 = 0
        for i in 0..<frame.digits { word |= UInt64(frame.segments(at: i)) << (8 * UInt64(i)) }
        if frame.colon, frame.digits > 1 { word |= UInt64(SevenSegmentFont.dp) << 8 }
        return word
    }

    /// Writes the span of display registers that changed, from the first
    /// changed grid to the last.
    private func writeRegisters(_ wanted: UInt64) throws {
        var first = 0
        var last = digits - 1
        if let registers {
            let changed = wanted ^ registers
            guard changed != 0 else { return }
            first = changed.trailingZeroBitCount / 8
            last = (63 - changed.leadingZeroBitCount) / 8
        }
        // The chip keeps the data command; it is sent again only when the
        // chip's state is unknown (at start, after a failed transfer).
        if registers == nil { try transfer(UInt64(Self.dataCommand), count: 1) }
        // The address command, then the grids first...last (at most 1 + 6 bytes).
        let span = (wanted >> (8 * UInt64(first))) & (UInt64.max >> (8 * UInt64(7 - (last - first))))
        try transfer(UInt64(Self.addressCommand + UInt8(first)) | span << 8, count: 2 + last - first)
        registers = wanted
    }

    // MARK: - The two-wire protocol

    /// One start...stop sequence of `count` bytes, the first in the low
    /// byte of `bytes`. Every byte must be acknowledged; without an ACK the
    /// bus is still stopped, so it is idle for the next try.
    private func transfer(_ bytes: UInt64, count: Int) throws {
        try start()
        for i in 0..<count {
            let byte = bytes >> (8 * UInt64(i))
            for bit in 0..<8 { try clockOut(byte >> UInt64(bit) & 1 == 1) }
            guard try acknowledged() else {
                try stop()
                throw HardwareError(.noAcknowledge, "TM1637 on CLK \(clockLine) DIO \(dataLine) did not acknowledge: is the display wired and powered?")
            }
        }
        try stop()
    }

    /// From idle (both lines released high): DIO falls while CLK is high.
    private func start() throws {
        try setClock(true)
        try setData(true)
        delay.wait(halfPeriod)
        try setData(false)
        delay.wait(halfPeriod)
        try setClock(false)
    }

    /// One bit while CLK is low: DIO changes in the middle of the low
    /// phase (hold after the falling edge, setup before the rising one),
    /// and the chip samples it on the rising edge.
    private func clockOut(_ high: Bool) throws {
        delay.wait(quarterPeriod)
        try setData(high)
        delay.wait(quarterPeriod)
        try setClock(true)
        delay.wait(halfPeriod)
        try setClock(false)
    }

    /// The 9th clock: DIO released, the chip holds it low if it took the
    /// byte.
    private func acknowledged() throws -> Bool {
        delay.wait(quarterPeriod)
        try setData(true)
        delay.wait(quarterPeriod)
        try setClock(true)
        delay.wait(halfPeriod)
        let ack = try !pins.readData()
        try setClock(false)
        return ack
    }

    /// DIO rises while CLK is high; a half period of idle bus follows
    /// before the next start.
    private func stop() throws {
        delay.wait(quarterPeriod)
        try setData(false)
        delay.wait(quarterPeriod)
        try setClock(true)
        delay.wait(halfPeriod)
        try setData(true)
        delay.wait(halfPeriod)
    }

    // MARK: - Shadowed lines

    private func setClock(_ high: Bool) throws {
        guard clockLevel != high else { return }
        clockLevel = nil
        try pins.setClock(high)
        clockLevel = high
    }

    private func setData(_ high: Bool) throws {
        guard dataLevel != high else { return }
        dataLevel = nil
        try pins.setData(high)
        dataLevel = high
    }
}

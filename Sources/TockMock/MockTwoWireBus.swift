import TockHardware
import TockCore

/// A TM1637 at the end of two mock wires: it watches every CLK and DIO
/// change the driver makes, recognises start and stop, clocks bits in on
/// CLK rising edges, answers with the ACK, and decodes the commands into
/// the chip's state, so a test can assert what the display would show.
///
/// It is also the bus's `Delay`: a wait only advances `now`, and the
/// timing of each edge is checked against the datasheet.
///
/// Anything a TM1637 would not accept (DIO changing while CLK is high in
/// the middle of a byte, a clock outside a start...stop, a CLK phase
/// shorter than the datasheet allows, the driver holding DIO low during
/// the ACK clock, an unknown command) is recorded in `protocolErrors`.
public final class MockTwoWireBus: TwoWirePins, Delay {
    /// Whether a chip is on the wires. Without one nothing pulls DIO low
    /// for the ACK and nothing is decoded.
    public var present: Bool

    /// TM1637 datasheet: the clock should stay below 250 kHz, so each CLK
    /// phase lasts at least 2 µs.
    public var minimumClockPhase: Duration

    // MARK: Decoded chip state

    /// Display registers C0H-C5H (GRID1...GRID6).
    public private(set) var displayRegisters = [UInt8](repeating: 0, count: 6)
    /// Display control: on/off and the pulse-width setting 0...7. The chip
    /// powers up with the display off.
    public private(set) var displayOn = false
    public private(set) var brightness = 0
    /// The data command's address adding mode.
    public private(set) var autoIncrement = true

    // MARK: What went over the wire

    /// Bytes of every completed start...stop, in order.
    public private(set) var transactions: [[UInt8]] = []
    public private(set) var protocolErrors: [String] = []
    /// Virtual time: the sum of every wait.
    public private(set) var now: Duration = .zero
    /// Every set and read of a line, as the real backend makes one ioctl
    /// for each, and the sets that left a line at the level it had.
    public private(set) var lineOperations = 0
    public private(set) var redundantSets = 0

    // MARK: Wire state

    private var clock = true
    /// What the driver drives on DIO (true = released).
    private var driverData = true
    /// The chip pulling DIO low for the ACK.
    private var chipPullsData = false
    private var data: Bool { driverData && !chipPullsData }

    private var inTransaction = false
    /// Rising CLK edges of the current byte: 0...8 data bits, 9 = the ACK.
    private var bitCount = 0
    private var shiftRegister: UInt8 = 0
    private var bytes: [UInt8] = []
    private var address = 0
    private var lastClockEdge: Duration?
    private var lastDataChange: Duration = .zero

    public init(present: Bool = true, minimumClockPhase: Duration = .microseconds(2)) {
        self.present = present
        self.minimumClockPhase = minimumClockPhase
    }

    // MARK: Delay

    public func wait(_ d: Duration) {
        precondition(d >= .zero, "a negative wait: \(d)")
        now += d
    }

    // MARK: TwoWirePins

    public func setClock(_ high: Bool) throws {
        lineOperations += 1
        guard high != clock else { redundantSets += 1; return }
        if let last = lastClockEdge, now - last < minimumClockPhase {
            record("CLK \(clock ? "high" : "low") for \((now - last).nanoseconds) ns, shorter than \(minimumClockPhase.nanoseconds) ns")
        }
        lastClockEdge = now
        clock = high
        high ? clockRose() : clockFell()
    }

    public func setData(_ high: Bool) throws {
        lineOperations += 1
        guard high != driverData else { redundantSets += 1; return }
        let before = data
        driverData = high
        guard data != before else { return }
        lastDataChange = now
        guard clock else { return }
        high ? stopCondition() : startCondition()
    }

    public func readData() throws -> Bool {
        lineOperations += 1
        return data
    }

    // MARK: Rendering

    /// What the display shows, in `Frame`'s trace notation: the first
    /// `digits` grids; on a 4-digit module SEG8 of GRID2 is the colon.
    public func text(digits: Int = 4) -> String {
        precondition((1...6).contains(digits), "a TM1637 has 6 grids")
        guard displayOn else { return String(repeating: " ", count: digits) }
        var s = ""
        for i in 0..<digits {
            let bits = displayRegisters[i]
            s.append(SevenSegmentFont.glyph(for: bits))
            let point = bits & SevenSegmentFont.dp != 0
            if digits == 4, i == 1 {
                if point { s.append(":") }
            } else if point {
                s.append(".")
            }
        }
        return s
    }

    /// Forget the recorded traffic (not the chip state).
    public func clearLog() {
        transactions.removeAll()
        protocolErrors.removeAll()
        lineOperations = 0
        redundantSets = 0
    }

    // MARK: Protocol

    private func record(_ problem: String) {
        protocolErrors.append("at \(now.nanoseconds) ns: \(problem)")
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return "0x" + (byte < 0x10 ? "0" : "") + digits
    }

    // A start or stop comes while CLK is high, so its CLK rising edge has
    // already been counted as the first clock of a new byte: at a byte
    // boundary `bitCount` is 1 (or 0 right after a start).

    private func startCondition() {
        if inTransaction {
            record("DIO fell while CLK was high \(max(bitCount - 1, 0)) bits into a byte: a start inside a transaction")
        }
        inTransaction = true
        bitCount = 0
        shiftRegister = 0
        bytes = []
    }

    private func stopCondition() {
        guard inTransaction else {
            record("DIO rose while CLK was high outside a transaction: a stop without a start")
            return
        }
        if bitCount > 1 {
            // TM1637 datasheet: a stop in the middle of a byte makes that
            // byte invalid; the bytes before it remain effective.
            record("DIO rose while CLK was high \(bitCount - 1) bits into a byte")
        }
        transactions.append(bytes)
        inTransaction = false
        bitCount = 0
        shiftRegister = 0
    }

    private func clockRose() {
        guard inTransaction else {
            record("CLK pulse outside a start...stop")
            return
        }
        if now == lastDataChange { record("DIO changed at the same instant CLK rose (no setup time)") }
        if bitCount < 8 {
            // LSB first.
            if data { shiftRegister |= 1 << UInt8(bitCount) }
            bitCount += 1
            if bitCount == 8 {
                bytes.append(shiftRegister)
                if present { received(shiftRegister, index: bytes.count - 1) }
            }
        } else {
            if !driverData { record("the driver held DIO low during the ACK clock") }
            bitCount = 9
        }
    }

    private func clockFell() {
        guard inTransaction else { return }
        if bitCount == 8 {
            // ACK from the falling edge of the 8th clock...
            chipPullsData = present
        } else if bitCount == 9 {
            // ... to the end of the 9th.
            chipPullsData = false
            bitCount = 0
            shiftRegister = 0
        }
    }

    /// The chip acting on one complete byte: the first of a transaction is
    /// a command (B7 B6 say which), later ones display data.
    private func received(_ byte: UInt8, index: Int) {
        guard index == 0 else {
            guard bytes[0] & 0xC0 == 0xC0 else {
                record("data byte \(Self.hex(byte)) after command \(Self.hex(bytes[0])), which takes none")
                return
            }
            displayRegisters[address % 6] = byte
            if autoIncrement { address += 1 }
            return
        }
        switch byte & 0xC0 {
        case 0x40:
            // Data command: B1 B0 = 00 write, B2 = fixed address, B3 = test mode.
            if byte & 0x03 != 0 { record("data command \(Self.hex(byte)) reads key data; a display only writes") }
            if byte & 0x08 != 0 { record("data command \(Self.hex(byte)) sets test mode") }
            autoIncrement = byte & 0x04 == 0
        case 0x80:
            displayOn = byte & 0x08 != 0
            brightness = Int(byte & 0x07)
        case 0xC0:
            address = Int(byte & 0x0F)
            if address > 5 { record("address command \(Self.hex(byte)) is past C5H") }
        default:
            record("unknown command \(Self.hex(byte))")
        }
    }
}

import Testing
import TockHardware
import TockMock
@testable import TockDrivers
import TockCore

@Suite struct TM1637Tests {
    let bus = MockTwoWireBus()
    let display: TM1637

    init() {
        display = TM1637(pins: bus, delay: bus, clockLine: "GPIO23", dataLine: "GPIO24")
    }

    @Test(arguments: ["12:34", "00:00", "    ", "8.8:8.8.", "-1 2", "Err ", " 45d"])
    func theWireShowsTheFrame(text: String) throws {
        let frame = Frame(text: text, digits: 4)
        try display.show(frame)
        #expect(bus.text() == frame.text)
        #expect(bus.protocolErrors == [])
    }

    /// A frame of another width (the configuration changed under a
    /// running box) is an error that names the fix, never a trap, and
    /// nothing reaches the wire.
    @Test func aFrameOfAnotherWidthIsRefusedNotATrap() throws {
        #expect(throws: HardwareError.self) { try display.show(Frame(text: "12345678", digits: 8)) }
        #expect(bus.transactions.isEmpty)
        do { try display.show(Frame(text: "12345678", digits: 8)) } catch let e as HardwareError {
            #expect(e.kind == .unsupported && e.message.contains("restart tock"))
        }
        try display.show(Frame(text: "12:34", digits: 4))
        #expect(bus.text() == "12:34")
    }

    @Test func aFrameIsTheDatasheetsThreeCommands() throws {
        try display.show(Frame(text: "12:34", digits: 4, brightness: 7))
        #expect(bus.transactions == [
            [0x40],
            [0xC0, 0x06, 0x5B | 0x80, 0x4F, 0x66],
            [0x88 | 7],
        ])
        #expect(bus.displayOn && bus.brightness == 7 && bus.autoIncrement)
        #expect(bus.protocolErrors == [])
    }

    @Test func aFrameTakesTheBitTimesTheHalfPeriodSays() throws {
        try display.show(Frame(text: "12:34", digits: 4))
        // Per transaction of n bytes: start 2, 9 clocks of 2 per byte, stop
        // and idle 3 half periods. Three transactions of 1, 5 and 1 bytes.
        let halfPeriods = [1, 5, 1].reduce(0) { $0 + 2 + 18 * $1 + 3 }
        #expect(bus.now == .microseconds(5) * halfPeriods)
        // The mock checks each CLK phase against the datasheet's 250 kHz.
        #expect(bus.protocolErrors == [])
    }

    @Test func aClockFasterThanTheDatasheetAllowsIsFlagged() throws {
        let fast = TM1637(pins: bus, delay: bus, clockLine: "CLK", dataLine: "DIO", halfPeriod: .microseconds(1))
        try fast.show(Frame(text: "12:34", digits: 4))
        #expect(bus.text() == "12:34")
        #expect(bus.protocolErrors.contains { $0.hasSuffix("shorter than 2000 ns") })
    }

    @Test func aBlankFrameTurnsTheDisplayOffAndKeepsTheRegisters() throws {
        try display.show(Frame(text: "12:34", digits: 4))
        bus.clearLog()
        try display.show(.blank(digits: 4))
        #expect(bus.transactions == [[0x80]])
        #expect(bus.text() == "    ")
        #expect(!bus.displayOn)

        bus.clearLog()
        try display.show(Frame(text: "12:34", digits: 4))
        #expect(bus.transactions == [[0x8F]])
        #expect(bus.text() == "12:34")
    }

    @Test func aBrightnessChangeSendsOnlyTheDisplayControlCommand() throws {
        try display.show(Frame(text: "12:34", digits: 4, brightness: 7))
        for level in [0, 3, 7] {
            bus.clearLog()
            try display.show(Frame(text: "12:34", digits: 4, brightness: level))
            #expect(bus.transactions == [[0x88 | UInt8(level)]])
            #expect(bus.brightness == level)
        }
    }

    @Test func theSameFrameTwiceSendsNothingTheSecondTime() throws {
        try display.show(Frame(text: "12:34", digits: 4))
        bus.clearLog()
        let before = bus.now
        try display.show(Frame(text: "12:34", digits: 4))
        #expect(bus.transactions == [])
        #expect(bus.now == before)
    }

    @Test func onlyTheChangedDigitsAreWritten() throws {
        try display.show(Frame(text: "12:34", digits: 4))
        bus.clearLog()
        try display.show(Frame(text: "12:35", digits: 4))
        #expect(bus.transactions == [[0xC3, 0x6D]])
        #expect(bus.text() == "12:35")

        bus.clearLog()
        try display.show(Frame(text: "13:35", digits: 4))
        #expect(bus.transactions == [[0xC1, 0x4F | 0x80]])
        #expect(bus.text() == "13:35")
    }

    /// The chip keeps the data command, so it goes out once; each line is
    /// shadowed, so none is ever set to the level it has (the floor: every
    /// remaining operation changes a line or reads the ACK). A frame that
    /// changes one digit (two bytes: 32 CLK sets, the DIO changes, two ACK
    /// reads, start and stop) takes at most 60; one that changes two, once
    /// in ten seconds of a count, three bytes and 75-77 (no three-byte
    /// transfer takes fewer than 63; Benchmarks/tm1637.py computes each
    /// frame's floor); a minute of MM:SS frames averages under 60.
    @Test func aChangedDigitCostsAtMostSixtyLineOperationsAndNoneRedundant() throws {
        try display.show(Frame(text: "12:34", digits: 4))
        #expect(bus.redundantSets == 0)
        var oneDigit: [Int] = [], all: [Int] = []
        for second in 0..<60 {
            bus.clearLog()
            let text = "12:" + (second < 10 ? "0" : "") + String(second)
            try display.show(Frame(text: text, digits: 4))
            #expect(bus.text() == text)
            #expect(bus.redundantSets == 0, "\(text): \(bus.redundantSets) sets to the level a line had")
            #expect(bus.protocolErrors == [])
            all.append(bus.lineOperations)
            if second % 10 != 0 { oneDigit.append(bus.lineOperations) }
        }
        print("TM1637 line operations a frame: one digit changed \(oneDigit.min()!)-\(oneDigit.max()!), a minute's mean \(all.reduce(0, +) / all.count)")
        #expect(oneDigit.max()! <= 60)
        #expect(all.reduce(0, +) <= 60 * all.count)
    }

    @Test func aMissingDisplayIsNoAcknowledgeNamingTheLines() throws {
        bus.present = false
        let error = #expect(throws: HardwareError.self) {
            try display.show(Frame(text: "12:34", digits: 4))
        }
        #expect(error?.kind == .noAcknowledge)
        #expect(error?.message == "TM1637 on CLK GPIO23 DIO GPIO24 did not acknowledge: is the display wired and powered?")
        // The failed transfer still ends with a stop: the bus is idle.
        #expect(bus.transactions == [[0x40]])
        #expect(bus.protocolErrors == [])
    }

    @Test func afterAFailureTheNextFrameIsSentInFull() throws {
        try display.show(Frame(text: "12:34", digits: 4))
        bus.present = false
        #expect(throws: HardwareError.self) { try display.show(Frame(text: "12:35", digits: 4)) }
        bus.present = true
        bus.clearLog()
        try display.show(Frame(text: "12:34", digits: 4))
        #expect(bus.transactions == [[0x40], [0xC0, 0x06, 0xDB, 0x4F, 0x66], [0x8F]])
        #expect(bus.text() == "12:34")
    }

    @Test func sixDigitsUseAllGridsWithPoints() throws {
        let six = TM1637(pins: bus, delay: bus, clockLine: "CLK", dataLine: "DIO", digits: 6)
        let frame = Frame(text: "12.3456.", digits: 6)
        try six.show(frame)
        #expect(bus.text(digits: 6) == frame.text)
        #expect(bus.transactions[1].count == 7)
    }

    @Test func theColonAndTheSecondPointShareOneSegment() {
        let colon = TM1637.displayRegisters(for: Frame(text: "12:34", digits: 4))
        let point = TM1637.displayRegisters(for: Frame(text: "12.34", digits: 4))
        #expect(colon == point)
        #expect(colon[1] == 0x5B | 0x80)
    }
}

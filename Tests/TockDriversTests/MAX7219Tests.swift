import Testing
import TockHardware
import TockMock
@testable import TockDrivers
import TockCore

@Suite struct MAX7219Tests {
    let chip = MockMAX7219()
    let display: MAX7219

    init() {
        display = MAX7219(bus: chip)
    }

    @Test func aFrameOfAnotherWidthIsRefusedNotATrap() throws {
        #expect(throws: HardwareError.self) { try display.show(Frame(text: "12:34", digits: 4)) }
        try display.show(Frame(text: "12345678", digits: 8))
        #expect(chip.text() == "12345678")
    }

    @Test(arguments: ["12345678", "00.00.00", "        ", "8.8.8.8.8.8.8.8.", "12d 04.30", "  0.12.34", " 3r 01.30"])
    func theRegistersShowTheFrame(text: String) throws {
        let frame = Frame(text: text, digits: 8)
        try display.show(frame)
        #expect(chip.text() == frame.text)
        #expect(chip.protocolErrors == [])
    }

    @Test func theFirstFrameSetsUpEverythingBeforeNormalOperation() throws {
        try display.show(Frame(text: "12345678", digits: 8, brightness: 7))
        #expect(chip.writes.first == [0x0F, 0x00])
        #expect(chip.writes.last == [0x0C, 0x01])
        #expect(chip.writes.allSatisfy { $0.count == 2 })
        #expect(chip.writes.count == 3 + 8 + 2)
        #expect(chip.scanLimit == 7 && chip.decodeMode == 0 && chip.intensity == 15)
        #expect(!chip.shutdown && !chip.displayTest)
        #expect(chip.text() == "12345678")
    }

    @Test func digitZeroIsTheRightmostDigit() throws {
        try display.show(Frame(text: "1", digits: 8))
        // "1" is segments b and c: D5 and D4 in no-decode mode.
        #expect(chip.digitRegisters == [0x30, 0, 0, 0, 0, 0, 0, 0])
        #expect(chip.writes.contains([0x01, 0x30]))
    }

    @Test func noDecodeBitsAreDPThenAToG() {
        #expect(MAX7219.noDecodeSegments(0x01) == 0x40)  // a
        #expect(MAX7219.noDecodeSegments(0x02) == 0x20)  // b
        #expect(MAX7219.noDecodeSegments(0x40) == 0x01)  // g
        #expect(MAX7219.noDecodeSegments(0x80) == 0x80)  // dp
        for (_, bits) in SevenSegmentFont.glyphs {
            #expect(MockMAX7219.tockSegments(MAX7219.noDecodeSegments(bits | 0x80)) == bits | 0x80)
        }
    }

    @Test func aBlankFrameIsShutdownModeAndKeepsTheDigits() throws {
        try display.show(Frame(text: "12345678", digits: 8))
        chip.clearLog()
        try display.show(.blank(digits: 8))
        #expect(chip.writes == [[0x0C, 0x00]])
        #expect(chip.shutdown)
        #expect(chip.text() == "        ")

        chip.clearLog()
        try display.show(Frame(text: "12345678", digits: 8))
        #expect(chip.writes == [[0x0C, 0x01]])
        #expect(chip.text() == "12345678")
    }

    @Test func brightnessWritesOnlyTheIntensityRegister() throws {
        try display.show(Frame(text: "12345678", digits: 8, brightness: 7))
        chip.clearLog()
        try display.show(Frame(text: "12345678", digits: 8, brightness: 0))
        #expect(chip.writes == [[0x0A, 0x00]])
        chip.clearLog()
        try display.show(Frame(text: "12345678", digits: 8, brightness: 4))
        #expect(chip.writes == [[0x0A, 9]])
    }

    @Test func theSameFrameTwiceWritesNothingTheSecondTime() throws {
        try display.show(Frame(text: "12.34.56.78", digits: 8))
        chip.clearLog()
        try display.show(Frame(text: "12.34.56.78", digits: 8))
        #expect(chip.writes == [])
    }

    @Test func onlyChangedDigitsAreWritten() throws {
        try display.show(Frame(text: "12345678", digits: 8))
        chip.clearLog()
        try display.show(Frame(text: "12345.679", digits: 8))
        #expect(chip.writes == [[0x04, 0xDB], [0x01, 0x7B]])
        #expect(chip.text() == "12345.679")
    }

    @Test func aBusErrorSurfacesAndTheNextFrameIsSentInFull() throws {
        try display.show(Frame(text: "12345678", digits: 8))
        chip.failNext = HardwareError(.io, "write to /dev/spidev0.0 failed")
        #expect(throws: HardwareError(.io, "write to /dev/spidev0.0 failed")) {
            try display.show(Frame(text: "12345679", digits: 8))
        }
        chip.clearLog()
        try display.show(Frame(text: "12345679", digits: 8))
        #expect(chip.writes.count == 3 + 8 + 2)
        #expect(chip.text() == "12345679")
    }

    @Test func fewerDigitsSetTheScanLimit() throws {
        let four = MAX7219(bus: chip, digits: 4)
        try four.show(Frame(text: "12.34", digits: 4))
        #expect(chip.scanLimit == 3)
        #expect(chip.text(digits: 4) == "12.34")
        #expect(chip.text() == "    12.34")
    }
}

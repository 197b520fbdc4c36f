import Testing
import TockHardware
import TockMock
@testable import TockDrivers
import TockCore

@Suite struct HT16K33Tests {
    let chip = MockHT16K33()
    let display: HT16K33

    init() {
        display = HT16K33(bus: chip)
    }

    @Test(arguments: ["12:34", "00:00", "    ", "8.8.:8.8.", "-1 2", "Err ", " 45d"])
    func theRAMShowsTheFrame(text: String) throws {
        let frame = Frame(text: text, digits: 4)
        try display.show(frame)
        #expect(chip.text == frame.text)
        #expect(chip.protocolErrors == [])
    }

    @Test func theFirstFrameStartsTheOscillatorWritesRAMThenTurnsTheDisplayOn() throws {
        try display.show(Frame(text: "12:34", digits: 4, brightness: 7))
        #expect(chip.writes == [
            [0x21],
            [0x00, 0x06, 0, 0x5B, 0, 0x02, 0, 0x4F, 0, 0x66, 0, 0, 0, 0, 0, 0, 0],
            [0xEF],
            [0x81],
        ])
        #expect(chip.oscillatorOn && chip.displayOn && chip.blink == 0 && chip.dimming == 15)
        #expect(chip.text == "12:34")
    }

    @Test func aBlankFrameTurnsTheDisplayOff() throws {
        try display.show(Frame(text: "12:34", digits: 4))
        chip.clearLog()
        try display.show(.blank(digits: 4))
        #expect(chip.writes == [[0x80]])
        #expect(chip.text == "    ")

        chip.clearLog()
        try display.show(Frame(text: "12:34", digits: 4))
        #expect(chip.writes == [[0x81]])
        #expect(chip.text == "12:34")
    }

    @Test func brightnessMapsEndsOntoEndsAndWritesOnlyDimming() throws {
        try display.show(Frame(text: "12:34", digits: 4, brightness: 7))
        var levels: [Int] = []
        for brightness in 0...7 {
            chip.clearLog()
            try display.show(Frame(text: "12:34", digits: 4, brightness: brightness))
            levels.append(chip.dimming)
            #expect(chip.writes.allSatisfy { $0.count == 1 && $0[0] & 0xF0 == 0xE0 })
        }
        #expect(levels == [0, 2, 4, 6, 9, 11, 13, 15])
    }

    @Test func theSameFrameTwiceWritesNothingTheSecondTime() throws {
        try display.show(Frame(text: "12:34", digits: 4))
        chip.clearLog()
        try display.show(Frame(text: "12:34", digits: 4))
        #expect(chip.writes == [])
    }

    @Test func aChangeWritesTheSpanOfChangedBytes() throws {
        try display.show(Frame(text: "12:34", digits: 4))
        chip.clearLog()
        try display.show(Frame(text: "12:35", digits: 4))
        #expect(chip.writes == [[0x08, 0x6D]])

        chip.clearLog()
        try display.show(Frame(text: "1235", digits: 4))
        #expect(chip.writes == [[0x04, 0x00]])
        #expect(chip.text == "1235")
    }

    @Test func aBusErrorSurfacesAndTheNextFrameIsSentInFull() throws {
        try display.show(Frame(text: "12:34", digits: 4))
        let injected = HardwareError(.bus, "no device answered at 0x70 on /dev/i2c-1")
        chip.failNext = injected
        #expect(throws: injected) { try display.show(Frame(text: "12:35", digits: 4)) }
        #expect(chip.text == "12:34")

        chip.clearLog()
        try display.show(Frame(text: "12:35", digits: 4))
        #expect(chip.writes.count == 4)
        #expect(chip.writes.first == [0x21])
        #expect(chip.text == "12:35")
    }
}

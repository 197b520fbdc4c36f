import Testing
import TockConfig
import TockCore
import TockHardware
import TockMock
@testable import TockDevices

/// `tock splash`: the frame the display shows while the box boots, sent
/// over the display's own bus by the real drivers on a mock board.
@Suite struct BootFrameTests {
    private func config(_ yaml: String) throws -> Configuration { try Configuration.parse(yaml: yaml, file: "c.yaml") }

    static let displays = [
        "display: {kind: tm1637}\n",
        "display: {kind: ht16k33}\n",
        "display: {kind: max7219, digits: 8}\n",
    ]

    @Test(arguments: displays) func everyDisplayLightsBootFromItsRegisters(_ yaml: String) throws {
        let c = try config(yaml)
        let board = MockBoard(clock: { Instant(nanoseconds: 0) })
        guard case .shown = try BootFrame.show(c, on: board) else { Issue.record("not shown"); return }
        let chip = try #require(board.displayChip)
        let frame = BootFrame.frame(c)
        #expect(chip.lit(digits: frame.digits) == chip.expected(frame))
        #expect(chip.lit(digits: frame.digits) == chip.expected(Frame(text: "boot", digits: frame.digits)))
        #expect(chip.protocolErrors.isEmpty)
    }

    /// Only the display is opened: a line the splash claimed would be busy
    /// for tock a moment later, and a buzzer or LED must not move at boot.
    @Test func nothingButTheDisplayIsOpened() throws {
        let c = try config("""
            buzzer: {kind: active, pin: GPIO18}
            leds: {running: GPIO24, ringing: GPIO25}
            light: {sensor: bh1750}
            display: {kind: tm1637}
            """)
        let board = MockBoard(clock: { Instant(nanoseconds: 0) })
        #expect(try BootFrame.show(c, on: board) == .shown("tm1637 on GPIO5 and GPIO6"))
        #expect(board.inputLines == nil)
        #expect(board.outputs.isEmpty)
        #expect(board.pwmChannel == nil)
        #expect(board.lightChip == nil)
    }

    @Test func theNightsBrightnessWhenItIsDimmer() throws {
        #expect(BootFrame.frame(try config("display: {brightness: 6, night: {from: \"22:00\", to: \"07:00\", brightness: 2}}\n")).brightness == 2)
        #expect(BootFrame.frame(try config("display: {brightness: 1, night: {from: \"22:00\", to: \"07:00\", brightness: 5}}\n")).brightness == 1)
        #expect(BootFrame.frame(try config("display: {brightness: 4}\n")).brightness == 4)
        #expect(BootFrame.frame(try config("")).brightness == 7)
    }

    @Test func noDisplayOpensNothing() throws {
        let board = MockBoard(clock: { Instant(nanoseconds: 0) })
        #expect(try BootFrame.show(try config("display: {kind: none}\n"), on: board) == .noDisplay)
        #expect(board.displayChip == nil)
        #expect(try BootFrame.show(try config("display: {kind: none}\n"), chips: "/nonexistent") == .noDisplay)
    }

    /// A PC, or a board whose GPIO driver did not load: the error names
    /// the directory and what to do, and nothing was claimed.
    @Test func noGpioChipIsNamed() throws {
        #expect {
            try BootFrame.show(try config(""), chips: "/nonexistent-chips")
        } throws: { error in
            guard let e = error as? HardwareError else { return false }
            return e.kind == .notFound && e.message.contains("/nonexistent-chips")
        }
    }
}

/// The appliance on the mock backend (`tock run` on a PC) runs for days:
/// its parts keep only their latest records.
@Suite struct MockServiceHistoryTests {
    @Test func theMockServiceKeepsItsLatestRecordsAndTestsKeepAll() throws {
        let config = try Configuration.parse(yaml: "mode: stopwatch\n", file: "c.yaml")
        let service = Devices.mock(config, clock: { Instant(nanoseconds: 0) })
        // What the display and the buzzer did, no one reads: frames go to
        // the driver alone, and the chip on the mock bus lights them; the
        // buzzer keeps what it sounds now.
        #expect(!(service.display is MockDisplay))
        try service.display.show(Frame(text: "12:34", digits: 4))
        #expect(service.board?.displayChip?.lit(digits: 4).text == "12:34")
        let sounder = try #require(service.sounder as? MockSounder)
        try sounder.sound(Tone(hertz: 2000))
        #expect(sounder.sounding && sounder.history.isEmpty)
        try sounder.sound(nil)
        #expect(!sounder.sounding)
        #expect(service.board?.keeping == .service)
        let test = Devices.mockParts(config, clock: { Instant(nanoseconds: 0) })
        #expect(test.display.keeping == .all)
        #expect(test.board.keeping == .all)
    }
}

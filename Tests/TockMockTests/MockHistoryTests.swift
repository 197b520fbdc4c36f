import Testing
import TockCore
import TockHardware
@testable import TockMock

/// What a mock part keeps of its record: all of it for a test, the latest
/// entries for the appliance on the mock backend, which runs for days.
@Suite struct MockHistoryTests {
    @Test func allKeepsEveryEntryAndLatestKeepsTheNewestInOrder() {
        var all: [Int] = []
        var latest: [Int] = []
        for n in 0..<10_000 {
            all.record(n, keeping: .all)
            latest.record(n, keeping: .latest(100))
            #expect(latest.count >= min(n + 1, 100) && latest.count < 200)
        }
        #expect(all == Array(0..<10_000))
        #expect(latest.last == 9_999)
        #expect(latest == Array((10_000 - latest.count)..<10_000))
        var one: [Int] = []
        for n in 0..<5 { one.record(n, keeping: .latest(0)) }  // a bound under 1 keeps one
        #expect(one == [4])
    }

    /// A day of a stopwatch's frames, shortened: the display keeps its
    /// latest frames and still says what it shows; the LED and the buzzer
    /// keep theirs.
    @Test func theServicePartsStayBoundedAndCurrent() throws {
        var now = Instant(nanoseconds: 0)
        let board = MockBoard(clock: { now }, keeping: .latest(64))
        let display = MockDisplay(clock: { now })
        display.keeping = board.keeping
        let sounder = MockSounder(clock: { now })
        sounder.keeping = board.keeping
        let led = try board.output("leds.running", role: "LED", activeLow: false)
        for n in 0..<100_000 {
            now = Instant(nanoseconds: Int64(n) * 10_000_000)
            try display.show(Frame(text: String(n % 10_000), digits: 4))
            try led.set(n % 2 == 0)
            try sounder.sound(n % 2 == 0 ? Tone(hertz: 2_000) : nil)
        }
        #expect(display.frames.count < 128)
        #expect(display.current == Frame(text: "9999", digits: 4))
        #expect(display.frames.last?.at == now)
        #expect(board.outputs["running"]!.history.count < 128)
        #expect(board.outputs["running"]!.active == false)
        #expect(sounder.history.count < 128)
        #expect(!sounder.sounding)
    }

    @Test func theBoardsOutputsAreFoundByNameAndAReopenedOneReplacesTheOld() throws {
        let board = MockBoard(clock: { Instant(nanoseconds: 0) })
        let first = try board.output("leds.running", role: "LED", activeLow: false)
        _ = try board.output("buzzer.pin", role: "the buzzer", activeLow: true)
        let again = try board.output("leds.running", role: "LED", activeLow: true)
        #expect(board.outputs.map(\.name) == ["pin", "running"])
        #expect(board.outputs["running"] === again as? MockOutput && board.outputs["running"] !== first as? MockOutput)
        #expect(board.outputs["pin"]?.activeLow == true && board.outputs["nothing"] == nil)
    }
}

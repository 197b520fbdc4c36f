import Logging
import Testing
import TockCore
import TockLoop
import TockTestSupport

/// One kind of line at most once a minute, the latest of those held back
/// written with their count when the minute ends.
@Suite struct LimitedLogTests {
    let loop = VirtualLoop(epoch: WallTime(secondsSince1970: 1_800_000_000))
    let lines = LogLines()

    func limited() -> LimitedLog {
        LimitedLog(log: Logger(label: "test") { [lines] _ in LogCapture(lines: lines) }, loop: loop)
    }

    @Test func aFloodGivesOneLineAMinuteAndTheLatestWithItsCount() {
        let kind = limited()
        for i in 1...1_000 {
            kind(.info, "timers: T\(i) running")
            loop.advance(by: .milliseconds(20))  // 50 a second for 20 s
        }
        #expect(lines.messages == ["timers: T1 running"])
        loop.advance(by: .seconds(40))
        #expect(lines.messages.count == 2)
        #expect(lines.messages.last == "timers: T1000 running (the latest of 999 such lines held back in the last minute; at most one such line a minute)")
        // Quiet since: nothing more; the next line is written at once.
        loop.advance(by: .seconds(300))
        kind(.info, "timers: none")
        #expect(lines.messages.count == 3 && lines.messages.last == "timers: none")
        #expect(kind.written == 3 && kind.heldBack == 999)
    }

    @Test func aFloodThatGoesOnGivesOneLineAMinute() {
        let kind = limited()
        for _ in 0..<(10 * 60) {  // one a second for ten minutes
            kind(.warning, "mqtt: ignored a message")
            loop.advance(by: .seconds(1))
        }
        // At 0 s, then the summaries at 60 s, 120 s ... 600 s.
        #expect(lines.messages.count == 11, "\(lines.messages)")
    }

    @Test func justUnderTheLimitEveryLineIsWritten() {
        let kind = limited()
        for i in 0..<10 {
            kind(.info, "line \(i)")
            loop.advance(by: .seconds(60))
        }
        #expect(lines.messages == (0..<10).map { "line \($0)" })
    }

    @Test func whatIsHeldBackIsCountedAtClose() {
        let kind = limited()
        kind(.info, "a")
        kind(.info, "b")
        kind.close()
        #expect(lines.messages == ["a", "b (the latest of 1 such line held back in the last minute; at most one such line a minute)"])
        loop.advance(by: .seconds(120))
        #expect(lines.messages.count == 2)
    }

    @Test func whatALineQuotesIsEscaped() {
        let kind = limited()
        let name = "A\nB\u{1B}[31m"
        kind(.notice, "timer \(name) rang")
        #expect(lines.messages == [#"timer A\nB\e[31m rang"#])
    }
}

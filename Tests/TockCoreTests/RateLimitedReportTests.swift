import Testing
import TockCore

/// A line at most once a window, and what it held back counted.
@Suite struct RateLimitedReportTests {
    func at(_ s: Int64) -> Instant { Instant(nanoseconds: s * 1_000_000_000) }

    @Test func oneLineAWindowWithTheCountHeldBack() {
        var r = RateLimitedReport()
        #expect(r.due(at: at(0)) == "")
        #expect(r.due(at: at(10)) == nil)
        #expect(r.due(at: at(59)) == nil)
        #expect(r.summaryDue == at(60))
        #expect(r.due(at: at(61)) == " (and 2 more in the last minute)")
        #expect(r.summaryDue == nil)
    }

    @Test func aSummaryTakesTheWindowsLine() {
        var r = RateLimitedReport(window: .seconds(90))
        #expect(r.due(at: at(0)) == "")
        #expect(r.due(at: at(1)) == nil)
        #expect(r.takeHeldBack(at: at(90)) == 1)
        #expect(r.summaryDue == nil)
        #expect(r.due(at: at(100)) == nil)  // within the summary's window
        #expect(r.due(at: at(181)) == " (and 1 more in the last 90 s)")
    }
}

import Logging
import TockCore

/// One kind of log line that input from outside can cause (a command on
/// MQTT or the socket, a group message, a timer change, a reload): written
/// at most once a `window` (a minute), the rest held back. When the window
/// ends with lines held back, the last of them is written with how many
/// there were, so a flood that ends leaves its count and the latest state
/// in the log instead of nothing, and one that goes on gives one line a
/// minute. The lines are `LogLine`s: whatever they quote from outside is
/// escaped. `RateLimitedReport` does the counting; this adds the window's
/// timer on the loop and the logger.
public final class LimitedLog {
    private let log: Logger
    private let loop: any EventLoop
    private var report: RateLimitedReport
    private var summaryTimer: LoopTimer!
    /// The latest line held back, with its level.
    private var latest: (level: Logger.Level, line: LogLine)?
    /// How a summary is written (the default: the latest line held back
    /// and the count); ConfigReload words its own.
    private let summary: ((Int, LogLine) -> LogLine)?
    /// Lines written and held back since the start (for tests and status).
    public private(set) var written = 0
    public private(set) var heldBack = 0

    public init(log: Logger, loop: any EventLoop, window: Duration = .seconds(60),
                summary: ((_ held: Int, _ latest: LogLine) -> LogLine)? = nil) {
        self.log = log
        self.loop = loop
        self.summary = summary
        report = RateLimitedReport(window: window)
        summaryTimer = loop.makeTimer { [weak self] in self?.summarise() }
    }

    /// Write `line` now if no line of this kind was written in the window,
    /// else count it and keep it as the latest (the summary writes that one).
    public func callAsFunction(_ level: Logger.Level, _ line: @autoclosure () -> LogLine) {
        let now = loop.now().monotonic
        guard let more = report.due(at: now) else {
            heldBack += 1
            latest = (level, line())
            summaryTimer.schedule(at: report.summaryDue)
            return
        }
        // Lines held back whose summary had not fired yet (this line came at
        // the very instant the window ended): counted here instead.
        latest = nil
        write(level, more.isEmpty ? line() : line().appending(more + "; at most one such line a minute"))
    }

    /// Forget the window: the next line is written at once (a reload
    /// refused for a new reason is news, not a repeat).
    public func reset() {
        summariseNow()
        report = RateLimitedReport(window: report.window)
    }

    /// The service stops: what was held back is counted now rather than never.
    public func close() {
        summaryTimer.cancel()
        summariseNow()
    }

    private func summarise() { summariseNow() }

    private func summariseNow() {
        let held = report.takeHeldBack(at: loop.now().monotonic)
        guard held > 0, let (level, line) = latest else { return }
        latest = nil
        summaryTimer.cancel()
        if let summary {
            write(level, summary(held, line))
        } else {
            let window = RateLimitedReport.describe(report.window)
            write(level, line.appending(" (the latest of \(held) such line\(held == 1 ? "" : "s") held back in the last \(window); at most one such line a minute)"))
        }
    }

    private func write(_ level: Logger.Level, _ line: LogLine) {
        written += 1
        log.log(level: level, "\(line.description)")
    }
}

/// The kinds of one owner (the shell, a fleet group, the MQTT bridge, a
/// reload): each made here, so that closing the owner closes every kind it
/// made, none forgotten.
public final class LimitedLogs {
    private let log: Logger
    private let loop: any EventLoop
    private var kinds: [LimitedLog] = []

    public init(log: Logger, loop: any EventLoop) {
        self.log = log
        self.loop = loop
    }

    /// A new kind of line (`summary`: as `LimitedLog`'s).
    public func kind(summary: ((_ held: Int, _ latest: LogLine) -> LogLine)? = nil) -> LimitedLog {
        let k = LimitedLog(log: log, loop: loop, summary: summary)
        kinds.append(k)
        return k
    }

    /// The owner stops: every kind's held-back lines counted now.
    public func close() {
        for k in kinds { k.close() }
    }
}

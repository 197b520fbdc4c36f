/// A log line written at most once a window (a minute), saying how many
/// were held back; a flood outside the process (MQTT junk, a SIGHUP storm)
/// cannot flood the journal.
public struct RateLimitedReport: Sendable {
    public let window: Duration
    private var at: Instant?
    private var since = 0

    public init(window: Duration = .seconds(60)) { self.window = window }

    /// nil: stay quiet; else the line is due, with the count of the quiet
    /// ones (" (and 3 more in the last minute)", or "").
    public mutating func due(at t: Instant) -> String? {
        if let last = at, t < last + window {
            since += 1
            return nil
        }
        defer {
            at = t
            since = 0
        }
        return since > 0 ? " (and \(since) more in the last \(Self.describe(window)))" : ""
    }

    /// When the lines held back since the last one should be summed up
    /// (the end of its window), or nil when none are.
    public var summaryDue: Instant? { since > 0 ? at.map { $0 + window } : nil }

    /// The count held back, for a line of its own at `summaryDue` (a
    /// flood that ended, or one that goes on): that line is the window's.
    public mutating func takeHeldBack(at t: Instant) -> Int {
        defer {
            since = 0
            at = t
        }
        return since
    }

    /// "minute", or "90 s".
    public static func describe(_ d: Duration) -> String {
        d == .seconds(60) ? "minute" : "\(d.nanoseconds / 1_000_000_000) s"
    }
}

/// Debounces one input line from its edge timestamps.
///
/// A change of level counts once the raw level has held for `period` since
/// its last edge; a pulse shorter than that is noise. Mechanical contacts
/// chatter for 1-20 ms (SPEC), so however many edges one press makes, it
/// settles exactly once. The settled change is dated at the first edge of
/// the run (the moment the contact first moved), not at the moment it was
/// recognised, so counts start from when the person pressed.
public struct Debouncer: Equatable, Sendable {
    public let period: Duration
    /// The level everyone else sees.
    public private(set) var settled: Bool
    /// The level on the wire right now.
    public private(set) var raw: Bool
    private var lastEdge: Instant = .zero
    /// First edge of the run that moved `raw` away from `settled`.
    private var runStart: Instant? = nil
    /// When `raw` last returned to `settled` (a chatter gap, if short).
    private var returnedAt: Instant? = nil

    public init(period: Duration, level: Bool) {
        self.period = period
        self.settled = level
        self.raw = level
    }

    /// Record an edge. Edges that do not change the level (a duplicate
    /// report) are ignored.
    public mutating func edge(to level: Bool, at t: Instant) {
        guard level != raw else { return }
        raw = level
        lastEdge = t
        if raw == settled {
            returnedAt = t
        } else {
            // A departure soon after a brief return is the same press
            // chattering: keep dating it from the first edge.
            if let back = returnedAt, runStart != nil, t - back < period {
                // keep runStart
            } else {
                runStart = t
            }
            returnedAt = nil
        }
    }

    /// When the pending change settles, if one is pending.
    public var deadline: Instant? { raw != settled ? lastEdge + period : nil }

    /// Settle the pending change if its deadline has come. Returns the new
    /// level and the instant the change began.
    public mutating func settle(at now: Instant) -> (level: Bool, since: Instant)? {
        guard let d = deadline, now >= d else { return nil }
        settled = raw
        let since = runStart ?? lastEdge
        runStart = nil
        returnedAt = nil
        return (settled, since)
    }
}

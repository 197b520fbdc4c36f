/// What the display should show, before it becomes segments: the content,
/// whether the content moves with a clock, and whether the whole display
/// blinks.
public struct Presentation: Equatable, Sendable {
    public var content: DisplayContent
    /// The clock the content's value follows, or nil if it stands still.
    public var motion: Motion?
    public var blink: Blink?

    public init(_ content: DisplayContent, motion: Motion? = nil, blink: Blink? = nil) {
        self.content = content
        self.motion = motion
        self.blink = blink
    }

    public enum Motion: Equatable, Sendable {
        case monotonic
        case wall
    }
}

public enum DisplayContent: Equatable, Sendable {
    /// A count-down (the value is what is left; shown rounded up).
    case down(Duration)
    /// A count-up timer (elapsed; shown rounded down).
    case up(Duration)
    /// A stopwatch: like `up`, with hundredths while under a minute.
    case stopwatch(Duration)
    /// Time left to a calendar instant (rounded up; days when far off).
    case calendar(Duration)
    /// An interval program's phase: time left in it, which round, resting?
    case interval(Duration, round: Int, of: Int, resting: Bool)
    /// A lead-in: the time left before the count starts (rounded up).
    case leadIn(Duration)
    /// How long a count-down is over (counting up from its zero).
    case overrun(Duration)
    /// A program's round (and set), shown for a moment.
    case round(Int, set: Int?)
    /// Fixed text in display notation (see `Frame.init(text:digits:)`).
    case text(String)
    /// The local time of day (time since local midnight), or nil while the
    /// clock is not known to be right.
    case timeOfDay(Duration?, twelveHour: Bool, blinkColon: Bool)

    /// The same count `n` nanoseconds later: a count up gains them, a
    /// count down loses them; anything else stays as it is. `value` is
    /// set to the moved count's nanoseconds (from `base`, the count's
    /// before), nil when there is no count.
    func moved(by n: Int64, count value: inout Int64?, from base: Int64?) -> DisplayContent {
        guard let base else {
            value = nil
            return self
        }
        let v: Int64
        switch self {
        case .up, .stopwatch, .overrun: v = base + n
        case .down, .calendar, .interval, .leadIn: v = base - n
        case .round, .text, .timeOfDay:
            value = nil
            return self
        }
        value = v
        let d = Duration.nanoseconds(v)
        switch self {
        case .down: return .down(d)
        case .up: return .up(d)
        case .stopwatch: return .stopwatch(d)
        case .calendar: return .calendar(d)
        case .interval(_, let round, let of, let resting): return .interval(d, round: round, of: of, resting: resting)
        case .leadIn: return .leadIn(d)
        case .overrun: return .overrun(d)
        case .round, .text, .timeOfDay: return self
        }
    }

    /// The value and the direction it moves in, for counts.
    var count: (value: Duration, increasing: Bool)? {
        switch self {
        case .down(let v), .calendar(let v), .interval(let v, _, _, _), .leadIn(let v): return (v, false)
        case .up(let v), .stopwatch(let v), .overrun(let v): return (v, true)
        case .text, .timeOfDay, .round: return nil
        }
    }
}

/// A whole-display blink, phase-locked to an instant (entering paused,
/// starting to ring) so it is deterministic and starts visible.
public struct Blink: Equatable, Sendable {
    public var anchor: Instant
    public var on: Duration
    public var off: Duration

    public init(anchor: Instant, on: Duration, off: Duration) {
        self.anchor = anchor
        self.on = on
        self.off = off
    }

    private var period: Int64 { (on + off).nanoseconds }

    private func phase(at t: Instant) -> Int64 {
        let p = period
        return (((t - anchor).nanoseconds % p) + p) % p
    }

    public func isLit(at t: Instant) -> Bool { phase(at: t) < on.nanoseconds }

    public func nextToggle(after t: Instant) -> Instant {
        let ph = phase(at: t)
        let on = on.nanoseconds
        return t + .nanoseconds(ph < on ? on - ph : period - ph)
    }
}

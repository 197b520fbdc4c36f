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

    /// The value and the direction it moves in, for counts.
    /// The same count `d` later: a count up gains it, a count down loses
    /// it; anything else stays as it is.
    mutating func move(by d: Duration) {
        switch self {
        case .down(let v): self = .down(v - d)
        case .up(let v): self = .up(v + d)
        case .stopwatch(let v): self = .stopwatch(v + d)
        case .calendar(let v): self = .calendar(v - d)
        case .interval(let v, let round, let of, let resting): self = .interval(v - d, round: round, of: of, resting: resting)
        case .leadIn(let v): self = .leadIn(v - d)
        case .overrun(let v): self = .overrun(v + d)
        case .round, .text, .timeOfDay: break
        }
    }

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

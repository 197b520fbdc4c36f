/// Turns a presentation into a frame, and says when the frame will next
/// change. The one renderer for every display kind.
///
/// Auto-ranging formats (4 digits with a colon; 8 digits use points):
///
/// | content            | range            | 4 digits  | 8 digits     | changes every |
/// |--------------------|------------------|-----------|--------------|---------------|
/// | stopwatch          | under 1 min      | `SS:hh`   | `0.SS.hh`    | 10 ms |
/// | count (all)        | under 100 min    | `MM:SS`   | `MM.SS`      | 1 s   |
/// | count (all)        | 100 min-99 h 59  | `H:MM`, colon blinks 1 Hz while running | `H.MM.SS` | 0.5 s (4) / 1 s (8) |
/// | calendar           | a day or more    | `3d04` (days, hours), ` 45d` | `12d 04.30` | 1 h (4) / 1 min (8) |
/// | interval phase     | as count         | as count, rest lights the last point | `rr- MM.SS`, `r` when resting | as count |
/// | time of day        | 24-hour          | `HH:MM`, colon blinks 1 Hz (or steady) | `HH.MM.SS` | 0.5 s or 1 min (4) / 1 s (8) |
/// | time of day        | 12-hour          | `h:MM`, last point lit for PM | `h.MM.SS`, last point for PM | as 24-hour |
/// | time of day        | not synchronised | `--:--` | `--.--.--` | 1 min |
/// | lead-in            | up to 60 s       | `Pr10`, `Pr 3` | `rEAdy 10` | 1 s |
/// | overrun            | under 10 min     | `-M:SS`   | `-MM.SS`     | 1 s   |
/// | overrun            | 10-999 min       | `-MMM` (minutes) | `-H.MM.SS` | 1 min (4) / 1 s (8) |
///
/// Counts down round up (a count-down shows `00:01` until it reaches zero,
/// then `00:00` exactly at the end); counts up round down.
public struct Renderer: Sendable {
    public var digits: Int
    public var brightness: Int

    public init(digits: Int, brightness: Int) {
        precondition(digits == 4 || digits == 8, "displays have 4 or 8 digits")
        self.digits = digits
        self.brightness = brightness
    }

    static let oneDay: Duration = .seconds(86_400)
    static let hundredMinutes: Duration = .seconds(6_000)
    static let longest: Duration = .seconds(100 * 3600)

    // MARK: - Frame

    /// - Parameter count: the count's value in nanoseconds, when the caller
    ///   has it (a quiet tick moves it on as an integer): read from the
    ///   content's `Duration` otherwise.
    public func frame(for p: Presentation, at t: Instant, count: Int64? = nil) -> Frame {
        if let b = p.blink, !b.isLit(at: t) { return .blank(digits: digits, brightness: brightness) }
        // The common case, a count under 100 minutes, goes to segments
        // without text: the frame `countText` would give.
        // So does the stopwatch on four digits: `SS:hh` under a minute (a
        // hundred frames a second), then `MM:SS` as a count up.
        switch p.content {
        case .stopwatch(let v) where digits == 4:
            let n = count ?? v.nanoseconds
            if n >= 0, n < 60_000_000_000 {
                let cs = n / 10_000_000
                return .clock(cs / 100, cs % 100, digits: digits, brightness: brightness)
            }
            if n >= 60_000_000_000 {
                let s = Self.rounded(n, to: 1_000_000_000, up: true)
                if s < 6_000 { return .clock(s / 60, s % 60, digits: digits, brightness: brightness) }
            }
        case .down(let v), .up(let v):
            var up = false
            if case .up = p.content { up = true }
            let s = Self.rounded(count ?? v.nanoseconds, to: 1_000_000_000, up: up)
            if s < 6_000 { return .clock(s / 60, s % 60, digits: digits, brightness: brightness) }
        default:
            break
        }
        return Frame(text: text(for: p.content, moving: p.motion != nil), digits: digits, brightness: brightness)
    }

    /// The display text for a content (see `Frame.init(text:digits:)`).
    public func text(for content: DisplayContent, moving: Bool) -> String {
        switch content {
        case .text(let s):
            return s
        case .round(let round, let set):
            // `r 12`, `r  3`, with a set `2.r12`; eight digits: `roUnd 12`, `2. rnd 12`.
            let r = round < 10 ? " \(round % 100)" : "\(round % 100)"
            guard let set else { return digits == 4 ? "r " + r : "roUnd " + r }
            return digits == 4 ? "\(set % 10).r" + r : "\(set % 10). rnd " + r
        case .leadIn(let v):
            let s = String(seconds(v, up: false))
            let prefix = digits == 4 ? "Pr" : "rEAdy "
            return prefix + String(repeating: " ", count: max(0, 2 - s.count)) + s
        case .overrun(let v):
            return overrunText(v)
        case .timeOfDay(let t, let twelve, let blink):
            return timeOfDayText(t, twelveHour: twelve, blinkColon: blink)
        case .stopwatch(let v) where v < .seconds(60):
            let cs = v.nanoseconds / 10_000_000
            return digits == 4 ? "\(two(cs / 100)):\(two(cs % 100))" : "0.\(two(cs / 100)).\(two(cs % 100))"
        case .stopwatch(let v) where digits == 8:
            let cs = v.nanoseconds / 10_000_000
            let s = cs / 100
            guard v < Self.longest else { return "--.--.--" }
            return s >= 3600 ? "\(s / 3600).\(two(s / 60 % 60)).\(two(s % 60)).\(two(cs % 100))"
                             : "\(s / 60).\(two(s % 60)).\(two(cs % 100))"
        case .calendar(let v) where seconds(v, up: false) >= Self.oneDay.nanoseconds / 1_000_000_000:
            return daysText(v)
        case .interval(let v, let round, _, let resting):
            let clock = countText(v, increasing: false, moving: moving)
            guard digits == 8 else { return resting ? clock + "." : clock }
            // Four digits are left after the round: `MM.SS`, or `H.MM`
            // (hours and minutes) for a phase of 100 minutes or more.
            let s = seconds(v, up: false)
            let short = s < 6_000 ? clock : countText(v, increasing: false, moving: false, digits: 4).replacingColon(with: ".")
            return "\(round < 10 ? " " : "")\(round % 100)\(resting ? "r" : "-") " + short
        default:
            let (v, up) = content.count!
            return countText(v, increasing: up, moving: moving)
        }
    }

    private func countText(_ v: Duration, increasing: Bool, moving: Bool, digits: Int? = nil) -> String {
        let digits = digits ?? self.digits
        let s = seconds(v, up: increasing)
        guard s < Self.longest.nanoseconds / 1_000_000_000 else { return digits == 4 ? "--:--" : "--.--.--" }
        if s < 6_000 {
            return digits == 4 ? "\(two(s / 60)):\(two(s % 60))" : "\(two(s / 60)).\(two(s % 60))"
        }
        if digits == 8 { return "\(s / 3600).\(two(s / 60 % 60)).\(two(s % 60))" }
        let m = rounded(v, to: 60_000_000_000, up: increasing)
        let h = m / 60
        let colonLit = !moving || rounded(v, to: 500_000_000, up: increasing) % 2 == 0
        return "\(h < 10 ? " " : "")\(h)\(colonLit ? ":" : "")\(two(m % 60))"
    }

    /// A count over its end: a leading minus, counting up.
    private func overrunText(_ v: Duration) -> String {
        let s = seconds(v, up: true)
        if digits == 8 {
            return s < Self.longest.nanoseconds / 1_000_000_000 ? "-" + countText(v, increasing: true, moving: false) : "--.--.--"
        }
        if s < 600 { return "-\(s / 60):\(two(s % 60))" }
        let m = s / 60
        return m < 1000 ? "-" + String(repeating: " ", count: m < 100 ? 1 : 0) + "\(m)" : "----"
    }

    private func timeOfDayText(_ t: Duration?, twelveHour: Bool, blinkColon: Bool) -> String {
        guard let t else { return digits == 4 ? "--:--" : "--.--.--" }
        let ns = t.nanoseconds
        let s = ns / 1_000_000_000
        var h = s / 3600
        let pm = h >= 12
        if twelveHour { h = h % 12 == 0 ? 12 : h % 12 }
        let hour = twelveHour ? (h < 10 ? " \(h)" : "\(h)") : two(h)
        let pmPoint = twelveHour && pm ? "." : ""
        if digits == 8 { return "\(hour).\(two(s / 60 % 60)).\(two(s % 60))" + pmPoint }
        let colon = !blinkColon || ns % 1_000_000_000 < 500_000_000 ? ":" : ""
        return "\(hour)\(colon)\(two(s / 60 % 60))" + pmPoint
    }

    private func daysText(_ v: Duration) -> String {
        if digits == 8 {
            let m = rounded(v, to: 60_000_000_000, up: false)
            let d = min(m / 1440, 99)
            return "\(d < 10 ? " " : "")\(d)d \(two(m / 60 % 24)).\(two(m % 60))"
        }
        let h = rounded(v, to: 3_600_000_000_000, up: false)
        let d = h / 24
        if d < 10 { return "\(d)d\(two(h % 24))" }
        return "\(min(d, 999))d"
    }

    // MARK: - Next change

    /// How long until the frame for a moving count can next differ, not
    /// counting blinks (see `Blink.nextToggle`).
    public func timeToNextChange(of content: DisplayContent) -> Duration? {
        nanosecondsToNextChange(of: content).map(Duration.nanoseconds)
    }

    /// `timeToNextChange` in nanoseconds: a count's value is read once
    /// (a `Duration`'s nanoseconds are worked out at each read).
    public func nanosecondsToNextChange(of content: DisplayContent, count: Int64? = nil) -> Int64? {
        if case .timeOfDay(let t, _, let blink) = content {
            let q: Int64 = t == nil || (digits == 4 && !blink) ? 60_000_000_000 : digits == 8 ? 1_000_000_000 : 500_000_000
            return nanosecondsToNextBoundary(of: t?.nanoseconds ?? 0, quantum: q, increasing: true)
        }
        guard let (value, up) = content.count else { return nil }
        let v = count ?? value.nanoseconds
        let second: Int64 = 1_000_000_000
        let q: Int64
        if case .stopwatch = content, v < 60 * second || digits == 8 {
            q = 10_000_000
        } else if case .calendar = content, Self.rounded(v, to: second, up: false) >= 86_400 {
            q = digits == 4 ? 3_600 * second : 60 * second
            // The switch to the shorter format happens on the 1 s grid.
            let toSwitch = v - 86_399 * second
            return min(nanosecondsToNextBoundary(of: v, quantum: q, increasing: false), toSwitch)
        } else if case .overrun = content, digits == 4, Self.rounded(v, to: second, up: true) >= 600 {
            q = 60 * second
        } else if case .overrun = content {
            q = second
        } else if digits == 4, Self.rounded(v, to: second, up: up) >= 6_000 {
            q = 500_000_000  // the blinking colon
        } else {
            q = second
        }
        return nanosecondsToNextBoundary(of: v, quantum: q, increasing: up)
    }

    // MARK: - Arithmetic

    /// Whole seconds, rounded the way the count direction wants.
    private func seconds(_ v: Duration, up: Bool) -> Int64 { rounded(v, to: 1_000_000_000, up: up) }

    /// `v / unit` (`unit` in nanoseconds, a constant: a `Duration`'s are
    /// worked out at each call), rounded down when counting up and up when
    /// counting down.
    private func rounded(_ v: Duration, to u: Int64, up: Bool) -> Int64 { Self.rounded(v.nanoseconds, to: u, up: up) }

    private static func rounded(_ v: Int64, to u: Int64, up: Bool) -> Int64 {
        let n = max(v, 0)
        return up ? n / u : (n + u - 1) / u
    }

    private func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : "\(n)" }
}

extension String {
    /// `12:34` as `12.34`, for a 4-digit format shown on 8 digits.
    fileprivate func replacingColon(with point: Character) -> String { String(map { $0 == ":" ? point : $0 }) }
}

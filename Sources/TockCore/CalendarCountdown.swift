/// Countdown to a fixed calendar instant (`countdown` mode).
///
/// It runs from power-on: time to a fixed date does not pause, so Start and
/// Stop do not stop it. It follows the real-time clock, and a step of that
/// clock (NTP sync, manual change) is applied at once. It rings once at the
/// instant, then shows "over". A box switched on after the instant shows
/// "over" without ringing: the moment was missed, not reached.
///
/// The seed document's countdown typed the zone as "EST" for a June date
/// and its Unix time disagreed with its own comment; here the instant is
/// parsed once, with an explicit zone or offset, outside the core.
public struct CalendarCountdown: TimerProgram, Equatable {
    public enum State: Equatable, Sendable {
        case counting
        case ringing(since: Instant)
        case over
    }

    public internal(set) var state: State
    public let target: WallTime
    public let alarm: AlarmSettings
    /// The last instant the program was brought up to date while counting.
    private var observed: Instant

    public init(target: WallTime, alarm: AlarmSettings, at now: Now) {
        self.target = target
        self.alarm = alarm
        observed = now.monotonic
        state = now.wall < target ? .counting : .over
    }

    public var stateName: StateName {
        switch state {
        case .counting: .running
        case .ringing: .ringing
        case .over: .over
        }
    }

    public var ringingSince: Instant? {
        if case .ringing(let since) = state { return since }
        return nil
    }

    public func pressStyle(_ button: Button) -> PressStyle { .onPress }

    public mutating func handle(_ action: ButtonAction, at now: Now) -> [Buzzer.Signal] {
        if case .ringing = state {
            state = .over  // any button silences
            return []
        }
        return alarm.chirp ? [.no] : []
    }

    public mutating func switched(to position: SwitchPosition, at now: Now) -> [Buzzer.Signal] {
        if case .ringing = state { state = .over }
        return []
    }

    public func nextDeadline(at now: Now) -> Deadline? {
        switch state {
        case .counting: .wall(target)
        case .ringing(let since): .monotonic(since + alarm.ringFor)
        case .over: nil
        }
    }

    public mutating func advance(to now: Now) -> [(Buzzer.Signal, Instant)] {
        if case .counting = state {
            if now.wall >= target {
                // Ring from the instant the clock read the target (exact even
                // after a late wake-up); after a step of the clock past it,
                // from when the step was noticed: the moment was never
                // heard, so the whole ring time is owed.
                state = .ringing(since: min(max(now.monotonic(at: target), observed), now.monotonic))
            } else {
                observed = max(observed, now.monotonic)
            }
        }
        if case .ringing(let since) = state, since + alarm.ringFor <= now.monotonic {
            state = .over
        }
        return []
    }

    /// Equal in state and target; when it last looked at the clock is not state.
    public static func == (a: CalendarCountdown, b: CalendarCountdown) -> Bool {
        a.state == b.state && a.target == b.target
    }

    public func presentation(at now: Now) -> Presentation {
        switch state {
        case .counting: Presentation(.calendar(max(target - now.wall, .zero)), motion: .wall)
        case .ringing(let since): Presentation(.calendar(.zero), blink: Blinks.ringing(since))
        case .over: Presentation(.text("over"))
        }
    }
}

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
    /// Running toward the target from power-on, ringing, then done ("over").
    public internal(set) var lifecycle: Lifecycle<WallTime>
    public let target: WallTime
    public let alarm: AlarmSettings
    /// The last instant the program was brought up to date while counting.
    private var observed: Instant

    public init(target: WallTime, alarm: AlarmSettings, at now: Now) {
        self.target = target
        self.alarm = alarm
        observed = now.monotonic
        lifecycle = Lifecycle(now.wall < target ? .running(target) : .done, ringFor: alarm.ringFor)
    }

    /// Done is "over": the instant has passed.
    public var stateName: StateName { lifecycle.state == .done ? .over : lifecycle.stateName }

    public var ringingSince: Instant? { lifecycle.ringingSince }

    public func pressStyle(_ button: Button) -> PressStyle { .onPress }

    public mutating func handle(_ action: ButtonAction, at now: Now) -> [Buzzer.Signal] {
        if lifecycle.silence() { return [] }  // any button silences
        return alarm.chirp ? [.no] : []
    }

    public mutating func switched(to position: SwitchPosition, at now: Now) -> [Buzzer.Signal] {
        lifecycle.silence()
        return []
    }

    public func nextDeadline(at now: Now) -> Deadline? {
        if case .running = lifecycle.state { return .wall(target) }
        return lifecycle.silenceDue
    }

    public mutating func advance(to now: Now) -> [(Buzzer.Signal, Instant)] {
        if case .running = lifecycle.state {
            if now.wall >= target {
                // Ring from the instant the clock read the target (exact even
                // after a late wake-up); after a step of the clock past it,
                // from when the step was noticed: the moment was never
                // heard, so the whole ring time is owed.
                lifecycle.ring(from: min(max(now.monotonic(at: target), observed), now.monotonic))
            } else {
                observed = max(observed, now.monotonic)
            }
        }
        lifecycle.silenceIfDue(at: now.monotonic)
        return []
    }

    /// Equal in state and target; when it last looked at the clock is not state.
    public static func == (a: CalendarCountdown, b: CalendarCountdown) -> Bool {
        a.lifecycle == b.lifecycle && a.target == b.target
    }

    public func presentation(at now: Now) -> Presentation {
        switch lifecycle.state {
        case .ringing(let since): Presentation(.calendar(.zero), blink: Blinks.ringing(since))
        case .done: Presentation(.text("over"))
        default: Presentation(.calendar(max(target - now.wall, .zero)), motion: .wall)
        }
    }

    /// Time left (for the status).
    public func progress(at now: Now) -> Progress { Progress(remaining: max(target - now.wall, .zero)) }
}

/// Count-down and count-up timer, and stopwatch: the `timer` and
/// `stopwatch` modes, steered by the Up/Down switch.
///
/// - Down: counts down from the current preset and rings at zero.
/// - Up in `timer` mode: counts up from zero and rings at the preset.
/// - Up in `stopwatch` mode: counts up with no target; Stop freezes it.
///
/// The switch changes the direction at once only in ready (and done);
/// while a count is running or paused the new position waits for the next
/// reset. The seed tutorial's bug, where flipping the switch after a reset
/// left the count at the old start value so the timer thought it was
/// already finished, cannot happen: the shown start value is derived from
/// the direction, never stored.
public struct CountTimer: TimerProgram, Equatable {
    public enum State: Equatable, Sendable {
        case ready
        case running(Run)
        case paused(elapsed: Duration, at: Instant)
        case ringing(since: Instant)
        case done
        case editing(value: Duration, changedAt: Instant)
    }

    public internal(set) var state: State = .ready
    public internal(set) var presets: [Duration]
    public internal(set) var presetIndex = 0
    /// The direction the current count uses.
    public internal(set) var direction: SwitchPosition
    /// Where the switch physically is.
    public private(set) var switchPosition: SwitchPosition
    public let stopwatchMode: Bool
    public let alarm: AlarmSettings

    public init(settings: Settings, switchPosition: SwitchPosition) {
        precondition(!settings.presets.isEmpty, "at least one preset")
        presets = settings.presets
        direction = switchPosition
        self.switchPosition = switchPosition
        stopwatchMode = settings.mode == .stopwatch
        alarm = settings.alarm
    }

    public var preset: Duration { presets[presetIndex] }

    /// The value a count stops at, if it has one.
    public var target: Duration? { direction == .up && stopwatchMode ? nil : preset }
    /// Whether the preset matters in the current direction.
    private var usesPreset: Bool { target != nil }

    public var stateName: StateName {
        switch state {
        case .ready: .ready
        case .running: .running
        case .paused: .paused
        case .ringing: .ringing
        case .done: .done
        case .editing: .editing
        }
    }

    public var ringingSince: Instant? {
        if case .ringing(let since) = state { return since }
        return nil
    }

    public func pressStyle(_ button: Button) -> PressStyle {
        switch (state, button) {
        case (.ready, .reset) where usesPreset: .shortOrLong
        case (.editing, .start), (.editing, .stop): .repeating
        default: .onPress
        }
    }

    // MARK: - Buttons and switch

    public mutating func handle(_ action: ButtonAction, at now: Now) -> [Buzzer.Signal] {
        let t = now.monotonic
        switch (state, action) {
        case (.ready, .pressed(.start)):
            state = .running(Run(since: t))
        case (.ready, .pressed(.reset)) where usesPreset && presets.count > 1:
            presetIndex = (presetIndex + 1) % presets.count
        case (.ready, .longPressed(.reset)) where usesPreset:
            state = .editing(value: preset, changedAt: t)

        case (.running(let run), .pressed(.stop)):
            state = .paused(elapsed: run.elapsed(at: t), at: t)

        case (.paused(let elapsed, _), .pressed(.start)):
            state = .running(Run(since: t, before: elapsed))
        case (.paused, .pressed(.reset)):
            backToReady()

        case (.ringing, .pressed(.start)), (.ringing, .pressed(.stop)):
            state = .done
        case (.ringing, .pressed(.reset)), (.done, .pressed(.reset)):
            backToReady()

        case (.editing(let v, _), .pressed(.start)), (.editing(let v, _), .repeated(.start)):
            let next = min(v + Self.step(above: v), Settings.longestPreset)
            guard next != v else { return noChirp }
            state = .editing(value: next, changedAt: t)
        case (.editing(let v, _), .pressed(.stop)), (.editing(let v, _), .repeated(.stop)):
            let next = max(v - Self.step(below: v), min(v, Settings.shortestPreset))
            guard next != v else { return noChirp }
            state = .editing(value: next, changedAt: t)
        case (.editing(let v, _), .pressed(.reset)):
            presets[presetIndex] = v
            backToReady()

        default:
            return noChirp
        }
        return []
    }

    public mutating func switched(to position: SwitchPosition, at now: Now) -> [Buzzer.Signal] {
        switchPosition = position
        switch state {
        case .ready, .done: backToReady()
        case .ringing: state = .done
        case .running, .paused, .editing: break  // applies at the next reset
        }
        return []
    }

    public mutating func noteSwitch(_ position: SwitchPosition) { switchPosition = position }

    private mutating func backToReady() {
        state = .ready
        direction = switchPosition
    }

    private var noChirp: [Buzzer.Signal] { alarm.chirp ? [.no] : [] }

    /// Edit steps: 10 s below 10 minutes, 1 minute from there up (SPEC).
    static func step(above v: Duration) -> Duration { v < .seconds(600) ? .seconds(10) : .seconds(60) }
    static func step(below v: Duration) -> Duration { v <= .seconds(600) ? .seconds(10) : .seconds(60) }

    // MARK: - Time

    func end(of run: Run) -> Instant? { target.map { run.instant(whenElapsed: $0) } }

    /// Warning beeps at each of the last `warnLast` whole seconds of a
    /// count-down: the next one strictly after `t`.
    private func nextWarning(of run: Run, after t: Instant) -> Instant? {
        guard direction == .down, alarm.warnLast > 0, let end = end(of: run) else { return nil }
        let left = end - t
        guard left > .zero else { return nil }
        let whole = min(Int64(alarm.warnLast), (left.nanoseconds - 1) / 1_000_000_000)
        return whole >= 1 ? end - .seconds(whole) : nil
    }

    /// The latest warning instant at or before `t`, if one is due.
    private func latestWarning(of run: Run, atOrBefore t: Instant) -> Instant? {
        guard direction == .down, alarm.warnLast > 0, let end = end(of: run) else { return nil }
        let left = (end - t).nanoseconds
        guard left > 0 else { return nil }
        let k = (left + 999_999_999) / 1_000_000_000
        return k <= alarm.warnLast ? end - .seconds(k) : nil
    }

    public func nextDeadline(at now: Now) -> Deadline? {
        switch state {
        case .running(let run):
            let candidates = [end(of: run), nextWarning(of: run, after: now.monotonic)].compactMap { $0 }
            return candidates.min().map(Deadline.monotonic)
        case .ringing(let since):
            return .monotonic(since + alarm.ringFor)
        default:
            return nil
        }
    }

    public mutating func advance(to now: Now) -> [(Buzzer.Signal, Instant)] {
        var signals: [(Buzzer.Signal, Instant)] = []
        if case .running(let run) = state {
            // Only a warning still sounding matters: a one-shot replaces the last.
            if let w = latestWarning(of: run, atOrBefore: now.monotonic), now.monotonic - w < BuzzerPattern.warning.length {
                signals.append((.warning, w))
            }
            if let end = end(of: run), end <= now.monotonic { state = .ringing(since: end) }
        }
        if case .ringing(let since) = state, since + alarm.ringFor <= now.monotonic {
            state = .done
        }
        return signals
    }

    // MARK: - Display

    public func presentation(at now: Now) -> Presentation {
        let t = now.monotonic
        switch state {
        case .ready: return Presentation(content(elapsed: .zero))
        case .running(let run): return Presentation(content(elapsed: run.elapsed(at: t)), motion: .monotonic)
        case .paused(let e, let at): return Presentation(content(elapsed: e), blink: Blinks.paused(at))
        case .ringing(let since): return Presentation(content(elapsed: target ?? .zero), blink: Blinks.ringing(since))
        case .done: return Presentation(content(elapsed: target ?? .zero))
        case .editing(let v, let at): return Presentation(.down(v), blink: Blinks.editing(at))
        }
    }

    private func content(elapsed: Duration) -> DisplayContent {
        if direction == .down { return .down(max(preset - elapsed, .zero)) }
        guard let target else { return .stopwatch(elapsed) }
        return .up(min(elapsed, target))
    }
}

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
    /// The whole state at a glance: the count's life, or an edit of the
    /// preset (which happens in ready).
    public enum State: Equatable, Sendable {
        case ready
        case running(Run)
        case paused(elapsed: Duration, at: Instant)
        case ringing(since: Instant)
        case done
        case editing(value: Duration, changedAt: Instant)
    }

    /// A preset being edited (long press of Reset in ready).
    struct Edit: Equatable, Sendable {
        var value: Duration
        var changedAt: Instant
    }

    public internal(set) var lifecycle: Lifecycle<Run>
    var edit: Edit?
    public internal(set) var presets: [Duration]
    public internal(set) var presetIndex = 0
    /// The direction the current count uses.
    public internal(set) var direction: SwitchPosition
    /// Where the switch physically is.
    public private(set) var switchPosition: SwitchPosition
    /// The mode this count serves (the timer or the stopwatch).
    public let mode: Settings.Mode
    public var stopwatchMode: Bool { mode == .stopwatch }
    public let alarm: AlarmSettings
    /// Count how long a count-down is over once it rang (`timer.overrun`).
    public let overrun: Bool
    /// The instant a count-down reached zero, while its overrun counts.
    public internal(set) var overrunSince: Instant?
    /// The length of the count in progress once time was added to it or
    /// taken from it (`tock add`, Reset on the box while it runs); nil:
    /// the preset. Gone at the next reset, so the preset stays as it was.
    public internal(set) var length: Duration?

    public init(settings: Settings, switchPosition: SwitchPosition) {
        precondition(!settings.presets.isEmpty, "at least one preset")
        presets = settings.presets
        direction = switchPosition
        self.switchPosition = switchPosition
        mode = settings.mode
        alarm = settings.alarm
        overrun = settings.overrun
        lifecycle = Lifecycle(ringFor: settings.alarm.ringFor, leadIn: settings.leadIn)
    }

    /// An overrun counting keeps the panel (no idle clock over it).
    public var isIdle: Bool { overrunSince == nil && (stateName == .ready || stateName == .done) }

    public var state: State {
        if let edit { return .editing(value: edit.value, changedAt: edit.changedAt) }
        switch lifecycle.state {
        case .ready: return .ready
        case .running(let run): return .running(run)
        case .paused(let e, let at): return .paused(elapsed: e, at: at)
        case .ringing(let since): return .ringing(since: since)
        case .done: return .done
        }
    }

    public var preset: Duration { presets[presetIndex] }

    /// The value a count stops at, if it has one: the preset, or the
    /// length time added gave the count in progress.
    public var target: Duration? { direction == .up && stopwatchMode ? nil : length ?? preset }
    /// Whether the preset matters in the current direction.
    private var usesPreset: Bool { target != nil }

    public var stateName: StateName { edit == nil ? lifecycle.stateName : .editing }

    public var ringingSince: Instant? { lifecycle.ringingSince }

    public func pressStyle(_ button: Button) -> PressStyle {
        if edit != nil { return button == .reset ? .onPress : .repeating }
        return lifecycle.state == .ready && button == .reset && usesPreset ? .shortOrLong : .onPress
    }

    // MARK: - Buttons and switch

    public mutating func handle(_ action: ButtonAction, at now: Now) -> [Buzzer.Signal] {
        let t = now.monotonic
        if let edit { return pressWhileEditing(edit.value, action, at: t) }
        switch (lifecycle.state, action) {
        case (.ready, .pressed(.reset)) where usesPreset && presets.count > 1:
            presetIndex = (presetIndex + 1) % presets.count
        case (.ready, .longPressed(.reset)) where usesPreset:
            edit = Edit(value: preset, changedAt: t)
        default:
            guard lifecycle.press(action, at: t) else { return noChirp }
            if lifecycle.state == .ready {
                direction = switchPosition
                overrunSince = nil
                length = nil
            }
        }
        return []
    }

    /// A press while editing the preset: Start adds a step, Stop takes one
    /// off, Reset saves.
    private mutating func pressWhileEditing(_ v: Duration, _ action: ButtonAction, at t: Instant) -> [Buzzer.Signal] {
        switch action {
        case .pressed(.start), .repeated(.start):
            let next = min(v + Self.step(above: v), Settings.longestPreset)
            guard next != v else { return noChirp }
            edit = Edit(value: next, changedAt: t)
        case .pressed(.stop), .repeated(.stop):
            let next = max(v - Self.step(below: v), min(v, Settings.shortestPreset))
            guard next != v else { return noChirp }
            edit = Edit(value: next, changedAt: t)
        case .pressed(.reset):
            presets[presetIndex] = v
            backToReady()
        default:
            return noChirp
        }
        return []
    }

    public mutating func switched(to position: SwitchPosition, at now: Now) -> [Buzzer.Signal] {
        switchPosition = position
        guard edit == nil else { return [] }  // applies at the next reset
        switch lifecycle.state {
        case .ready, .done: backToReady()
        case .ringing: lifecycle.silence()
        case .running, .paused: break  // applies at the next reset
        }
        return []
    }

    public mutating func noteSwitch(_ position: SwitchPosition) { switchPosition = position }

    mutating func backToReady() {
        edit = nil
        overrunSince = nil
        length = nil
        lifecycle.state = .ready
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

    // (While editing, the count's life is in ready: nothing is due.)
    public func nextDeadline(at now: Now) -> Deadline? {
        if case .running(let run) = lifecycle.state {
            let first = Instant.earliest(end(of: run), nextWarning(of: run, after: now.monotonic))
            return Instant.earliest(first, lifecycle.nextLeadInEvent(of: run, after: now.monotonic)).map(Deadline.monotonic)
        }
        return lifecycle.silenceDue
    }

    public mutating func advance(to now: Now) -> [(Buzzer.Signal, Instant)] {
        var signals: [(Buzzer.Signal, Instant)] = []
        // Only a warning still sounding matters: a one-shot replaces the last.
        if case .running(let run) = lifecycle.state, let w = latestWarning(of: run, atOrBefore: now.monotonic),
           now.monotonic - w < BuzzerPattern.warning.length {
            signals.append((.warning, w))
        }
        if case .running(let run) = lifecycle.state, let s = lifecycle.leadInSignal(of: run, at: now.monotonic, start: true) {
            signals.append(s)
        }
        let target = target
        if overrun, direction == .down, case .running(let run) = lifecycle.state, let e = end(of: run), e <= now.monotonic {
            overrunSince = e
        }
        lifecycle.advance(to: now.monotonic) { run in target.map { run.instant(whenElapsed: $0) } }
        return signals
    }

    // MARK: - Display

    public func presentation(at now: Now) -> Presentation {
        if let edit { return Presentation(.down(edit.value), blink: Blinks.editing(edit.changedAt)) }
        if let since = overrunSince {
            let over = Presentation.Motion.monotonic
            return Presentation(.overrun(now.monotonic - since), motion: over, blink: lifecycle.ringingSince.map(Blinks.ringing))
        }
        // What the content needs, taken out first: a closure over the count
        // itself (`content(elapsed:)`) copied the whole count each wake-up.
        let down = direction == .down ? length ?? preset : nil, target = target
        return lifecycle.presentation(at: now.monotonic, final: target ?? .zero) { elapsed in
            Self.content(elapsed: elapsed, downFrom: down, target: target)
        }
    }

    /// Counting down from `downFrom`, else up to `target` (none: the stopwatch).
    private static func content(elapsed: Duration, downFrom: Duration?, target: Duration?) -> DisplayContent {
        if let downFrom { return .down(max(downFrom - elapsed, .zero)) }
        guard let target else { return .stopwatch(elapsed) }
        return .up(min(elapsed, target))
    }
}

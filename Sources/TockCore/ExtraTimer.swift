/// One named count-down beside the box's own count (docs/timers.md): it
/// counts down its duration from the instant it was added, can be paused,
/// resumed and cancelled, rings with its name and is done once silenced.
///
/// Its life is the one every count lives (`Lifecycle`, as the box's own
/// count): running, paused, ringing, silenced by a press or after
/// `ringFor` (done). What is its own is the queue for the display: a timer
/// that reaches zero while another ring is on the display (or the box's
/// own count or a daily alarm rings) waits, at its end, and its ring time
/// starts only once it is on the display (`ExtraTimers.advance`).
public struct ExtraTimer: Equatable, Sendable {
    /// The state as the status, the state file and MQTT tell it.
    public enum State: Equatable, Sendable {
        case running(ends: Instant)
        /// Paused with `left` to go; `at` anchors the blink.
        case paused(left: Duration, at: Instant)
        /// Reached zero at `ended`; `since` is when its ring came on the
        /// display (nil while it waits behind another ring).
        case ringing(ended: Instant, since: Instant?)
        /// Rang and was silenced: listed until cancelled or added again.
        case done
    }

    /// The name as given (`tock timer add EGG 6m`).
    public let name: String
    /// The name in display notation (`NamedProgram.label`).
    public let label: String
    /// The length of the count it makes (changed by adding time).
    public internal(set) var duration: Duration
    /// Its life: a run (never a lead-in), a pause, a ring, done.
    private(set) var life: Lifecycle<Run>
    /// When it reached zero, once it has: while its ring waits for the
    /// display (the life still running, at its end) and while it rings.
    private(set) var ended: Instant?

    init(name: String, label: String, duration: Duration, state: State, ringFor: Duration = AlarmSettings().ringFor) {
        (self.name, self.label, self.duration) = (name, label, duration)
        life = Lifecycle(ringFor: ringFor)
        self.state = state
    }

    /// The state, from its life (and set as one, for a restore).
    public internal(set) var state: State {
        get {
            switch life.state {
            case .running(let run): ended.map { .ringing(ended: $0, since: nil) } ?? .running(ends: end(of: run))
            case .paused(let e, let at): .paused(left: duration - e, at: at)
            case .ringing(let since): .ringing(ended: ended ?? since, since: since)
            case .ready, .done: .done
            }
        }
        set {
            switch newValue {
            case .running(let ends):
                life.state = .running(Run(since: ends - duration))
                ended = nil
            case .paused(let left, let at):
                life.state = .paused(elapsed: duration - left, at: at)
                ended = nil
            case .ringing(let e, nil):
                life.state = .running(Run(since: e - duration))
                ended = e
            case .ringing(let e, let since?):
                life.state = .ringing(since: since)
                ended = e
            case .done:
                life.state = .done
                ended = nil
            }
        }
    }

    /// The same timer to anyone outside: the name, the duration and the
    /// state as told (however its run was paused and resumed).
    public static func == (a: ExtraTimer, b: ExtraTimer) -> Bool {
        a.name == b.name && a.label == b.label && a.duration == b.duration && a.state == b.state
    }

    private func end(of run: Run) -> Instant { run.instant(whenElapsed: duration) }

    /// Running, paused or ringing: not done.
    public var isActive: Bool {
        if case .done = life.state { return false }
        return true
    }

    public var isRunning: Bool {
        if case .running = life.state { return ended == nil }
        return false
    }

    /// Reached zero: ringing, or waiting to.
    var isRinging: Bool { ended != nil && isActive }

    /// What is left at `t` (zero once it rang).
    public func left(at t: Instant) -> Duration {
        guard ended == nil else { return .zero }
        return switch life.state {
        case .running(let run): max(end(of: run) - t, .zero)
        case .paused(let e, _): duration - e
        case .ready, .ringing, .done: .zero
        }
    }

    /// When it reaches zero, while running.
    public var ends: Instant? {
        guard ended == nil, case .running(let run) = life.state else { return nil }
        return end(of: run)
    }

    // MARK: - The life of a count

    /// Stop: paused (`Lifecycle.press`), while it runs.
    mutating func pause(at t: Instant) -> Bool { isRunning && life.press(.pressed(.stop), at: t) }

    /// Start: running again from where it paused.
    mutating func resume(at t: Instant) -> Bool {
        guard case .paused = life.state else { return false }
        return life.press(.pressed(.start), at: t)
    }

    /// Reached zero by `t`: its ring waits for the display.
    mutating func reachEnd(by t: Instant) -> Bool {
        guard let e = ends, e <= t else { return false }
        ended = e
        return true
    }

    /// Its ring comes on the display at `t` (its ring time starts then).
    mutating func ringShown(at t: Instant) { life.ring(from: t) }

    /// Something else took the display: the ring waits again, and later
    /// rings whole.
    mutating func ringWaits() {
        guard let e = ended else { return }
        life.state = .running(Run(since: e - duration))
    }

    /// When the ring on the display silences itself.
    var silenceDue: Instant? { life.ringingSince.map { $0 + life.ringFor } }

    /// Auto-silence by `t` (`Lifecycle.silenceIfDue`): done.
    mutating func silenceIfDue(at t: Instant) -> Bool {
        life.silenceIfDue(at: t)
        return finishIfDone()
    }

    /// A press or a flip while it rings on the display: done.
    mutating func silence() {
        if !life.silence() { life.state = .done }
        _ = finishIfDone()
    }

    private mutating func finishIfDone() -> Bool {
        guard case .done = life.state else { return false }
        ended = nil
        return true
    }
}

extension ExtraTimer {
    /// The state by the core's name for it (status, MQTT, refusals).
    public var stateName: StateName {
        switch state {
        case .running: .running
        case .paused: .paused
        case .ringing: .ringing
        case .done: .done
        }
    }
}

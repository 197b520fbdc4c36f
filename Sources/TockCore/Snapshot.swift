/// What the appliance must remember to continue after a restart, a crash
/// or a power cut: the mode, the presets, and the running state with its
/// instants on the wall clock (the monotonic clock restarts at boot).
///
/// A snapshot changes only on a state transition, never with the passing
/// of time, so writing it on every change costs nothing while a count runs.
public struct Snapshot: Equatable, Sendable, Codable {
    public enum Phase: Equatable, Sendable, Codable {
        case ready
        /// Running since the wall instant `since`, with `before` elapsed
        /// (nanoseconds) from earlier runs.
        case running(since: Int64, before: Int64)
        case paused(elapsed: Int64)
        /// Ringing since the wall instant `since`.
        case ringing(since: Int64)
        case done
        case over
    }

    public var mode: String
    public var phase: Phase
    /// Preset durations in nanoseconds (edited values included).
    public var presets: [Int64]
    public var presetIndex: Int
    /// The direction the count uses (`up`/`down`).
    public var direction: String
    /// The mode the configuration file asked for when this was taken.
    public var fileMode: String?
    /// The daily alarms (absent in files written before they existed).
    public var alarms: AlarmsSnapshot?

    public init(mode: String, phase: Phase, presets: [Int64], presetIndex: Int, direction: String) {
        self.mode = mode
        self.phase = phase
        self.presets = presets
        self.presetIndex = presetIndex
        self.direction = direction
    }
}

extension Snapshot.Phase {
    /// A run, anchored to the wall clock so it means the same after a reboot.
    static func running(_ run: Run, at now: Now) -> Self {
        .running(since: now.wall(of: run.since), before: run.before.nanoseconds)
    }

    /// The run a `.running` phase stands for, on this boot's monotonic clock.
    func run(at now: Now) -> Run? {
        guard case .running(let since, let before) = self else { return nil }
        return Run(since: now.instant(ofWall: since), before: .nanoseconds(before))
    }
}

extension Now {
    /// The wall instant of a monotonic instant, seen from now.
    func wall(of t: Instant) -> Int64 { (wall - (monotonic - t)).nanoseconds }
    /// The monotonic instant of a wall instant, seen from now.
    func instant(ofWall w: Int64) -> Instant { monotonic(at: WallTime(nanoseconds: w)) }
}

extension CountTimer {
    public func snapshot(at now: Now) -> Snapshot {
        let phase: Snapshot.Phase
        switch state {
        case .ready, .editing: phase = .ready  // an unsaved edit is dropped
        case .running(let run): phase = .running(run, at: now)
        case .paused(let e, _): phase = .paused(elapsed: e.nanoseconds)
        case .ringing(let since): phase = .ringing(since: now.wall(of: since))
        case .done: phase = .done
        }
        return Snapshot(mode: stopwatchMode ? "stopwatch" : "timer", phase: phase, presets: presets.map(\.nanoseconds),
                        presetIndex: presetIndex, direction: direction.rawValue)
    }

    /// Continue from a snapshot as if the box had stayed on; a count whose
    /// end passed meanwhile rings at once (from its end, so auto-silence
    /// still counts from then; at least from now if it rang out unheard).
    public mutating func restore(_ s: Snapshot, at now: Now) {
        if !s.presets.isEmpty, s.presets.allSatisfy({ $0 > 0 }) {
            presets = s.presets.map { .nanoseconds($0) }
            presetIndex = min(max(s.presetIndex, 0), presets.count - 1)
        }
        direction = SwitchPosition(rawValue: s.direction) ?? direction
        switch s.phase {
        case .ready, .over: state = .ready
        case .running:
            let run = s.phase.run(at: now)!
            state = .running(run)
            if let end = end(of: run), end <= now.monotonic { state = .ringing(since: ringStart(end, now)) }
        case .paused(let e): state = .paused(elapsed: .nanoseconds(e), at: now.monotonic)
        case .ringing(let since): state = .ringing(since: ringStart(now.instant(ofWall: since), now))
        case .done: state = .done
        }
    }

    private func ringStart(_ t: Instant, _ now: Now) -> Instant { Snapshot.ringStart(t, now: now, ringFor: alarm.ringFor) }
}

extension Snapshot {
    /// An alarm due while the box was off rings at once on restart: from
    /// its own instant if that leaves at least half the ring time, else
    /// for half the ring time from now.
    static func ringStart(_ t: Instant, now: Now, ringFor: Duration) -> Instant {
        min(max(t, now.monotonic - ringFor / 2), now.monotonic)
    }
}

extension IntervalProgram {
    public func snapshot(at now: Now) -> Snapshot {
        let phase: Snapshot.Phase
        switch state {
        case .ready: phase = .ready
        case .running(let run): phase = .running(run, at: now)
        case .paused(let e, _): phase = .paused(elapsed: e.nanoseconds)
        case .ringing(let since): phase = .ringing(since: now.wall(of: since))
        case .done: phase = .done
        }
        return Snapshot(mode: "interval", phase: phase, presets: [], presetIndex: 0, direction: "down")
    }

    public mutating func restore(_ s: Snapshot, at now: Now) {
        switch s.phase {
        case .ready, .over: state = .ready
        case .running:
            let run = s.phase.run(at: now)!
            let end = run.instant(whenElapsed: total)
            state = end <= now.monotonic ? .ringing(since: Snapshot.ringStart(end, now: now, ringFor: alarm.ringFor)) : .running(run)
        case .paused(let e): state = .paused(elapsed: .nanoseconds(e), at: now.monotonic)
        case .ringing(let since): state = .ringing(since: Snapshot.ringStart(now.instant(ofWall: since), now: now, ringFor: alarm.ringFor))
        case .done: state = .done
        }
    }
}

extension CalendarCountdown {
    public func snapshot(at now: Now) -> Snapshot {
        let phase: Snapshot.Phase
        switch state {
        case .counting: phase = .running(since: target.nanoseconds, before: 0)
        case .ringing(let since): phase = .ringing(since: now.wall(of: since))
        case .over: phase = .over
        }
        return Snapshot(mode: "countdown", phase: phase, presets: [], presetIndex: 0, direction: "down")
    }

    /// Its state follows from the clock; only an alarm still ringing, or
    /// already over, is remembered (so it never rings twice).
    public mutating func restore(_ s: Snapshot, at now: Now) {
        guard case .running(let t, _) = s.phase, t == target.nanoseconds else {
            switch s.phase {
            case .over: state = .over
            case .ringing(let since): state = .ringing(since: Snapshot.ringStart(now.instant(ofWall: since), now: now, ringFor: alarm.ringFor))
            default: break
            }
            return
        }
        if now.wall >= target {
            // The instant passed while the box was off: ring now, once.
            state = .ringing(since: now.monotonic)
        }
    }
}

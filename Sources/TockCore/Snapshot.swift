/// What the appliance must remember to continue after a restart, a crash
/// or a power cut: the mode, the presets, and the running state with its
/// instants on the wall clock (the monotonic clock restarts at boot).
///
/// A snapshot changes only on a state transition, never with the passing
/// of time, so writing it on every change costs nothing while a count runs.
public struct Snapshot: Equatable, Sendable {
    public enum Phase: Equatable, Sendable {
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

    public var mode: Settings.Mode
    public var phase: Phase
    /// Preset durations in nanoseconds (edited values included).
    public var presets: [Int64]
    public var presetIndex: Int
    /// The direction the count uses.
    public var direction: SwitchPosition
    /// The mode the configuration file asked for when this was taken.
    public var fileMode: Settings.Mode?
    /// The daily alarms (absent in files written before they existed).
    public var alarms: AlarmsSnapshot?
    /// The configuration file's presets when this was taken (absent in
    /// older files): edits on the box are kept until the file's list
    /// changes, then the file wins.
    public var filePresets: [Int64]?
    /// The lead-in counted into a running or paused phase's elapsed time
    /// (nanoseconds; absent: none), so a count still in its lead-in is
    /// stored without a negative time.
    public var leadIn: Int64?
    /// The wall instant a count-down reached zero, while its overrun counts.
    public var overrunSince: Int64?
    /// A named interval program: which one (its place in the list), the
    /// rounds an AMRAP counted, a For Time's finish (nanoseconds).
    public var program: Int?
    public var roundsCounted: Int?
    public var finish: Int64?
    /// The brightness and night schedule in use, when set from outside
    /// (absent in older files: the configuration file's).
    public var dimming: DimmingSnapshot?
    /// Presets and alarms edited on the box over lists the file has since
    /// replaced (absent: none); they come back with their list.
    public var setAside: SetAsideEdits?
    /// The extra timers, in the order they were added (absent: none).
    public var timers: [TimerRecord]?
    /// The wall instants were written while the clock was not synchronised
    /// (their error is unknown: a later correction cannot apply to them).
    public var wallUnverified = false

    public init(mode: Settings.Mode, phase: Phase, presets: [Int64], presetIndex: Int, direction: SwitchPosition) {
        self.mode = mode
        self.phase = phase
        self.presets = presets
        self.presetIndex = presetIndex
        self.direction = direction
    }

    /// Every value checked, for a snapshot read from outside (the state
    /// file, a fleet group's message): it never holds an instant or a
    /// duration the core's arithmetic cannot take (see `TimeBounds`), more
    /// presets than a file may list, or an index outside its list. The
    /// edges that read those formats decode the mode and the direction
    /// (unknown names are theirs to refuse) and call this.
    public func check() throws(Invalid) {
        do { try phase.check() } catch { throw Invalid("phase", error.description) }
        guard presets.count <= Settings.maxPresets else { throw Invalid("presets", "more than \(Settings.maxPresets) presets") }
        for p in presets {
            guard (1...Settings.longestPreset.nanoseconds).contains(p) else { throw Invalid("presets", "a preset of \(p) ns is not 1 ns to 99h59m") }
        }
        guard presetIndex >= 0, presetIndex < max(presets.count, 1) else { throw Invalid("presetIndex", "preset \(presetIndex) of \(presets.count)") }
        if let l = leadIn, !(0...Settings.longestLeadIn.nanoseconds).contains(l) {
            throw Invalid("leadIn", "a lead-in of \(l) ns is not 0 to 60 s")
        }
        if let p = program, !(0..<Settings.maxPresets).contains(p) { throw Invalid("program", "program \(p) is not 0 to \(Settings.maxPresets - 1)") }
        if let r = roundsCounted, !(0...9_999).contains(r) { throw Invalid("roundsCounted", "\(r) rounds is not 0 to 9999") }
        if let f = finish { do { _ = try Duration.checked(nanoseconds: f) } catch { throw Invalid("finish", error.description) } }
        if let o = overrunSince {
            do { _ = try WallTime(checked: o) } catch { throw Invalid("overrunSince", error.description) }
        }
        if let f = filePresets {
            guard f.count <= Settings.maxPresets, f.allSatisfy({ (1...Settings.longestPreset.nanoseconds).contains($0) }) else {
                throw Invalid("filePresets", "not a list of at most \(Settings.maxPresets) presets")
            }
        }
        try alarms?.check()
        try dimming?.check()
        try setAside?.check()
        if let timers {
            guard timers.count <= ExtraTimers.limit else { throw Invalid("timers", "more than \(ExtraTimers.limit) timers") }
            for (i, x) in timers.enumerated() {
                do { try x.check() } catch { throw Invalid("timers[\(i)]", error.description) }
                if timers[..<i].contains(where: { $0.name == x.name }) { throw Invalid("timers[\(i)]", "a second timer named \(x.name)") }
            }
        }
    }

    /// A value a snapshot read from outside may not hold: which, and why.
    public struct Invalid: Error, Equatable, CustomStringConvertible {
        /// The field, by its name in the state file.
        public var field: String
        public var why: String

        public init(_ field: String, _ why: String) {
            (self.field, self.why) = (field, why)
        }

        public var description: String { "\(field): \(why)" }
    }

    /// A count in progress (running, paused or ringing) that a change of
    /// configuration must not cut short; a countdown to an instant is not
    /// one (it follows its date, whatever the file).
    public var holdsACount: Bool {
        guard mode != .countdown else { return false }
        switch phase {
        case .running, .paused, .ringing: return true
        case .ready, .done, .over: return false
        }
    }
}

extension Snapshot.Phase {
    /// Every instant and duration of a phase within `TimeBounds`.
    func check() throws(TimeBounds.Violation) {
        switch self {
        case .ready, .done, .over: break
        case .running(let since, let before):
            _ = try WallTime(checked: since)
            _ = try Duration.checked(nanoseconds: before)
        case .paused(let elapsed): _ = try Duration.checked(nanoseconds: elapsed)
        case .ringing(let since): _ = try WallTime(checked: since)
        }
    }
}

extension Snapshot.Phase {
    /// A run, anchored to the wall clock so it means the same after a reboot.
    static func running(_ run: Run, at now: Now) -> Self {
        .running(since: now.wall(of: run.since), before: run.before.nanoseconds)
    }

    /// The run a `.running` phase stands for, on this boot's monotonic clock.
    ///
    /// A run that started later than the wall clock now reads was saved by
    /// a clock that was ahead, or is read by one that is behind (a board
    /// without a real-time clock before NTP answers): the time since it
    /// started would be negative and the count would show more than its
    /// preset. It continues from what had elapsed when it was saved, as if
    /// no time passed while off (`Snapshot.isFromTheFuture` lets the shell
    /// say so in the log).
    func run(at now: Now) -> Run? {
        guard case .running(let since, let before) = self else { return nil }
        return Run(since: now.instant(ofWall: min(since, now.wall.nanoseconds)), before: .nanoseconds(before))
    }
}

extension Snapshot {
    /// Whether an instant in this snapshot lies after `wall`: the wall clock
    /// is behind the one that saved it, and a restore assumes no time
    /// passed while off (see `Phase.run(at:)`).
    public func isFromTheFuture(at wall: WallTime) -> Bool {
        let since: Int64?
        switch phase {
        case .running(let s, _) where mode != .countdown: since = s
        case .ringing(let s): since = s
        default: since = nil
        }
        // (An alarm's handled mark may lie ahead: skip-next sets it.)
        return [since, alarms?.ringing].contains { $0.map { $0 > wall.nanoseconds } ?? false }
    }
}

extension Now {
    /// The wall instant of a monotonic instant, seen from now.
    func wall(of t: Instant) -> Int64 { (wall - (monotonic - t)).nanoseconds }
    /// The monotonic instant of a wall instant, seen from now.
    func instant(ofWall w: Int64) -> Instant { monotonic(at: WallTime(nanoseconds: w)) }
}

extension Snapshot {
    /// An alarm due while the box was off rings at once on restart: from
    /// its own instant if that leaves at least half the ring time, else
    /// for half the ring time from now.
    static func ringStart(_ t: Instant, now: Now, ringFor: Duration) -> Instant {
        min(max(t, now.monotonic - ringFor / 2), now.monotonic)
    }
}

extension CountTimer {
    public func snapshot(at now: Now) -> Snapshot {
        // An unsaved edit is dropped: while editing, the count is in ready.
        var s = Snapshot(mode: stopwatchMode ? .stopwatch : .timer, phase: lifecycle.phase(at: now), presets: presets.map(\.nanoseconds),
                         presetIndex: presetIndex, direction: direction)
        s.leadIn = lifecycle.storedLeadIn > .zero ? lifecycle.storedLeadIn.nanoseconds : nil
        s.overrunSince = overrunSince.map(now.wall(of:))
        return s
    }

    /// Continue from a snapshot as if the box had stayed on (see
    /// `Lifecycle.restore`).
    public mutating func restore(_ s: Snapshot, at now: Now) {
        if !s.presets.isEmpty, s.presets.allSatisfy({ $0 > 0 }) {
            presets = s.presets.map { .nanoseconds($0) }
            presetIndex = min(max(s.presetIndex, 0), presets.count - 1)
        }
        // In ready the switch decides (it may have moved while another
        // mode ran); a count in progress keeps the direction it had.
        direction = s.phase == .ready ? switchPosition : s.direction
        edit = nil
        let target = target
        lifecycle.restore(s.phase, leadIn: .nanoseconds(s.leadIn ?? 0), at: now) { run in target.map { run.instant(whenElapsed: $0) } }
        overrunSince = nil
        switch lifecycle.state {
        case .ringing, .done:
            // Over since the wall instant it reached zero; a count that
            // ended while the box was off is over since its end.
            if let o = s.overrunSince {
                overrunSince = now.instant(ofWall: min(o, now.wall.nanoseconds))
            } else if overrun, direction == .down, let run = s.phase.run(at: now), let target {
                overrunSince = Run(since: run.since, before: run.before - .nanoseconds(s.leadIn ?? 0)).instant(whenElapsed: target)
            }
        default: break
        }
    }
}

extension IntervalProgram {
    public func snapshot(at now: Now) -> Snapshot {
        var s = Snapshot(mode: .interval, phase: lifecycle.phase(at: now), presets: [], presetIndex: 0, direction: .down)
        s.leadIn = lifecycle.storedLeadIn > .zero ? lifecycle.storedLeadIn.nanoseconds : nil
        if named {
            s.program = selected
            s.roundsCounted = roundsCounted > 0 ? roundsCounted : nil
            s.finish = finish?.nanoseconds
        }
        return s
    }

    public mutating func restore(_ s: Snapshot, at now: Now) {
        if named, let p = s.program, p < plans.count {
            selected = p
            roundsCounted = s.roundsCounted ?? 0
            finish = s.finish.map { .nanoseconds($0) }
        }
        let total = total
        lifecycle.restore(s.phase, leadIn: .nanoseconds(s.leadIn ?? 0), at: now) { $0.instant(whenElapsed: total) }
    }
}

extension CalendarCountdown {
    public func snapshot(at now: Now) -> Snapshot {
        let phase: Snapshot.Phase
        switch lifecycle.state {
        case .ringing(let since): phase = .ringing(since: now.wall(of: since))
        case .done: phase = .over
        default: phase = .running(since: target.nanoseconds, before: 0)
        }
        return Snapshot(mode: .countdown, phase: phase, presets: [], presetIndex: 0, direction: .down)
    }

    /// Its state follows from the clock; only an alarm still ringing, or
    /// already over, is remembered (so it never rings twice).
    public mutating func restore(_ s: Snapshot, at now: Now) {
        guard case .running(let t, _) = s.phase, t == target.nanoseconds else {
            switch s.phase {
            case .over: lifecycle.state = .done
            case .ringing(let since): lifecycle.restoreRing(since: since, at: now)
            default: break
            }
            return
        }
        if now.wall >= target {
            // The instant passed while the box was off: ring now, once.
            lifecycle.ring(from: now.monotonic)
        }
    }
}

extension Snapshot {
    /// The same program with every wall instant moved by `d`: a fleet
    /// group's change taken onto a clock that disagrees with its sender's.
    /// Each instant stays within `TimeBounds`, or the move is refused.
    public func moved(by d: Duration) throws(TimeBounds.Violation) -> Snapshot {
        guard d != .zero else { return self }
        func move(_ t: Int64) throws(TimeBounds.Violation) -> Int64 { try WallTime.moved(t, by: d) }
        var s = self
        switch phase {
        case .running(let since, let before): s.phase = .running(since: try move(since), before: before)
        case .ringing(let since): s.phase = .ringing(since: try move(since))
        case .ready, .paused, .done, .over: break
        }
        if let o = overrunSince { s.overrunSince = try move(o) }
        return s
    }
}

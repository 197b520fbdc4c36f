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

    /// What the box's own count is doing: its program's saved case and the
    /// box's preset list. This is what a fleet group shares.
    public var count: Count
    /// The mode the configuration file asked for when this was taken.
    public var fileMode: Settings.Mode?
    /// The daily alarms (absent in files written before they existed).
    public var alarms: AlarmsSnapshot?
    /// The configuration file's presets when this was taken (absent in
    /// older files): edits on the box are kept until the file's list
    /// changes, then the file wins.
    public var filePresets: [Int64]?
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

    public init(count: Count) {
        self.count = count
    }

    /// The mode of the program the box shows.
    public var mode: Settings.Mode { count.program.mode }

    /// The box's own count: the program's saved case (`Program.Saved`,
    /// one case per kind of program, each with only the fields it keeps)
    /// and the box's presets, which the timer and the stopwatch use and
    /// which are kept while another mode runs.
    public struct Count: Equatable, Sendable {
        public var program: Program.Saved
        /// Preset durations in nanoseconds (edited values included).
        public var presets: [Int64]
        public var presetIndex: Int

        public init(program: Program.Saved, presets: [Int64] = [], presetIndex: Int = 0) {
            self.program = program
            self.presets = presets
            self.presetIndex = presetIndex
        }

        public var mode: Settings.Mode { program.mode }
        public var phase: Snapshot.Phase { program.phase }
    }

    /// Every value checked, for a snapshot read from outside (the state
    /// file, a fleet group's message): it never holds an instant or a
    /// duration the core's arithmetic cannot take (see `TimeBounds`), more
    /// presets than a file may list, or an index outside its list. The
    /// edges that read those formats decode the mode and the direction
    /// (unknown names are theirs to refuse) and call this.
    public func check() throws(Invalid) {
        try count.check()
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

    /// A count in progress that a change of configuration must not cut
    /// short (`Program.Saved.holdsACount`).
    public var holdsACount: Bool { count.program.holdsACount }
}

extension Snapshot.Count {
    /// The presets and the program's own fields within their bounds.
    public func check() throws(Snapshot.Invalid) {
        guard presets.count <= Settings.maxPresets else { throw .init("presets", "more than \(Settings.maxPresets) presets") }
        for p in presets {
            guard (1...Settings.longestPreset.nanoseconds).contains(p) else { throw .init("presets", "a preset of \(p) ns is not 1 ns to 99h59m") }
        }
        guard presetIndex >= 0, presetIndex < max(presets.count, 1) else { throw .init("presetIndex", "preset \(presetIndex) of \(presets.count)") }
        try program.check()
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
        // (An alarm's handled mark may lie ahead: skip-next sets it.)
        [count.program.anchor, alarms?.ringing].contains { $0.map { $0 > wall.nanoseconds } ?? false }
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

extension Snapshot.Count {
    /// The same count with every wall instant moved by `d`: a fleet
    /// group's change taken onto a clock that disagrees with its sender's.
    /// Each instant stays within `TimeBounds`, or the move is refused.
    public func moved(by d: Duration) throws(TimeBounds.Violation) -> Snapshot.Count {
        guard d != .zero else { return self }
        var c = self
        c.program = try program.moved(by: d)
        return c
    }
}

extension Snapshot {
    /// A snapshot of `mode`'s program in `phase` with the box's presets,
    /// the program's other fields absent (`Program.Saved.init(mode:…)`).
    public init(mode: Settings.Mode, phase: Phase, presets: [Int64], presetIndex: Int, direction: SwitchPosition) {
        self.init(count: .init(program: .init(mode: mode, phase: phase, direction: direction), presets: presets, presetIndex: presetIndex))
    }
}

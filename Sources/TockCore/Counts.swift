/// The counts: the box's own (the program of its mode) and the named extra
/// timers beside it (docs/timers.md), with what a restart brought back and
/// what rang during the call in progress.
extension Machine {
    @usableFromInline struct Counts: Sendable {
        /// The box's own count, as its mode counts.
        @usableFromInline var program: Program
        /// Named count-downs beside the box's own count (`Machine+Timers`).
        @usableFromInline var timers = ExtraTimers()
        /// The timer's presets (nanoseconds) and current index while another
        /// mode runs, so that coming back to `timer` or `stopwatch` finds the
        /// preset it left (they go into this mode's snapshot too).
        var keptPresets: (presets: [Int64], index: Int)?
        /// Extra timers that reached zero during the call in progress;
        /// handed out and emptied before it returns.
        var rang: [String] = []
        /// A restore made while the wall clock was unverified, corrected once
        /// it is trusted (Machine+Provisional.swift).
        var provisional: ProvisionalRestore?

        /// The box's own count from `settings`, continued from `snapshot`
        /// when it belongs to the same mode (`restored`), and the extra
        /// timers the snapshot kept.
        init(settings: Settings, switchPosition: SwitchPosition, restoring snapshot: Snapshot?, at now: Now) {
            program = Program(settings: settings, switchPosition: switchPosition, at: now)
            if let snapshot, snapshot.mode == settings.mode {
                program.restore(snapshot.count, at: now)
            }
            if program.countTimer == nil, let snapshot, !snapshot.count.presets.isEmpty {
                keptPresets = (snapshot.count.presets, snapshot.count.presetIndex)
            }
            if let saved = snapshot?.timers { timers = ExtraTimers(restoring: saved, ringFor: settings.alarm.ringFor, at: now) }
        }

        /// The counts as a snapshot keeps them (the rest of the box's state
        /// is added by `Machine.snapshot`).
        func snapshot(at now: Now) -> Snapshot {
            var s = Snapshot(count: program.saved(at: now))
            if s.count.presets.isEmpty, let kept = keptPresets { (s.count.presets, s.count.presetIndex) = kept }
            s.timers = timers.isEmpty ? nil : timers.records(at: now)
            return s
        }

        /// Extra timers' ends and rings up to `t`; the first queued ring
        /// comes on once nothing else rings on the display (`free`). Whether
        /// any extra timer is still in progress.
        mutating func settleTimers(at t: Instant, free: Bool) -> Bool {
            for name in timers.advance(to: t, shown: free) { rang.append(name) }
            return timers.anyActive
        }

        /// When an extra timer next changes by itself.
        var timersDeadline: Instant? { timers.isEmpty ? nil : timers.deadline() }

        /// The names that rang since the last call, handed out once.
        mutating func takeRang() -> [String] {
            var taken: [String] = []
            swap(&taken, &rang)
            return taken
        }
    }
}

/// What each program keeps across a restart, a mode change and a fleet
/// group's change: one case per `Program` case, each holding only the
/// fields its program has. A program writes its case (`saved(at:)`) and
/// continues from it (`restore`); a case of another program is never
/// applied to it.
extension Program {
    public enum Saved: Equatable, Sendable {
        case count(CountTimer.Saved)
        case calendar(CalendarCountdown.Saved)
        case interval(IntervalProgram.Saved)

        /// The mode this case belongs to.
        public var mode: Settings.Mode {
            switch self {
            case .count(let s): s.mode
            case .calendar: .countdown
            case .interval: .interval
            }
        }

        public var phase: Snapshot.Phase {
            switch self {
            case .count(let s): s.phase
            case .calendar(let s): s.phase
            case .interval(let s): s.phase
            }
        }

        /// The saved case of `mode`'s program from the fields of the flat
        /// shape (state files up to version 3, group messages of format 1),
        /// each program taking the fields it has.
        public init(mode: Settings.Mode, phase: Snapshot.Phase, direction: SwitchPosition = .down, leadIn: Int64? = nil,
                    overrunSince: Int64? = nil, length: Int64? = nil, program: Int? = nil, rounds: Int? = nil, finish: Int64? = nil) {
            switch Program.Kind(mode) {
            case .count: self = .count(.init(mode: mode, phase: phase, direction: direction, leadIn: leadIn, overrunSince: overrunSince, length: length))
            case .calendar: self = .calendar(.init(phase: phase))
            case .interval: self = .interval(.init(phase: phase, leadIn: leadIn, program: program, roundsCounted: rounds, finish: finish))
            }
        }

        /// The fields of the flat shapes (the state file's versions 1 to 3,
        /// a group message of format 1), each program giving those it has,
        /// the others as those shapes wrote them for it (down, absent).
        public var flat: Flat {
            switch self {
            case .count(let s): Flat(direction: s.direction, leadIn: s.leadIn, overrunSince: s.overrunSince)
            case .calendar: Flat()
            case .interval(let s): Flat(leadIn: s.leadIn, program: s.program, rounds: s.roundsCounted, finish: s.finish)
            }
        }

        public struct Flat: Equatable, Sendable {
            public var direction: SwitchPosition = .down
            public var leadIn: Int64?
            public var overrunSince: Int64?
            public var program: Int?
            public var rounds: Int?
            public var finish: Int64?
        }

        /// A count in progress that a change of configuration must not
        /// cut short (`Program.holdsACount`; a saved count is never being
        /// edited: an unsaved edit is dropped).
        public var holdsACount: Bool { Program.holdsACount(mode, phase.stateName) }

        /// The latest wall instant the count itself started at (a run's
        /// start, a ring's), for `Snapshot.isFromTheFuture`; a countdown's
        /// run is toward its date, not from it.
        var anchor: Int64? {
            switch (self, phase) {
            case (.calendar, .running): nil
            case (_, .running(let since, _)), (_, .ringing(let since)): since
            default: nil
            }
        }

        /// Whether the count holds an instant on the wall clock that a
        /// clock's later correction applies to (a run, a ring, an
        /// overrun; a countdown to a date follows the clock by itself).
        var isAnchoredToTheWall: Bool {
            switch self {
            case .calendar: return false
            case .count(let s) where s.overrunSince != nil: return true
            case .count, .interval:
                switch phase {
                case .running, .ringing: return true
                case .ready, .paused, .done, .over: return false
                }
            }
        }

        /// Every value within its bounds (`Snapshot.check`).
        func check() throws(Snapshot.Invalid) {
            do { try phase.check() } catch { throw .init("phase", error.description) }
            let leadIn: Int64?
            switch self {
            case .count(let s):
                leadIn = s.leadIn
                if let o = s.overrunSince {
                    do { _ = try WallTime(checked: o) } catch { throw .init("overrunSince", error.description) }
                }
                if let l = s.length, !(1_000_000_000...TimeBounds.longest.nanoseconds).contains(l) {
                    throw .init("length", "a count of \(l) ns is not 1 s to 100 days")
                }
            case .calendar: leadIn = nil
            case .interval(let s):
                leadIn = s.leadIn
                if let p = s.program, !(0..<Settings.maxPresets).contains(p) { throw .init("program", "program \(p) is not 0 to \(Settings.maxPresets - 1)") }
                if let r = s.roundsCounted, !(0...9_999).contains(r) { throw .init("roundsCounted", "\(r) rounds is not 0 to 9999") }
                if let f = s.finish { do { _ = try Duration.checked(nanoseconds: f) } catch { throw .init("finish", error.description) } }
            }
            if let l = leadIn, !(0...Settings.longestLeadIn.nanoseconds).contains(l) {
                throw .init("leadIn", "a lead-in of \(l) ns is not 0 to 60 s")
            }
        }

        /// Every wall instant moved by `d`, within `TimeBounds`.
        func moved(by d: Duration) throws(TimeBounds.Violation) -> Self {
            switch self {
            case .count(var s):
                s.phase = try s.phase.moved(by: d)
                if let o = s.overrunSince { s.overrunSince = try WallTime.moved(o, by: d) }
                return .count(s)
            case .calendar(var s):
                s.phase = try s.phase.moved(by: d)
                return .calendar(s)
            case .interval(var s):
                s.phase = try s.phase.moved(by: d)
                return .interval(s)
            }
        }
    }

    /// The one rule for a count in progress that a change of configuration
    /// must not cut short, live or saved: running, paused, ringing or
    /// being edited; a countdown to an instant never is (it follows its
    /// date, whatever the file).
    public static func holdsACount(_ mode: Settings.Mode, _ state: StateName) -> Bool {
        mode != .countdown && [.running, .paused, .ringing, .editing].contains(state)
    }

    /// The program's saved case, with the timer's presets.
    public func saved(at now: Now) -> Snapshot.Count {
        switch self {
        case .count(let p): .init(program: .count(p.saved(at: now)), presets: p.presets.map(\.nanoseconds), presetIndex: p.presetIndex)
        case .calendar(let p): .init(program: .calendar(p.saved(at: now)))
        case .interval(let p): .init(program: .interval(p.saved(at: now)))
        }
    }

    /// Continue from a saved count of this same program; a case of another
    /// program leaves it as it is.
    public mutating func restore(_ c: Snapshot.Count, at now: Now) {
        switch (self, c.program) {
        case (.count(var p), .count(let s)):
            p.restore(s, presets: c.presets, index: c.presetIndex, at: now)
            self = .count(p)
        case (.calendar(var p), .calendar(let s)):
            p.restore(s, at: now)
            self = .calendar(p)
        case (.interval(var p), .interval(let s)):
            p.restore(s, at: now)
            self = .interval(p)
        case (.count, _), (.calendar, _), (.interval, _): break
        }
    }
}

extension Snapshot.Phase {
    /// The state a program in this phase is in.
    var stateName: StateName {
        switch self {
        case .ready: .ready
        case .running: .running
        case .paused: .paused
        case .ringing: .ringing
        case .done: .done
        case .over: .over
        }
    }

    func moved(by d: Duration) throws(TimeBounds.Violation) -> Self {
        switch self {
        case .running(let since, let before): .running(since: try WallTime.moved(since, by: d), before: before)
        case .ringing(let since): .ringing(since: try WallTime.moved(since, by: d))
        case .ready, .paused, .done, .over: self
        }
    }
}

extension CountTimer {
    /// What the timer or the stopwatch keeps (its presets are the box's,
    /// in `Snapshot.Count`).
    public struct Saved: Equatable, Sendable {
        /// `timer` or `stopwatch`.
        public var mode: Settings.Mode
        public var phase: Snapshot.Phase
        /// The direction the count uses.
        public var direction: SwitchPosition
        /// The lead-in counted into a running or paused phase's elapsed
        /// time (nanoseconds; absent: none), so a count still in its
        /// lead-in is stored without a negative time.
        public var leadIn: Int64?
        /// The wall instant a count-down reached zero, while its overrun counts.
        public var overrunSince: Int64?
        /// The count's length (nanoseconds) once time was added to it or
        /// taken from it (absent: the preset), so the new end is what a
        /// power cut keeps.
        public var length: Int64?

        public init(mode: Settings.Mode, phase: Snapshot.Phase, direction: SwitchPosition, leadIn: Int64? = nil, overrunSince: Int64? = nil,
                    length: Int64? = nil) {
            (self.mode, self.phase, self.direction, self.leadIn, self.overrunSince) = (mode, phase, direction, leadIn, overrunSince)
            self.length = length
        }
    }

    public func saved(at now: Now) -> Saved {
        // An unsaved edit is dropped: while editing, the count is in ready.
        Saved(mode: mode, phase: lifecycle.phase(at: now), direction: direction,
              leadIn: lifecycle.storedLeadIn > .zero ? lifecycle.storedLeadIn.nanoseconds : nil,
              overrunSince: overrunSince.map(now.wall(of:)), length: lifecycle.state == .ready ? nil : length?.nanoseconds)
    }

    /// Continue from a saved count and the box's presets as if the box had
    /// stayed on (see `Lifecycle.restore`).
    public mutating func restore(_ s: Saved, presets saved: [Int64], index: Int, at now: Now) {
        if !saved.isEmpty, saved.allSatisfy({ $0 > 0 }) {
            presets = saved.map { .nanoseconds($0) }
            presetIndex = min(max(index, 0), presets.count - 1)
        }
        // In ready the switch decides (it may have moved while another
        // mode ran); a count in progress keeps the direction it had.
        direction = s.phase == .ready ? switchPosition : s.direction
        edit = nil
        length = s.phase == .ready ? nil : s.length.map { .nanoseconds($0) }
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
    /// What an interval program keeps.
    public struct Saved: Equatable, Sendable {
        public var phase: Snapshot.Phase
        /// The lead-in counted into the phase (as `CountTimer.Saved.leadIn`).
        public var leadIn: Int64?
        /// A named program: which one (its place in the list), the rounds
        /// an AMRAP counted, a For Time's finish (nanoseconds).
        public var program: Int?
        public var roundsCounted: Int?
        public var finish: Int64?

        public init(phase: Snapshot.Phase, leadIn: Int64? = nil, program: Int? = nil, roundsCounted: Int? = nil, finish: Int64? = nil) {
            (self.phase, self.leadIn, self.program, self.roundsCounted, self.finish) = (phase, leadIn, program, roundsCounted, finish)
        }
    }

    public func saved(at now: Now) -> Saved {
        var s = Saved(phase: lifecycle.phase(at: now), leadIn: lifecycle.storedLeadIn > .zero ? lifecycle.storedLeadIn.nanoseconds : nil)
        if named {
            s.program = selected
            s.roundsCounted = roundsCounted > 0 ? roundsCounted : nil
            s.finish = finish?.nanoseconds
        }
        return s
    }

    public mutating func restore(_ s: Saved, at now: Now) {
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
    /// What a countdown to an instant keeps: its run toward the target
    /// (`.running(since: target, before: 0)`), a ring, or `.over`.
    public struct Saved: Equatable, Sendable {
        public var phase: Snapshot.Phase

        public init(phase: Snapshot.Phase) {
            self.phase = phase
        }
    }

    public func saved(at now: Now) -> Saved {
        switch lifecycle.state {
        case .ringing(let since): Saved(phase: .ringing(since: now.wall(of: since)))
        case .done: Saved(phase: .over)
        default: Saved(phase: .running(since: target.nanoseconds, before: 0))
        }
    }

    /// Its state follows from the clock; only an alarm still ringing, or
    /// already over, is remembered (so it never rings twice).
    public mutating func restore(_ s: Saved, at now: Now) {
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

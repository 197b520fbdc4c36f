/// What the machine last told the outside: the outputs as last reported
/// (each batch reports only what changed) and the state as last persisted
/// (a batch persists only when it changed).
extension Machine {
    struct Reported: Sendable {
        struct Shown: Sendable {
            var frame: Frame?
            var tone: Tone?? = .none
            var state: StateName?
            var timers: ExtraTimers?
            var round: RoundReport?
            /// The LEDs as last reported, bit `i` for `ledNames[i]`; the
            /// ones not in `ledsKnown` have not been reported yet.
            var ledsLit: UInt8 = 0
            var ledsKnown: UInt8 = 0
        }

        /// What a snapshot is made from, as last persisted.
        struct Persisted: Sendable {
            var program: Program
            var alarms: AlarmClock
            var dimming: Dimming
            var timers: ExtraTimers
        }

        var shown = Shown()
        /// Nil: the next batch persists whatever it holds.
        private(set) var persisted: Persisted?
        /// The wall clock's offset from the monotonic one (nanoseconds)
        /// that the state file's wall instants were written with: taken at
        /// a restore, kept while the clocks' offset stays within
        /// `offsetTolerance` of it (`wallForSaving`). A running count is
        /// held on the monotonic clock, and a wall instant made from it
        /// with each save's own reading would move by the reading's noise
        /// at every save: over a hundred restarts, milliseconds.
        var wallOffset: Int64?
        /// An offset that moved by less than this is the same clock read
        /// again (noise, an NTP slew); more is a step, and the instants
        /// follow it.
        static let offsetTolerance: Int64 = 50_000_000

        /// The box was switched on: every output is reported afresh and
        /// the state persisted (with the offset the restore read).
        mutating func forget() {
            shown = Shown()
            persisted = nil
        }

        /// `now` as the state file's instants are made at: its wall
        /// reading replaced by the monotonic one plus `wallOffset` while
        /// the two agree within `offsetTolerance`. `keep`: take `now`'s
        /// offset as the new one when they do not.
        mutating func wallForSaving(_ now: Now, keep: Bool = true) -> Now {
            let offset = now.wall.nanoseconds &- now.monotonic.nanoseconds
            if let held = wallOffset, abs(offset &- held) < Self.offsetTolerance {
                return Now(monotonic: now.monotonic, wall: WallTime(nanoseconds: now.monotonic.nanoseconds &+ held),
                           wallSynchronised: now.wallSynchronised)
            }
            if keep { wallOffset = offset }
            return now
        }

        /// Persist at the next batch, whatever changed (the state file's
        /// wall instants must be written again).
        mutating func persistAgain() { persisted = nil }

        /// The extra timers were restored again: persisted at the next
        /// batch when there are any.
        mutating func persistTimersAgain() { persisted?.timers = ExtraTimers() }

        /// Whether the state differs from what was last persisted; if it
        /// does, it is remembered as persisted (the batch persists it).
        mutating func persists(_ program: Program, _ alarms: AlarmClock, _ dimming: Dimming, _ timers: ExtraTimers) -> Bool {
            if let p = persisted, p.program == program, p.alarms == alarms, p.dimming == dimming, p.timers == timers { return false }
            persisted = Persisted(program: program, alarms: alarms, dimming: dimming, timers: timers)
            return true
        }
    }
}

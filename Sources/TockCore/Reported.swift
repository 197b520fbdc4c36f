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

        /// The box was switched on: every output is reported afresh and
        /// the state persisted.
        mutating func forget() {
            shown = Shown()
            persisted = nil
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

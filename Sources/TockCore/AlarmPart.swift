/// The daily alarms as the machine holds them: the alarm clock (its own
/// state machine, AlarmClock.swift) and the notices it raised during the
/// call in progress, handed out and emptied before the call returns.
extension Machine {
    @usableFromInline struct AlarmPart: Sendable {
        @usableFromInline var clock: AlarmClock
        var notices: [AlarmClock.Notice] = []

        /// What is due by `now`; whether the alarm clock's state changed.
        mutating func advance(to now: Now) -> Bool {
            let before = clock.state
            notices += clock.advance(to: now)
            return clock.state != before
        }

        /// A press while an alarm rings: Stop snoozes, the others dismiss.
        mutating func pressWhileRinging(_ b: Button, at t: Instant) {
            notices += b == .stop ? clock.snooze(at: t) : clock.dismiss()
        }

        mutating func dismiss() { notices += clock.dismiss() }

        /// The notices raised since the last call, handed out once.
        mutating func takeNotices() -> [AlarmClock.Notice] {
            var taken: [AlarmClock.Notice] = []
            swap(&taken, &notices)
            return taken
        }
    }
}

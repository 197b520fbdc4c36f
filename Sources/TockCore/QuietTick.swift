/// Whether a wake-up can be a quiet tick (docs/architecture.md, Machine+Quiet.swift):
/// after a full batch of outputs nothing but the display's own motion can
/// change until the earliest of the other deadlines, so a wake-up before
/// it draws the frame and nothing else. Any other input unsettles it.
extension Machine {
    struct QuietTick: Sendable {
        /// The earliest deadline of anything but the display's own motion,
        /// on each clock (nil: none).
        struct Until: Equatable, Sendable {
            var monotonic: Instant?
            var wall: WallTime?

            /// Whether `now` comes before both.
            @inline(__always)
            func lasts(at now: Now) -> Bool {
                monotonic.map { now.monotonic < $0 } ?? true && wall.map { now.wall < $0 } ?? true
            }
        }

        /// What the display showed at the last full batch, when nothing but
        /// time moves it until the other deadlines: a quiet tick moves the
        /// count on by the time since (`Machine.quietPresentation`) instead
        /// of asking every part what shows. None while a label, the address
        /// scroll or the alarm list is up (they change by themselves).
        /// Its parts are read in place each tick (a presentation copied
        /// whole, and destroyed, cost more than moving its count on).
        struct Base: Sendable {
            /// Whether there is one (the rest is stale when not).
            var holds = false
            var content = DisplayContent.text("")
            var motion: Presentation.Motion?
            var blink: Blink?
            /// The count's value in nanoseconds, when the content is a count.
            var count: Int64?
            var at = Now(monotonic: .zero, wall: WallTime(nanoseconds: 0), wallSynchronised: false)

            init() {}
            init(_ p: Presentation, at now: Now) {
                holds = true
                content = p.content
                motion = p.motion
                blink = p.blink
                count = p.content.count?.value.nanoseconds
                at = now
            }
        }

        enum State: Sendable {
            /// An input (or a correction of the clock) came since the last
            /// full batch: the next wake-up is a full one.
            case unsettled
            /// The last full batch left nothing due before `until` but the
            /// display's own motion.
            case quiet(until: Until)
        }

        /// What to do with an input.
        enum Action: Equatable, Sendable {
            /// Draw the frame and ask for the next wake-up, no earlier than
            /// the other deadlines.
            case tick(Until)
            /// A full batch of outputs.
            case full
        }

        private(set) var state = State.unsettled
        /// The last full batch's presentation (`Base`), none when a quiet
        /// tick must work it out afresh. Held apart from `state`: read in
        /// place each tick, not copied out of an enum's case.
        private(set) var base = Base()
        /// Wake-ups served quietly (for the tests).
        private(set) var ticks = 0

        /// An input came at `now`: a wake-up before the other deadlines,
        /// with no configuration waiting, is a quiet tick; anything else
        /// unsettles.
        @inline(__always)
        mutating func received(wake: Bool, settingsWait: Bool, at now: Now) -> Action {
            if wake, !settingsWait, case .quiet(let until) = state, until.lasts(at: now) {
                ticks += 1
                return .tick(until)
            }
            state = .unsettled
            return .full
        }

        /// A full batch of outputs was made; nothing but the display moves
        /// before `until`.
        mutating func settled(until: Until, base: Base) {
            state = .quiet(until: until)
            self.base = base
        }

        /// Something changed outside an input (a correction of the clock).
        mutating func unsettle() { state = .unsettled }
    }
}

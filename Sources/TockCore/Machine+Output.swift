/// What goes into the machine and what comes out of it.
extension Machine {
    /// Everything the machine reacts to. Past tense where it happened
    /// outside (an edge, a wake-up, a step of the clock), a request where
    /// someone asks for a change (a preset, a mode, an alarm edit).
    public enum Input: Equatable, Sendable {
        /// The box was switched on (or the service started): every output
        /// is reported afresh, plus the first wake-up.
        case powerOn
        /// An input line changed level at `at` (the kernel's timestamp):
        /// `active` is pressed for a button, Up for the switch.
        case edge(InputLine, active: Bool, at: Instant)
        /// A wake-up the machine asked for has come (or any other reason to
        /// look at the clock).
        case wake
        /// The real-time clock was stepped.
        case clockStepped
        /// A button press from elsewhere (the control socket, MQTT).
        case remotePress(ButtonAction)
        /// The Up/Down switch set from elsewhere: as if the lever had moved
        /// there now (nothing, if it is there already). The lever's next
        /// change of position wins again (`InputProcessor.setSwitch`).
        case remoteSwitch(SwitchPosition)
        /// `tock brightness`, `tock night`: the brightness by day and the
        /// night schedule, at once, kept across restarts (`Dimming`).
        case setDimming(Dimming)
        /// `tock set`: replace the current preset, in ready or done.
        case setPreset(Duration)
        /// `tock mode`: change the mode when nothing is counting.
        case setMode(Settings.Mode)
        /// `tock program NAME`: select a named interval program, in ready
        /// or done.
        case selectProgram(String)
        /// `tock alarm add|rm|on|off|skip-next`.
        case editAlarms(AlarmEdit)
        /// Take the fleet group's program, as of its instant.
        case adoptGroup(Snapshot)
        /// The fleet group became reachable (presses go through it) or
        /// unreachable. Changes nothing else and reports nothing.
        case groupLink(Bool)
        /// A reloaded configuration file: the same state under new settings.
        case reconfigure(Settings)
        /// The light sensor's reading, lux (`Settings.light`); nil when it
        /// does not answer or reads out of range.
        case ambientLight(Double?)
        /// `tock timer add|pause|resume|cancel`: an extra timer.
        case timer(ExtraTimers.Request)
    }

    /// Something for the shell to do.
    public enum Command: Equatable, Sendable {
        case render(Frame)
        case buzzer(Tone?)
        case led(String, Bool)
        /// Wake the machine at the earliest of these (nil: not needed).
        /// Monotonic for durations, wall for calendar instants.
        case wake(monotonic: Instant?, wall: WallTime?)
        /// The state changed: remember this across a restart.
        indirect case persist(Snapshot)
        /// A press for the fleet group to carry out (see `GroupChange`).
        indirect case group(GroupChange)
    }

    /// Something that happened, for the shell to tell (trace, log, status).
    public enum Report: Equatable, Sendable {
        /// The program's state is now this one.
        case stateChanged(StateName)
        /// A daily alarm rang, was snoozed, dismissed, missed or skipped.
        indirect case alarm(AlarmClock.Notice)
        /// A named interval program's round (or set) changed.
        case round(RoundReport)
        /// A request was refused; the machine is as it was before it.
        case refused(Refusal)
        /// The extra timers changed (added, paused, resumed, rang,
        /// silenced, cancelled): all of them as they are now.
        indirect case timers(ExtraTimers)
        /// An extra timer reached zero and rings (or waits to).
        case timerRang(String)
    }

    /// Why a request was refused, said so a person knows what to do.
    public struct Refusal: Error, Equatable, Sendable, CustomStringConvertible {
        public var description: String
        public init(_ description: String) { self.description = description }
    }

    /// The outputs of one input, in the order they were produced: the
    /// trace and the log keep that order.
    public struct Output: Equatable, Sendable {
        public enum Item: Equatable, Sendable {
            case command(Command)
            case report(Report)
        }

        public var items: [Item]

        public init(_ items: [Item] = []) { self.items = items }

        public var commands: [Command] { items.compactMap { if case .command(let c) = $0 { c } else { nil } } }
        public var reports: [Report] { items.compactMap { if case .report(let r) = $0 { r } else { nil } } }
        /// The refusal, when the input was a request that was refused.
        public var refusal: Refusal? {
            for case .report(.refused(let r)) in items { return r }
            return nil
        }

        static func refused(_ r: Refusal) -> Output { Output([.report(.refused(r))]) }
        mutating func append(_ c: Command) { items.append(.command(c)) }
        mutating func append(_ r: Report) { items.append(.report(r)) }
    }
}

/// What goes into the machine and what comes out of it.
extension Machine {
    /// Everything the machine reacts to. Past tense where it happened
    /// outside (an edge, a wake-up, a step of the clock), a request where
    /// someone asks for a change (a preset, a mode, an alarm edit). The
    /// large requests are boxed (`indirect`): an input is copied on its way
    /// in, and a wake-up should not copy the size of a configuration.
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
        indirect case setDimming(Dimming)
        /// `tock set`: replace the current preset, in ready or done.
        case setPreset(Duration)
        /// `tock mode`: change the mode when nothing is counting.
        case setMode(Settings.Mode)
        /// `tock program NAME`: select a named interval program, in ready
        /// or done.
        case selectProgram(String)
        /// `tock alarm add|rm|on|off|skip-next`.
        indirect case editAlarms(AlarmEdit)
        /// Take the fleet group's program, as of its instant.
        indirect case adoptGroup(Snapshot.Count)
        /// The fleet group became reachable (presses go through it) or
        /// unreachable. Changes nothing else and reports nothing.
        case groupLink(Bool)
        /// A reloaded configuration file: the same state under new settings.
        indirect case reconfigure(Settings)
        /// The light sensor's reading, lux (`Settings.light`); nil when it
        /// does not answer or reads out of range.
        case ambientLight(Double?)
        /// `tock timer add|pause|resume|cancel`: an extra timer.
        indirect case timer(ExtraTimers.Request)
        /// `tock add 2m [NAME]`: time added to a count (negative: taken
        /// away), the box's own or an extra timer (AddTime.swift).
        case addTime(Duration, CountRef)
        /// The network watcher's report: the box's IPv4 addresses and its
        /// `.local` name, after any change (Machine+Address.swift).
        case network(NetworkIdentity)
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
        /// The address began to scroll across the display: its line.
        case addressShown(String)
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

/// One full batch of outputs: what changed since the last one (the frame,
/// the buzzer, the state, the round, the LEDs, the timers), the notices,
/// the group's presses, the state to remember, and the next wake-up.
extension Machine {
    mutating func outputs(at now: Now) -> Output {
        var out = Output()
        out.items.reserveCapacity(8)  // one allocation for a tick's few items
        let t = now.monotonic
        devices.buzzer.ringingSince = [alarms.ringingSince, program.ringingSince, timers.ringingSince].compactMap { $0 }.min()
        // A named program's end sounds its own pattern before the alarm.
        let programEnds = program.intervalProgram?.named == true && alarms.ringingSince == nil
        devices.buzzer.intro = programEnds ? settings.alarm.pattern(.end) : nil
        noteFocus(at: t)
        let scrolled = settleScroll(at: t)
        let p = presentation(at: now)

        let frame = frame(p, at: now)
        if frame != reported.shown.frame { out.append(.render(frame)); reported.shown.frame = frame }
        let tone = devices.buzzer.tone(at: t)
        if reported.shown.tone == .none || reported.shown.tone! != tone { out.append(.buzzer(tone)); reported.shown.tone = .some(tone) }
        let state = program.stateName
        if state != reported.shown.state { out.append(.stateChanged(state)); reported.shown.state = state }
        if let round = program.round(at: now), round != reported.shown.round { out.append(.round(round)); reported.shown.round = round }
        let lit = leds(at: now)
        for i in Self.ledNames.indices where reported.shown.ledsKnown & 1 << i == 0 || (reported.shown.ledsLit ^ lit) & 1 << i != 0 {
            out.append(.led(Self.ledNames[i], lit & 1 << i != 0))
        }
        reported.shown.ledsLit = lit
        reported.shown.ledsKnown = 1 << Self.ledNames.count - 1

        if !timers.isEmpty || reported.shown.timers.map({ !$0.isEmpty }) ?? false, !(reported.shown.timers.map { $0.looksLike(timers) } ?? false) {
            out.append(.timers(timers))
            reported.shown.timers = timers
        }
        for name in counts.takeRang() { out.append(.timerRang(name)) }
        if let scrolled { out.append(.addressShown(scrolled)) }
        for n in alarmPart.takeNotices() { out.append(.alarm(n)) }
        for g in group.takeChanges() { out.append(.group(g)) }

        // The earliest of the monotonic deadlines, folded as they come
        // (no array on every tick): first those of everything but the
        // display's own motion, which a quiet tick can skip until.
        var monotonic: Instant? = nil
        func earliest(_ d: Instant?) { if let d, monotonic.map({ d < $0 }) ?? true { monotonic = d } }
        earliest(input.deadline)
        earliest(devices.buzzer.nextChange(after: t))
        earliest(alarms.monotonicDeadline)
        earliest(panelDeadline(at: now))
        earliest(timersDeadline)
        earliest(scrollEnd)
        var wall: WallTime? = alarms.wallDeadline
        switch program.nextDeadline(at: now) {
        case .monotonic(let d)?: earliest(d)
        case .wall(let w)?: wall = min(wall ?? w, w)
        case nil: break
        }
        if let night = dimming.night {
            let w = night.nextChange(after: now.wall, zone: settings.clock.zone)
            wall = min(wall ?? w, w)
        }
        let steady = !browsing(at: t) && !scrollShowing(at: t) && panel.labelDeadline(at: t) == nil
        quiet.settled(until: QuietTick.Until(monotonic: monotonic, wall: wall), base: steady ? QuietTick.Base(p, at: now) : QuietTick.Base())
        let motion = displayDeadlines(p, at: now)
        earliest(motion.monotonic)
        if let w = motion.wall { wall = min(wall ?? w, w) }
        if reported.persists(counts.program, alarmPart.clock, devices.dimming, counts.timers) {
            out.append(.persist(snapshot(at: reported.wallForSaving(now))))
        }
        out.append(.wake(monotonic: monotonic, wall: wall))
        return out
    }

    /// The LEDs' levels, bit `i` for `ledNames[i]`.
    private func leds(at now: Now) -> UInt8 {
        let s = program.stateName
        var bits: UInt8 = 0
        if s == .running || timers.list.contains(where: \.isRunning) { bits |= 1 }
        if s == .paused { bits |= 2 }
        if s == .ringing || alarms.isRinging || timers.isRinging { bits |= 4 }
        if program.resting(at: now) { bits |= 8 }
        return bits
    }
}

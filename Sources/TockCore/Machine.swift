/// The whole appliance as a value: inputs (raw edges, wake-ups, requests)
/// in, commands and reports out, through one `handle(_:at:)`. Pure and
/// deterministic; "now" is always a parameter.
///
/// Inside, everything is processed in the order it happened: after a late
/// wake-up (the process was stopped, the machine was busy), each deadline
/// that passed (a debounced press, a long press, the end of a count, a
/// phase change, auto-silence) is applied at its own instant, then the
/// outputs are computed once for "now". A repeating schedule therefore
/// catches up to the present instead of firing a burst of stale ticks.
public struct Machine: Sendable {
    // The parts, each a small state machine that owns its state, and the
    // order of time. Each part's file says what it holds and why.

    /// The configuration in use, the one waiting for a count's reset, and
    /// what the box keeps of its own edits (Setup.swift).
    @usableFromInline var setup: Setup
    /// The box's own count (the program) and the extra timers (Counts.swift).
    @usableFromInline var counts: Counts
    /// The daily alarms and the notices they raised (AlarmPart.swift).
    @usableFromInline var alarmPart: AlarmPart
    /// Who has the front panel: the alarm list, the count picked and
    /// labelled, the address scroll, the idle clock (Panel.swift).
    @usableFromInline var panel: Panel
    /// The fleet group's link and the changes sent through it (GroupLink.swift).
    var group: GroupLink
    /// Whether a wake-up can be served by a quiet tick (QuietTick.swift).
    var quiet: QuietTick
    public private(set) var input: InputProcessor
    /// The display's drawing and brightness, and the buzzer (Devices.swift).
    @usableFromInline var devices: Devices
    /// What the outputs last said and what was last persisted (Reported.swift).
    var reported: Reported
    /// Everything up to `time.processed` has been applied (Timeline.swift).
    var time: Timeline

    /// Status LED names the core drives (`leds(at:)` sets bits in this order).
    public static let ledNames = ["running", "paused", "ringing", "rest"]

    /// - Parameter snapshot: a state to continue from (after a restart);
    ///   ignored when it belongs to another mode.
    public init(settings file: Settings, switchPosition: SwitchPosition, restoring snapshot: Snapshot? = nil, at now: Now) {
        var snapshot = snapshot
        var setup = Setup(file: file, restoring: &snapshot)
        let settings = setup.settings
        counts = Counts(settings: settings, switchPosition: switchPosition, restoring: snapshot, at: now)
        var alarms = AlarmClock(alarms: settings.alarms, zone: settings.clock.zone, settings: settings.alarm, at: now)
        if let saved = snapshot?.alarms {
            alarms.restore(setup.alarms(saved, at: now), fileAlarms: settings.alarms, at: now)
        }
        self.setup = setup
        alarmPart = AlarmPart(clock: alarms)
        panel = Panel(activeAt: now.monotonic)
        group = GroupLink()
        quiet = QuietTick()
        input = InputProcessor(settings: settings.input, switchPosition: switchPosition)
        devices = Devices(settings: settings, saved: snapshot?.dimming)
        reported = Reported()
        time = Timeline(at: now.monotonic)
        // A restore read the file's wall instants at `now`: saved again at
        // the same offset, they come back as they were read.
        reported.wallOffset = now.wall.nanoseconds &- now.monotonic.nanoseconds
        keepProvisional(snapshot, restoredProgram: snapshot.map { $0.mode == settings.mode } ?? false, at: now)
    }

    public var stateName: StateName { program.stateName }

    public func snapshot(at now: Now) -> Snapshot {
        var s = counts.snapshot(at: now)
        s.fileMode = fileMode
        s.filePresets = settings.presets.map(\.nanoseconds)
        s.alarms = alarms.snapshot(fileAlarms: settings.alarms, at: now)
        s.dimming = DimmingSnapshot(dimming, file: Dimming(settings.display))
        s.setAside = setAside.isEmpty ? nil : setAside
        s.wallUnverified = !now.wallSynchronised
        return s
    }

    /// The snapshot the state file keeps at `now` (a last save as the
    /// service stops): its wall instants made at the offset the last ones
    /// were written with while the clocks agree (`Reported.wallOffset`).
    public func savedSnapshot(at now: Now) -> Snapshot {
        var r = reported
        return snapshot(at: r.wallForSaving(now, keep: false))
    }

    /// The one entry point: apply `input` at `now` and return what to do
    /// and what happened, in order. A refused request leaves the machine as
    /// it was and returns only the refusal.
    public mutating func handle(_ input: Input, at now: Now) -> Output {
        var out = Output()
        handle(input, at: now, into: &out)
        return out
    }

    /// `handle`, its outputs written over `out`: a quiet tick reuses the
    /// list's storage (the shell hands the same one back each wake-up, so
    /// a tick allocates nothing for its outputs); a full batch replaces it.
    public mutating func handle(_ input: Input, at now: Now, into out: inout Output) {
        // The parts' optionals are matched in place (`case .some`): a
        // comparison with nil copies the value first, here the settings
        // and a snapshot on every wake-up (`make bench-tick`).
        if case .some = counts.provisional, now.wallSynchronised {
            catchUp(to: now)
            settleProvisional(at: now)
            quiet.unsettle()
        }
        var isWake = false
        if case .wake = input { isWake = true }
        if case .tick(let until) = quiet.received(wake: isWake, settingsWait: setup.waits, at: now) {
            #if DEBUG
            // Every quiet tick in the tests is checked against a full one.
            var full = self
            full.quiet.unsettle()
            let expected = full.handle(.wake, at: now)
            quietTick(at: now, until, into: &out)
            precondition(out == expected, "a quiet tick at \(now) gave \(out), a full one \(expected)")
            #else
            quietTick(at: now, until, into: &out)
            #endif
            return
        }
        switch input {
        case .powerOn:
            reported.forget()
        case .edge(let line, let active, let t):
            catchUp(to: now.at(min(t, now.monotonic)))
            self.input.edge(line, active: active, at: t)
        case .wake:
            break
        case .clockStepped:
            // The state file's instants are on the wall clock: write them
            // again as the stepped clock reads them.
            reported.persistAgain()
            advanceAlarms(to: now)
            catchUp(to: now)
            apply(program.clockStepped(at: now))
        case .remotePress(let action):
            catchUp(to: now)
            route(action, at: now.monotonic, now: now, fromPanel: false)
        case .remoteSwitch(let position):
            // The lever's own path from here on, as if it had moved now.
            catchUp(to: now)
            if self.input.switchPosition != position {
                self.input.setSwitch(position)
                routeSwitch(position, at: now.monotonic, now: now, waking: false)
            }
        case .groupLink(let up):
            groupLinked = up
            out = Output()
            return
        case .reconfigure(let settings):
            let light = devices.ambient
            self = reconfigured(settings, at: now)
            if let light, light.settings == devices.ambient?.settings { devices.ambient = light }
        case .ambientLight(let lux):
            if let lux { devices.ambient?.read(lux, at: now.monotonic) } else { devices.ambient?.lost() }
        case .network(let identity):
            catchUp(to: now)
            noteNetwork(identity)
        case .setPreset, .setMode, .editAlarms, .adoptGroup, .selectProgram, .setDimming, .timer, .addTime:
            let before = self
            do throws(Refusal) {
                try request(input, at: now)
            } catch {
                self = before
                out = .refused(error)
                return
            }
        }
        catchUp(to: now)
        if let pending = pendingSettings, !holdsACount { self = reconfigured(pending, at: now) }
        out = outputs(at: now)
    }

    /// A request from outside the panel, applied (or handed to the group);
    /// the outputs follow from `handle`.
    private mutating func request(_ input: Input, at now: Now) throws(Refusal) {
        switch input {
        case .setPreset(let d): try setPreset(d, at: now)
        case .setMode(let mode): try setMode(mode, at: now)
        case .selectProgram(let name): try selectProgram(name, at: now)
        case .editAlarms(let edit): try editAlarms(edit, at: now)
        case .adoptGroup(let state): try adoptGroup(state, at: now)
        case .setDimming(let d): try setDimming(d)
        case .timer(let r): try timerRequest(r, at: now)
        case .addTime(let d, let ref): try addTime(d, to: ref, at: now)
        default: break
        }
    }

    /// A count is in progress that a change of configuration must wait for
    /// (`Program.holdsACount`, the same rule as a saved count's).
    public var holdsACount: Bool { Program.holdsACount(settings.mode, stateName) }

    // MARK: - Processing in time order

    private mutating func catchUp(to now: Now) {
        while true {
            let at = now.at(time.processed)
            let programDue = program.nextDeadline(at: at)?.instant(from: now)
            let alarmDue = alarms.deadline(at: now)
            let inputDue = input.deadline
            let timersDue = counts.timersDeadline
            guard let due = Instant.earliest(Instant.earliest(Instant.earliest(programDue, alarmDue), inputDue), timersDue), due <= now.monotonic
            else { break }
            let t = max(due, time.processed)
            if let p = programDue, p == due {
                advanceProgram(to: now.at(t))
                advanceTimers(to: now.at(t))
            } else if let a = alarmDue, a == due {
                advanceAlarms(to: now.at(t))
                advanceTimers(to: now.at(t))
            } else if let x = timersDue, x == due {
                advanceTimers(to: now.at(t))
            } else {
                // How each button acts is decided as it goes down, in the
                // state the panel is in then.
                // (At each button's place: a dictionary keyed by button was
                // built on every edge, and the first made the runtime scan
                // its conformance records on the first press.)
                let styles = Button.allCases.map { pressStyle($0, at: now.at(t)) }
                // The idle clock or the address showing: the press only ends it.
                let waking = clockShowing(at: t) || scrollShowing(at: t)
                for (occurrence, when) in input.fireNext(at: due, style: { styles[$0.index] }) {
                    let at = max(when, time.lastChange)
                    advanceProgram(to: now.at(max(at, time.processed)))
                    switch occurrence {
                    case .action(let a): route(a, at: at, now: now, fromPanel: true, waking: waking)
                    case .switched(let pos): routeSwitch(pos, at: at, now: now, waking: waking)
                    }
                }
                // Any settled edge, a release too, is activity for the idle clock.
                panel.active(at: t)
            }
            time.applied(to: t)
        }
        advanceProgram(to: now)
        advanceAlarms(to: now)
        advanceTimers(to: now)
        time.applied(to: now.monotonic)
    }

    mutating func advanceProgram(to now: Now) {
        let before = program.stateName
        apply(program.advance(to: now))
        if program.stateName != before {
            time.changed(at: now.monotonic)
            panel.active(at: now.monotonic)
        }
    }

    mutating func advanceAlarms(to now: Now) {
        if alarmPart.advance(to: now) { alarmChanged(at: now.monotonic) }
    }

    mutating func apply(_ action: ButtonAction, at t: Instant, now: Now) {
        if let change = groupChange(for: action, at: now.at(t)) {
            group.send(change)
            return
        }
        // A press is dated at its first edge, but what it sounds can only
        // start now, once the press is known (debounced): played from the
        // dated instant, a 60 ms chirp would sound 40 ms.
        let signals = program.handle(action, at: now.at(t))
        note(signals.map { ($0, now.monotonic) }, at: t)
    }

    mutating func note(_ signals: [(Buzzer.Signal, Instant)], at t: Instant) {
        time.changed(at: t)
        panel.active(at: t)
        apply(signals)
    }

    private mutating func apply(_ signals: [(Buzzer.Signal, Instant)]) {
        for (signal, t) in signals { devices.buzzer.play(signal, at: t) }
    }
}

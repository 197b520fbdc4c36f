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
    public let settings: Settings
    /// A configuration (reloaded, or read at a restart) that waits for the
    /// count in progress to be reset: a change of file never cuts a count
    /// short, rings it early or loses it.
    public internal(set) var pendingSettings: Settings?
    public internal(set) var program: Program
    public internal(set) var alarms: AlarmClock
    public private(set) var input: InputProcessor
    var buzzer: Buzzer
    var renderer: Renderer
    /// The brightness by day and the night schedule in use (`Dimming`).
    public internal(set) var dimming: Dimming
    /// The level the room's light asks for (`Settings.light`); not kept
    /// across a restart: the first reading comes within seconds.
    public internal(set) var ambient: AmbientLight?
    /// Everything up to this instant has been applied.
    var processed: Instant
    /// Actions are never applied before the last change of state, so a
    /// press dated at its first edge cannot reorder itself with an end that
    /// was already shown.
    var lastChange: Instant
    var shown = Shown()
    /// Until when nothing but the display's own motion (the count's digits,
    /// a blink) can change: set by each full batch of outputs, cleared by
    /// any input but a wake-up (`quietTick`).
    var quiet: Quiet?
    /// Wake-ups served by `quietTick` (for the tests).
    var quietTicks = 0
    /// The program and alarms as last persisted.
    var persisted: Program?
    var persistedAlarms: AlarmClock?
    var persistedDimming: Dimming?
    /// Edits made on the box over a list the file has since replaced
    /// (`SetAsideEdits`): they come back if the file's list does.
    var setAside = SetAsideEdits()
    /// The last press, flip or change of state: the idle clock shows
    /// `display.idleAfter` after it.
    var activeAt: Instant
    /// The alarm list on the panel (long press of Start in ready).
    var browse: AlarmBrowser?
    /// Alarm notices raised during the call in progress; handed out and
    /// emptied before it returns.
    var notices: [AlarmClock.Notice] = []
    /// The fleet group can be reached: presses go through it.
    public internal(set) var groupLinked = false
    /// Group changes raised during the call in progress; handed out and
    /// emptied before it returns.
    var groupChanges: [GroupChange] = []
    /// The mode the configuration file asks for; `settings.mode` may differ
    /// after `tock mode` changed it at run time.
    public let fileMode: Settings.Mode
    /// The timer's presets (nanoseconds) and current index while another
    /// mode runs, so that coming back to `timer` or `stopwatch` finds the
    /// preset it left (they go into this mode's snapshot too).
    private var keptPresets: (presets: [Int64], index: Int)?
    /// Named count-downs beside the box's own count (`Machine+Timers`).
    public internal(set) var timers = ExtraTimers()
    var persistedTimers: ExtraTimers?
    /// The count a long Stop stepped to, while it is in progress.
    var pick: CountRef?
    /// The count shown and since when (its name shows first).
    var labelled: (ref: CountRef, since: Instant)?
    /// What the display needs of the counts, as of the last full batch.
    var counts = CountsShown()
    /// The preset the last long Start took.
    var gesturePreset: Int?
    /// Extra timers that reached zero during the call in progress.
    var timersRang: [String] = []
    /// A restore made while the wall clock was unverified, corrected once it
    /// is trusted (Machine+Provisional.swift).
    var provisional: ProvisionalRestore?
    /// The box's addresses and name as the network watcher last reported
    /// them (nil before its first report), and the address scrolling or
    /// waiting to (Machine+Address.swift).
    public internal(set) var network: NetworkIdentity?
    var scroll: AddressScroll?

    struct Shown {
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

    /// Status LED names the core drives (`leds(at:)` sets bits in this order).
    public static let ledNames = ["running", "paused", "ringing", "rest"]

    /// - Parameter snapshot: a state to continue from (after a restart);
    ///   ignored when it belongs to another mode.
    public init(settings file: Settings, switchPosition: SwitchPosition, restoring snapshot: Snapshot? = nil, at now: Now) {
        var fileMode = file.mode
        var settings = file
        var snapshot = snapshot
        setAside = snapshot?.setAside ?? SetAsideEdits()
        let presetsChanged = snapshot?.filePresets.map { $0 != file.presets.map(\.nanoseconds) } ?? false
        // A mode chosen at run time outlives a restart, unless the file's
        // own mode has changed since (the person edited it).
        if let snapshot, snapshot.fileMode == file.mode, snapshot.mode != .countdown || file.countdownUntil != nil {
            settings.mode = snapshot.mode
        }
        if let saved = snapshot, saved.holdsACount, saved.mode != settings.mode || presetsChanged {
            let m = saved.mode
            // The file changed under a count in progress: the count goes on
            // with the mode and presets it had, the file from its reset
            // (as after a reload: the count's mode stands for the file's
            // until then, so the file's wins at the reset).
            if m != settings.mode { fileMode = m }
            settings.mode = m
            if !saved.presets.isEmpty { settings.presets = saved.presets.map { .nanoseconds($0) } }
            pendingSettings = file
        } else if presetsChanged, let saved = snapshot {
            // The file's list wins over edits made on the box; they are set
            // aside, and come back if the file's list comes back to theirs.
            let kept = setAside.takePresets(over: file.presets.map(\.nanoseconds))
            setAside.setAside(presets: saved)
            snapshot?.presets = kept?.presets ?? []
            snapshot?.presetIndex = kept?.index ?? 0
        }
        self.settings = settings
        self.fileMode = fileMode
        program = Program(settings: settings, switchPosition: switchPosition, at: now)
        let restoredProgram = snapshot.map { $0.mode == settings.mode } ?? false
        if let snapshot, restoredProgram {
            program.restore(snapshot, at: now)
        }
        if program.countTimer == nil, let snapshot, !snapshot.presets.isEmpty {
            keptPresets = (snapshot.presets, snapshot.presetIndex)
        }
        if let saved = snapshot?.timers { timers = ExtraTimers(restoring: saved, ringFor: settings.alarm.ringFor, at: now) }
        alarms = AlarmClock(alarms: settings.alarms, zone: settings.clock.zone, settings: settings.alarm, at: now)
        if var saved = snapshot?.alarms {
            let file = settings.alarms.map(\.record)
            if saved.file != file {  // as the presets: the file's list wins, the edits are set aside
                let kept = setAside.takeAlarms(over: file, at: now)
                setAside.setAside(alarms: saved)
                if let kept { saved = kept.ringing(as: saved) }
            }
            alarms.restore(saved, fileAlarms: settings.alarms, at: now)
        }
        activeAt = now.monotonic
        input = InputProcessor(settings: settings.input, switchPosition: switchPosition)
        buzzer = Buzzer(escalateAfter: settings.alarm.escalateAfter)
        buzzer.volume = settings.alarm.volume
        buzzer.sounds = settings.alarm.sounds
        if let tune = settings.alarm.tune { buzzer.alarmPattern = RTTTL.pattern(tune) }
        // Set from outside and saved: kept while the file's values are the ones it was set over.
        dimming = snapshot?.dimming.flatMap { $0.file == Dimming(settings.display).record ? $0.dimming : nil } ?? Dimming(settings.display)
        ambient = settings.light.map(AmbientLight.init)
        renderer = Renderer(digits: settings.display.digits, brightness: dimming.brightness)
        processed = now.monotonic
        lastChange = now.monotonic
        keepProvisional(snapshot, restoredProgram: restoredProgram, at: now)
    }

    public var stateName: StateName { program.stateName }

    public func snapshot(at now: Now) -> Snapshot {
        var s = program.snapshot(at: now)
        if s.presets.isEmpty, let kept = keptPresets { (s.presets, s.presetIndex) = kept }
        s.fileMode = fileMode
        s.filePresets = settings.presets.map(\.nanoseconds)
        s.alarms = alarms.snapshot(fileAlarms: settings.alarms, at: now)
        s.dimming = DimmingSnapshot(dimming, file: Dimming(settings.display))
        s.setAside = setAside.isEmpty ? nil : setAside
        s.timers = timers.isEmpty ? nil : timers.records(at: now)
        s.wallUnverified = !now.wallSynchronised
        return s
    }

    /// The one entry point: apply `input` at `now` and return what to do
    /// and what happened, in order. A refused request leaves the machine as
    /// it was and returns only the refusal.
    public mutating func handle(_ input: Input, at now: Now) -> Output {
        if provisional != nil, now.wallSynchronised {
            catchUp(to: now)
            settleProvisional(at: now)
            quiet = nil
        }
        if case .wake = input, let quiet, quiet.lasts(at: now), pendingSettings == nil {
            #if DEBUG
            // Every quiet tick in the tests is checked against a full one.
            var full = self
            full.quiet = nil
            let expected = full.handle(.wake, at: now)
            let out = quietTick(at: now, quiet)
            precondition(out == expected, "a quiet tick at \(now) gave \(out), a full one \(expected)")
            return out
            #else
            return quietTick(at: now, quiet)
            #endif
        }
        quiet = nil
        switch input {
        case .powerOn:
            shown = Shown()
            persisted = nil
            persistedAlarms = nil
            persistedDimming = nil
            persistedTimers = nil
        case .edge(let line, let active, let t):
            catchUp(to: now.at(min(t, now.monotonic)))
            self.input.edge(line, active: active, at: t)
        case .wake:
            break
        case .clockStepped:
            // The state file's instants are on the wall clock: write them
            // again as the stepped clock reads them.
            persisted = nil
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
            return Output()
        case .reconfigure(let settings):
            let light = ambient
            self = reconfigured(settings, at: now)
            if let light, light.settings == ambient?.settings { ambient = light }
        case .ambientLight(let lux):
            if let lux { ambient?.read(lux, at: now.monotonic) } else { ambient?.lost() }
        case .network(let identity):
            catchUp(to: now)
            noteNetwork(identity)
        case .setPreset, .setMode, .editAlarms, .adoptGroup, .selectProgram, .setDimming, .timer:
            let before = self
            do throws(Refusal) {
                try request(input, at: now)
            } catch {
                self = before
                return .refused(error)
            }
        }
        catchUp(to: now)
        if let pending = pendingSettings, !holdsACount { self = reconfigured(pending, at: now) }
        return outputs(at: now)
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
        default: break
        }
    }

    /// A count is in progress that a change of configuration must wait for.
    public var holdsACount: Bool {
        settings.mode != .countdown && [.running, .paused, .ringing, .editing].contains(stateName)
    }

    // MARK: - Processing in time order

    private mutating func catchUp(to now: Now) {
        while true {
            let at = now.at(processed)
            let programDue = program.nextDeadline(at: at)?.instant(from: now)
            let alarmDue = alarms.deadline(at: now)
            let inputDue = input.deadline
            let timersDue = timersDeadline
            guard let due = Instant.earliest(Instant.earliest(Instant.earliest(programDue, alarmDue), inputDue), timersDue), due <= now.monotonic
            else { break }
            let t = max(due, processed)
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
                let styles = Dictionary(uniqueKeysWithValues: Button.allCases.map { ($0, pressStyle($0, at: now.at(t))) })
                // The idle clock or the address showing: the press only ends it.
                let waking = clockShowing(at: t) || scrollShowing(at: t)
                for (occurrence, when) in input.fireNext(at: due, style: { styles[$0]! }) {
                    let at = max(when, lastChange)
                    advanceProgram(to: now.at(max(at, processed)))
                    switch occurrence {
                    case .action(let a): route(a, at: at, now: now, fromPanel: true, waking: waking)
                    case .switched(let pos): routeSwitch(pos, at: at, now: now, waking: waking)
                    }
                }
                // Any settled edge, a release too, is activity for the idle clock.
                activeAt = max(activeAt, t)
            }
            processed = max(processed, t)
        }
        advanceProgram(to: now)
        advanceAlarms(to: now)
        advanceTimers(to: now)
        processed = max(processed, now.monotonic)
    }

    mutating func advanceProgram(to now: Now) {
        let before = program.stateName
        apply(program.advance(to: now))
        if program.stateName != before {
            lastChange = max(lastChange, now.monotonic)
            activeAt = max(activeAt, now.monotonic)
        }
    }

    mutating func advanceAlarms(to now: Now) {
        let before = alarms.state
        notices += alarms.advance(to: now)
        if alarms.state != before { alarmChanged(at: now.monotonic) }
    }

    mutating func apply(_ action: ButtonAction, at t: Instant, now: Now) {
        if let change = groupChange(for: action, at: now.at(t)) {
            groupChanges.append(change)
            return
        }
        // A press is dated at its first edge, but what it sounds can only
        // start now, once the press is known (debounced): played from the
        // dated instant, a 60 ms chirp would sound 40 ms.
        let signals = program.handle(action, at: now.at(t))
        note(signals.map { ($0, now.monotonic) }, at: t)
    }

    mutating func note(_ signals: [(Buzzer.Signal, Instant)], at t: Instant) {
        lastChange = max(lastChange, t)
        activeAt = max(activeAt, t)
        apply(signals)
    }

    private mutating func apply(_ signals: [(Buzzer.Signal, Instant)]) {
        for (signal, t) in signals { buzzer.play(signal, at: t) }
    }
}

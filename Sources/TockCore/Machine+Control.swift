/// Changes from outside the panel: the control socket (`tock set`,
/// `tock mode`) and a reloaded configuration file.
extension Machine {
    /// The same appliance under new settings (SIGHUP with a changed file),
    /// carrying on with its state. Presets edited on the box are kept
    /// unless the file's presets changed. While a count is in progress,
    /// what defines it (the mode, the presets, the interval program) waits
    /// for its reset (`pendingSettings`); the rest applies at once.
    func reconfigured(_ new: Settings, at now: Now) -> Machine {
        guard holdsACount, new.mode != fileMode || new.presets != settings.presets || new.interval != settings.interval else {
            return rebuilt(new, at: now)
        }
        var keep = new
        keep.mode = fileMode
        keep.presets = settings.presets
        keep.interval = settings.interval
        var next = rebuilt(keep, at: now)
        next.pendingSettings = new
        return next
    }

    /// The file's lists that changed win over the edits made on the box,
    /// which are set aside (`Machine.init`, `SetAsideEdits`).
    private func rebuilt(_ new: Settings, at now: Now) -> Machine {
        var snap = snapshot(at: now)
        if new.mode != fileMode { snap.fileMode = nil }  // the file's mode wins
        var next = Machine(settings: new, switchPosition: input.switchPosition, restoring: snap, at: now)
        carryOver(to: &next)
        return next
    }

    /// Set the current preset (`tock set 12m30s`), in ready or done.
    mutating func setPreset(_ d: Duration, at now: Now) throws(Refusal) {
        guard case .count(var timer) = program else {
            throw Refusal("set works in the timer and stopwatch modes; this box is in \(settings.mode.rawValue) mode (tock mode timer)")
        }
        guard d >= .seconds(1), d <= Settings.longestPreset else {
            throw Refusal("a preset is 1s to 99h59m")
        }
        guard timer.stateName == .ready || timer.stateName == .done else {
            throw Refusal("the timer is \(timer.stateName.rawValue); stop and reset it first")
        }
        if try sentToGroup(.set, .setPreset(d), at: now) { return }
        timer.setPreset(d)
        program = .count(timer)
    }

    /// Change the mode (`tock mode interval`) when nothing is counting (a
    /// countdown to an instant can always be left).
    /// Select a named interval program (`tock program tAbA`), in ready or
    /// done; the name shows for a moment, as with Reset in ready.
    mutating func selectProgram(_ name: String, at now: Now) throws(Refusal) {
        guard case .interval(var p) = program, p.named else {
            throw Refusal("program works in interval mode with interval.programs in the configuration file")
        }
        guard let index = p.program.programs.firstIndex(where: { $0.name == name }) else {
            throw Refusal("no program \"\(name.prefix(32))\"; the programs are \(p.program.programs.map(\.name).joined(separator: ", "))")
        }
        guard p.isIdle else { throw Refusal("the timer is \(stateName.rawValue); stop and reset it first") }
        if try sentToGroup(.program, .selectProgram(name), at: now) { return }
        p.select(index, at: now.monotonic)
        program = .interval(p)
        note([], at: now.monotonic)
    }

    mutating func setMode(_ mode: Settings.Mode, at now: Now) throws(Refusal) {
        let busy: Set<StateName> = [.running, .paused, .ringing, .editing]
        guard settings.mode == .countdown || !busy.contains(stateName) else {
            throw Refusal("the timer is \(stateName.rawValue); stop and reset it first")
        }
        guard mode != .countdown || settings.countdownUntil != nil else {
            throw Refusal("countdown needs countdown.until in the configuration file")
        }
        if try sentToGroup(.mode, .setMode(mode), at: now) { return }
        var s = settings
        s.mode = mode
        // The new mode's program in its first state, the box's presets kept.
        var snap = snapshot(at: now)
        snap.count.program = Program(settings: s, switchPosition: input.switchPosition, at: now).saved(at: now).program
        // Build with the file's mode and let the snapshot carry the new one,
        // so it outlives a restart.
        var file = s
        file.mode = fileMode
        snap.fileMode = fileMode
        var next = Machine(settings: file, switchPosition: input.switchPosition, restoring: snap, at: now)
        carryOver(to: &next)
        self = next
    }
}

extension Machine {
    /// Change the brightness and the night schedule (`tock brightness 3`,
    /// `tock night 22:00 07:00 1`); applies at once, whatever the state.
    mutating func setDimming(_ d: Dimming) throws(Refusal) {
        if let why = d.problem { throw Refusal(why) }
        devices.setDimming(d)
    }
}

extension CountTimer {
    /// Replace the current preset and return to ready.
    mutating func setPreset(_ d: Duration) {
        presets[presetIndex] = d
        backToReady()
    }
}

/// `tock alarm ...`: the daily alarms, edited from outside.
extension Machine {
    public enum AlarmEdit: Equatable, Sendable {
        case add(DailyAlarm)
        /// Alarms are numbered from 1, as `tock alarm list` shows them.
        case remove(Int)
        case enable(Int, Bool)
        case skipNext(Int)
    }

    mutating func editAlarms(_ edit: AlarmEdit, at now: Now) throws(Refusal) {
        func index(_ n: Int) throws(Refusal) -> Int {
            guard (1...max(alarms.entries.count, 1)).contains(n), !alarms.entries.isEmpty else {
                throw Refusal(alarms.entries.isEmpty ? "there are no alarms (tock alarm add 06:45 mon-fri)"
                                                     : "no alarm \(n); they are numbered 1 to \(alarms.entries.count) (tock alarm list)")
            }
            return n - 1
        }
        switch edit {
        case .add(let a):
            guard alarms.add(a, at: now) else { throw Refusal("there are \(DailyAlarm.maxCount) alarms already; remove one first (tock alarm rm N)") }
        case .remove(let n):
            alarms.remove(try index(n))
        case .enable(let n, let on):
            alarms.setEnabled(try index(n), on, at: now)
        case .skipNext(let n):
            guard let notice = alarms.skipNext(try index(n)) else { throw Refusal("alarm \(n) is off; there is nothing to skip") }
            alarmPart.notices.append(notice)
        }
        panel.closeList()
    }
}

extension Machine {
    /// Whether pressing `button` now would change the count, the preset,
    /// the mode or an alarm, worked out on a copy acting alone (as a box
    /// out of its group's reach would): a request from the control socket
    /// or MQTT that changes nothing is answered with why (`idlePress`), as
    /// the panel answers with its chirp.
    public func pressChanges(_ button: Button, at now: Now) -> Bool {
        var copy = self
        copy.groupLinked = false
        _ = copy.handle(.remotePress(.pressed(button)), at: now)
        return copy.snapshot(at: now) != snapshot(at: now) || copy.stateName != stateName
    }

    /// Why pressing `button` changes nothing now, in words for a reply.
    public func idlePress(_ button: Button) -> String {
        switch (button, stateName) {
        case (.reset, .running): "Reset does nothing from outside while the count runs: stop it first (tock stop), then Reset returns it to the start; tock add 1m adds time"
        case (.start, .running): "Start does nothing while the count runs: it is already running"
        case (.stop, .ready): "Stop does nothing in ready: there is no count to stop"
        case (.stop, .paused): "Stop does nothing while paused: Start resumes, Reset returns to the start"
        default: "\(button) does nothing while \(stateName.rawValue)"
        }
    }
}

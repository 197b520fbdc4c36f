/// Who has the front panel. In order: a ringing daily alarm (it flashes the
/// time of day; Stop snoozes, Start and Reset dismiss, and the same press
/// silences a count ringing at the same moment); the alarm list (a long
/// press of Start in ready); a count that is busy (running, paused, ringing,
/// editing); a snooze count-down; the idle clock; the program at rest.
///
/// While the idle clock shows, the first press or flip only brings the
/// timer view back: it does not act, and the count underneath is untouched
/// (a flip is remembered and applies at the next reset, as while running).
extension Machine {
    /// The idle clock is on the display at `t`.
    @inline(__always)  // (Machine+Quiet.swift)
    func clockShowing(at t: Instant) -> Bool {
        clockMayShow && !panel.browsing(at: t) && t >= panel.activeAt + settings.display.idleAfter
    }

    /// Nothing keeps the idle clock away but time: it is on, nothing counts
    /// or rings, and no button is held (a long press begun on the timer view
    /// stays a long press; the release is activity of its own).
    @inline(__always)  // (Machine+Quiet.swift)
    private var clockMayShow: Bool {
        settings.display.idleClock && program.isIdle && !timers.anyActive && alarms.state == .quiet && !Button.allCases.contains(where: input.isHeld)
    }

    /// The alarm list is on the display at `t`.
    @inline(__always)  // (Machine+Quiet.swift)
    func browsing(at t: Instant) -> Bool { panel.browsing(at: t) }

    /// A snooze count-down is on the display.
    private func snoozeShowing(at t: Instant) -> Bool {
        if case .snoozed = alarms.state, program.isIdle, !browsing(at: t) { return true }
        return false
    }

    /// Start held in ready opens the alarm list, when there is one.
    private var canBrowse: Bool { program.stateName == .ready && !alarms.entries.isEmpty }

    /// How a button acts as it goes down: on press wherever the panel only
    /// wakes, silences or steps a list; Start in ready fires on release when
    /// holding it opens the alarm list.
    func pressStyle(_ b: Button, at now: Now) -> PressStyle {
        let t = now.monotonic
        if alarms.isRinging || browsing(at: t) || clockShowing(at: t) || scrollShowing(at: t) { return .onPress }
        if let style = addPressStyle(b, at: t) { return style }
        if let style = timerPressStyle(b, at: t) { return style }
        if b == .stop, addressGestureAvailable { return .shortOrLong }
        if b == .reset, snoozeShowing(at: t) { return .onPress }
        if b == .start, canBrowse { return .shortOrLong }
        return program.pressStyle(b)
    }

    /// A button action, from the panel or the control socket (which always
    /// acts: a remote command is deliberate). `waking`: the idle clock
    /// showed as the edge settled, so this press only wakes the view.
    mutating func route(_ action: ButtonAction, at t: Instant, now: Now, fromPanel: Bool, waking: Bool = false) {
        let b: Button
        switch action {
        case .pressed(let x), .longPressed(let x), .repeated(let x): b = x
        }
        if alarms.isRinging {
            alarmPart.pressWhileRinging(b, at: t)
            if program.stateName == .ringing { apply(action, at: t, now: now) }
            alarmChanged(at: t)
            return
        }
        // (A press from the panel is activity for the idle clock already:
        // the input loop counts every settled edge.)
        if fromPanel, browsing(at: t), let list = panel.browser {
            panel.open(list.press(b, alarms: &alarmPart.clock, at: now.at(t)))
            return
        }
        panel.closeList()
        if fromPanel, waking {
            panel.scroll = nil
            return
        }
        if fromPanel, addByPress(action, at: t, now: now) { return }
        if routeToTimers(action, at: t, now: now) { return }
        if action == .longPressed(.stop), addressGestureAvailable { return showAddress(at: t) }
        if b == .reset, snoozeShowing(at: t) {
            alarmPart.dismiss()
            alarmChanged(at: t)
            return
        }
        if action == .longPressed(.start), canBrowse {
            panel.open(AlarmBrowser(opening: alarms, at: t))
            return
        }
        apply(action, at: t, now: now)
    }

    mutating func routeSwitch(_ p: SwitchPosition, at t: Instant, now: Now, waking: Bool) {
        if alarms.isRinging {
            alarmPart.dismiss()
            alarmChanged(at: t)
            if program.stateName == .ringing {
                note(program.switched(to: p, at: now.at(t)).map { ($0, t) }, at: t)
            } else {
                program.noteSwitch(p)
            }
            return
        }
        if waking {
            panel.scroll = nil
            program.noteSwitch(p)
            return
        }
        if switchSilencesTimer(at: t) {
            program.noteSwitch(p)
            note([], at: t)
            return
        }
        panel.closeList()
        note(program.switched(to: p, at: now.at(t)).map { ($0, t) }, at: t)
    }

    mutating func alarmChanged(at t: Instant) {
        panel.active(at: t)
        if alarms.isRinging { panel.closeList() }
    }

    // MARK: - What shows

    @inline(__always)  // (Machine+Quiet.swift)
    func presentation(at now: Now) -> Presentation {
        let t = now.monotonic
        if case .ringing(_, let since) = alarms.state {
            return Presentation(timeOfDay(now, blinkColon: false), motion: .wall, blink: Blinks.ringing(since))
        }
        if browsing(at: t), let list = panel.browser { return list.presentation(alarms.entries, digits: renderer.digits, at: t) }
        if let p = scrollPresentation(at: t) { return p }
        if panel.shownCounts.active {
            if let name = panel.label(at: t) { return Presentation(.text(name)) }
            if let i = panel.shownCounts.index { return presentation(of: timers.list[i], at: t) }
        }
        if let p = program.presentationInProgress(at: now) { return p }
        if case .snoozed(_, let until) = alarms.state { return Presentation(.down(max(until - t, .zero)), motion: .monotonic) }
        if clockShowing(at: t) { return Presentation(timeOfDay(now, blinkColon: settings.clock.blinkColon), motion: .wall) }
        return program.presentation(at: now)
    }

    /// The local time of day, or unknown while the clock is not synchronised.
    @inline(__always)  // (Machine+Quiet.swift)
    func timeOfDay(_ now: Now, blinkColon: Bool) -> DisplayContent {
        let c = settings.clock
        guard now.wallSynchronised || !c.requireSync else { return .timeOfDay(nil, twelveHour: false, blinkColon: false) }
        let local = now.wall.nanoseconds + Int64(c.zone.offset(at: now.wall)) * 1_000_000_000
        let day: Int64 = 86_400_000_000_000
        return .timeOfDay(.nanoseconds(((local % day) + day) % day), twelveHour: c.format == .h12, blinkColon: blinkColon)
    }

    /// When the panel changes by itself: the idle clock appearing, the alarm
    /// list's next view or its closing.
    func panelDeadline(at now: Now) -> Instant? {
        let t = now.monotonic
        if browsing(at: t), let list = panel.browser {
            return [list.lastPress + AlarmBrowser.leaveAfter, list.nextChange(after: t, digits: renderer.digits)].compactMap { $0 }.min()
        }
        let appears = panel.activeAt + settings.display.idleAfter
        return clockMayShow && appears > t ? appears : nil
    }
}

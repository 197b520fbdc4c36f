/// The extra timers on the panel (docs/timers.md): which count the display
/// shows, the two gestures, what the buttons do to an extra timer, and
/// the requests from outside.
///
/// The count shown, in order: the box's own count while it rings; the
/// first extra timer to have rung, while one rings; the count picked with a
/// long Stop (or paused with Stop), while it is in progress; the running count that ends soonest
/// (the box's own count when it has an end); the box's own count while it
/// is paused or edited; the first paused extra timer; the box's own count.
extension Machine {
    /// A count on the display: the box's own, or an extra timer by name.
    public enum CountRef: Equatable, Sendable {
        case main
        case extra(String)
    }

    /// The name shows for this long when the shown count changes, and again
    /// at each `labelEvery` while more than one count runs.
    static let labelFor: Duration = .seconds(1)
    static let labelEvery: Duration = .seconds(10)

    // MARK: - Which count shows

    /// The count the display shows and the buttons act on.
    public func focus(at t: Instant) -> CountRef {
        guard timers.anyActive else { return .main }
        if program.stateName == .ringing { return .main }
        if let h = timers.head { return .extra(timers.list[h].name) }
        if let pick = panel.pick, inProgress(pick) { return pick }
        var best: (CountRef, Instant)?
        if program.stateName == .running, let e = mainEnd { best = (.main, e) }
        for x in timers.list { if let e = x.ends, best.map({ e < $0.1 }) ?? true { best = (.extra(x.name), e) } }
        if let best { return best.0 }
        if program.stateName == .running || !program.isIdle { return .main }
        if let p = timers.list.first(where: { if case .paused = $0.state { true } else { false } }) { return .extra(p.name) }
        return .main
    }

    /// The instant the box's own count reaches its end, when it has one
    /// (a count-down, or a count-up to its preset).
    private var mainEnd: Instant? {
        guard case .count(let timer) = program, case .running(let run) = timer.lifecycle.state else { return nil }
        return timer.end(of: run)
    }

    /// The box's own count is always there to pick; an extra timer while
    /// it runs, is paused or rings.
    private func inProgress(_ ref: CountRef) -> Bool {
        switch ref {
        case .main: true
        case .extra(let name): timers.named(name)?.isActive ?? false
        }
    }

    /// The counts that run: the box's own and the extra ones.
    private var runningCount: Int {
        timers.list.count(where: \.isRunning) + (program.stateName == .running ? 1 : 0)
    }

    /// More than one count in progress: the display's last point is lit.
    private var severalCounts: Bool {
        guard timers.anyActive else { return false }
        return timers.list.count(where: \.isActive) + (program.isIdle ? 0 : 1) > 1
    }

    /// The counts in the order a long Stop steps through them: the box's
    /// own, then the extra timers in progress by when they end.
    private var stepOrder: [CountRef] {
        let extras = timers.list.filter(\.isActive).sorted { a, b in
            switch (a.ends, b.ends) {
            case let (x?, y?): x < y
            case (.some, nil): true
            default: false
            }
        }
        return [.main] + extras.map { .extra($0.name) }
    }

    // MARK: - What shows

    /// An extra timer's display: what is left, blinking while paused; its
    /// name flashing while it rings.
    @inline(__always)  // (Machine+Quiet.swift)
    func presentation(of x: ExtraTimer, at t: Instant) -> Presentation {
        switch x.state {
        case .running(let ends): Presentation(.down(max(ends - t, .zero)), motion: .monotonic)
        case .paused(let left, let at): Presentation(.down(left), blink: Blinks.paused(at))
        case .ringing(let ended, let since): Presentation(.text(drawn(x.label)), blink: Blinks.ringing(since ?? ended))
        case .done: Presentation(.down(.zero))
        }
    }

    /// What the display needs of the counts, worked out once per full
    /// batch (`noteFocus`): a quiet tick reads it, so it costs the same
    /// whatever the number of timers. Nothing in it changes but at an
    /// input or a deadline a quiet tick does not pass.
    struct CountsShown: Equatable, Sendable {
        /// Extra timers are in progress (else nothing below applies).
        var active = false
        /// The extra timer shown, by its place in `timers.list`.
        var index: Int?
        /// More than one count in progress: the last point lit.
        var several = false
        /// More than one count runs: the name comes back every `labelEvery`.
        var severalRun = false
        /// The name shown in place of the count (when its time comes), and
        /// since when the count it names is shown; nil while a ring shows.
        var label: String?
        var since: Instant?
    }

    /// A name as wide as the display at most: one given on an 8-digit
    /// display, kept in the state file, and read by a box whose file now
    /// says 4 digits shows its first 4.
    @inline(__always)  // (Machine+Quiet.swift)
    private func drawn(_ label: String) -> String {
        label.count <= renderer.digits ? label : String(label.prefix(renderer.digits))
    }

    /// At each full batch: which count shows and what the display needs of
    /// the counts (`panel.shownCounts`); a change of the shown count puts its name up.
    mutating func noteFocus(at t: Instant) {
        guard timers.anyActive else {
            if case .several = panel.counting { panel.timersIdle() }
            if panel.shownCounts.active { panel.shownCounts = CountsShown() }
            return
        }
        let f = focus(at: t)
        panel.label(f, at: t)
        var c = CountsShown(active: true, several: severalCounts, severalRun: runningCount > 1, since: panel.labelled?.since)
        switch f {
        case .main:
            c.label = program.stateName == .ringing ? nil : ExtraTimers.mainLabel
        case .extra(let name):
            c.index = timers.list.firstIndex { $0.name == name }
            c.label = timers.isRinging ? nil : c.index.map { drawn(timers.list[$0].label) }
        }
        panel.shownCounts = c
    }

    // MARK: - Buttons

    /// How a button acts while extra timers are in progress (nil: as the
    /// shown count's program says). Stop waits for its release (held, it
    /// steps to the next count); Start on a running count waits too (held,
    /// it adds a timer).
    func timerPressStyle(_ b: Button, at t: Instant) -> PressStyle? {
        let f = focus(at: t)
        if case .extra(let name) = f, timers.named(name).map({ if case .ringing = $0.state { true } else { false } }) ?? false {
            return .onPress
        }
        if b == .start, canAddByGesture(shown: f) { return .shortOrLong }
        guard timers.anyActive else { return nil }
        if b == .stop, program.stateName != .editing || f != .main { return .shortOrLong }
        if case .extra = f { return .onPress }
        return nil
    }

    /// A long Start adds a timer while the shown count runs, in the timer
    /// and stopwatch modes (the interval programs count rounds with Start).
    private func canAddByGesture(shown f: CountRef) -> Bool {
        guard case .count = program else { return false }
        switch f {
        case .main: return program.stateName == .running
        case .extra(let name): return timers.named(name)?.isRunning ?? false
        }
    }

    /// A press that the extra timers take (true), or leave to the program.
    mutating func routeToTimers(_ action: ButtonAction, at t: Instant, now: Now) -> Bool {
        let f = focus(at: t)
        if case .extra(let name) = f, timers.isRinging, timers.list[timers.head!].name == name {
            timers.silenceHead()
            settleTimers(at: t)
            note([], at: t)
            return true
        }
        if action == .longPressed(.start), canAddByGesture(shown: f) {
            addByGesture(at: t)
            note([], at: t)
            return true
        }
        guard timers.anyActive else { return false }
        if action == .longPressed(.stop) {
            let order = stepOrder
            let at = order.firstIndex(of: f) ?? 0
            panel.pick = order[(at + 1) % order.count]
            note([], at: t)
            return true
        }
        guard case .extra(let name) = f else {
            // Paused with Stop, the box's own count stays shown (and the
            // buttons stay on it) until stepped from, as an extra timer does.
            if action == .pressed(.stop), program.stateName == .running { panel.pick = .main }
            return false
        }
        do throws(Refusal) {
            switch action {
            case .pressed(.stop):
                try timers.pause(name, at: t)
                panel.pick = f  // it stays on the display, paused, until stepped from
            case .pressed(.start): try timers.resume(name, at: t)
            case .pressed(.reset):
                guard let x = timers.named(name), case .paused = x.state else { return noteNothing(at: t) }
                try timers.cancel(name)
            default: return noteNothing(at: t)
            }
        } catch {
            return noteNothing(at: t)
        }
        note([], at: t)
        return true
    }

    private mutating func noteNothing(at t: Instant) -> Bool {
        note(settings.alarm.chirp ? [(.no, t)] : [], at: t)
        return true
    }

    /// The next preset after the one the box's count (or the last gesture)
    /// took, under the first free name of t2...t9.
    private mutating func addByGesture(at t: Instant) {
        let presets = program.countTimer?.presets ?? settings.presets
        let next = ((panel.gesturePreset ?? program.countTimer?.presetIndex ?? 0) + 1) % presets.count
        guard let name = timers.freeGestureName, (try? timers.add(name, presets[next], digits: renderer.digits, ringFor: settings.alarm.ringFor, at: t)) != nil else {
            note(settings.alarm.chirp ? [(.no, t)] : [], at: t)
            return
        }
        panel.gesturePreset = next
        panel.pick = nil
    }

    /// A flip silences an extra timer ringing on the display (true).
    mutating func switchSilencesTimer(at t: Instant) -> Bool {
        guard case .extra = focus(at: t), timers.isRinging, timers.silenceHead() != nil else { return false }
        settleTimers(at: t)
        return true
    }

    // MARK: - Time

    /// What is due by `now`: ends, and the ring on the display.
    mutating func advanceTimers(to now: Now) {
        guard !timers.isEmpty else { return }
        let before = timers
        settleTimers(at: now.monotonic)
        if timers != before {
            time.changed(at: now.monotonic)
            panel.active(at: now.monotonic)
        }
    }

    /// Ends and rings up to `t`; the first queued ring comes on once
    /// nothing else rings on the display.
    mutating func settleTimers(at t: Instant) {
        let free = program.stateName != .ringing && !alarms.isRinging
        if !counts.settleTimers(at: t, free: free) { panel.timersIdle() }
    }

    var timersDeadline: Instant? { counts.timersDeadline }

    // MARK: - Requests

    /// `tock timer add|pause|resume|cancel` (never through the fleet group).
    mutating func timerRequest(_ r: ExtraTimers.Request, at now: Now) throws(Refusal) {
        let t = now.monotonic
        switch r {
        case .add(let name, let d):
            try timers.add(name, d, digits: renderer.digits, ringFor: settings.alarm.ringFor, at: t)
            panel.pick = nil
        case .pause(let name): try timers.pause(name, at: t)
        case .resume(let name): try timers.resume(name, at: t)
        case .cancel(let name): try timers.cancel(name)
        }
        settleTimers(at: t)
        time.changed(at: t)
        panel.active(at: t)
    }
}

/// Adding time to a count in progress, and taking it away (docs/timers.md,
/// "Adding time"): `tock add 2m [NAME]`, the page's "+1 min", MQTT, Home
/// Assistant, voice, and Reset on the box while the count shown runs.
///
/// The rule, the same for the box's own count and an extra timer:
/// - running or paused: the end moves by the amount; what is left stays
///   from 1 s to 99h59m, else the request is refused and nothing changes;
/// - ringing or done: the count counts the amount again from now, as a
///   microwave does (a count-up counts on from where it stopped to a
///   target that much further);
/// - ready, a stopwatch counting up, an interval program and a countdown
///   to a date: refused, with why.
public enum AddTime {
    /// What one press of Reset on the box adds (holding it repeats).
    public static let step: Duration = .seconds(60)
    /// The least and the most a count may have left once time is added.
    public static let leastLeft: Duration = .seconds(1)
    public static let mostLeft: Duration = Settings.longestPreset

    /// `d` with a sign and whole units, for a reply: `+1m`, `-30s`, `+1h2m3s`.
    public static func text(_ d: Duration) -> String {
        let sign = d < .zero ? "-" : "+"
        var n = abs(d.nanoseconds) / 1_000_000_000
        var out = ""
        if n >= 3600 { out += "\(n / 3600)h"; n %= 3600 }
        if n >= 60 { out += "\(n / 60)m"; n %= 60 }
        if n > 0 || out.isEmpty { out += "\(n)s" }
        return sign + out
    }

    /// What is left after adding `d` to `left`, or why not.
    static func check(left: Duration, adding d: Duration, name: String) throws(Machine.Refusal) -> Duration {
        let after = left + d
        guard after >= leastLeft else {
            throw Machine.Refusal("\(name) has \(text(left).dropFirst()) left; taking away \(text(d).dropFirst()) would leave less than 1s (cancel or reset it instead)")
        }
        guard after <= mostLeft else {
            throw Machine.Refusal("\(name) has \(text(left).dropFirst()) left; adding \(text(d).dropFirst()) would make it more than \(mostLeft.hoursMinutes), the longest a count has left")
        }
        return after
    }

    /// Time to count again from a count that rang: more than zero, at most
    /// the longest.
    static func checkAgain(_ d: Duration, name: String) throws(Machine.Refusal) {
        guard d > .zero else { throw Machine.Refusal("\(name) has ended; there is no time left to take away") }
        guard d <= mostLeft else { throw Machine.Refusal("\(mostLeft.hoursMinutes) is the longest a count counts") }
    }
}

extension CountTimer {
    /// What is left of the count at `t` (its lead-in not counted), while
    /// it runs or is paused and has an end.
    func left(at t: Instant) -> Duration? {
        guard let target else { return nil }
        switch lifecycle.state {
        case .running(let run): return target - max(run.elapsed(at: t), .zero)
        case .paused(let e, _): return target - max(e, .zero)
        default: return nil
        }
    }

    /// Add `d` (negative: take it away); see `AddTime`.
    mutating func addTime(_ d: Duration, at t: Instant) throws(Machine.Refusal) {
        let name = "the count"
        guard edit == nil else { throw Machine.Refusal("the preset is being edited on the box; Reset saves it first") }
        guard let target else {
            throw Machine.Refusal("a stopwatch counting up has no end to add to (the switch set to Down counts down from the preset)")
        }
        switch lifecycle.state {
        case .ready:
            throw Machine.Refusal("nothing is counting: start the count first (tock start), or change the preset (tock set)")
        case .running, .paused:
            _ = try AddTime.check(left: left(at: t)!, adding: d, name: name)
            let longer = target + d
            guard longer <= TimeBounds.longest else { throw Machine.Refusal("a count lasts at most 100 days in all") }
            length = longer
        case .ringing, .done:
            try AddTime.checkAgain(d, name: name)
            if direction == .down {
                length = d
                lifecycle.state = .running(Run(since: t))
            } else {
                // A count-up counts on from its target to one `d` further.
                guard target + d <= TimeBounds.longest else { throw Machine.Refusal("a count lasts at most 100 days in all") }
                length = target + d
                lifecycle.state = .running(Run(since: t, before: target))
            }
            overrunSince = nil
        }
    }
}

extension ExtraTimer {
    /// Add `d` (negative: take it away); see `AddTime`. `duration` is then
    /// the length of the count it makes (at most 99h59m: a longer one is
    /// told as 99h59m, its end unchanged).
    mutating func addTime(_ d: Duration, at t: Instant) throws(Machine.Refusal) {
        let next: State
        switch state {
        case .running(let ends):
            _ = try AddTime.check(left: max(ends - t, .zero), adding: d, name: name)
            next = .running(ends: ends + d)
        case .paused(let left, let at):
            next = .paused(left: try AddTime.check(left: left, adding: d, name: name), at: at)
        case .ringing, .done:
            try AddTime.checkAgain(d, name: name)
            duration = d
            state = .running(ends: t + d)
            return
        }
        duration = min(max(duration + d, AddTime.leastLeft), Settings.longestPreset)
        if case .paused(let left, _) = next, duration < left { duration = left }
        state = next
    }
}

extension ExtraTimers {
    mutating func addTime(_ name: String, _ d: Duration, at t: Instant) throws(Machine.Refusal) {
        guard let i = list.firstIndex(where: { $0.name == name }) else {
            let names = list.map(\.name)
            throw Machine.Refusal("no timer named \(name)" + (names.isEmpty ? "" : " (timers: \(names.joined(separator: ", ")))"))
        }
        try list[i].addTime(d, at: t)
    }
}

extension Machine {
    /// Add `d` to a count (negative: take it away): the box's own count
    /// goes through the fleet group, like a press; an extra timer is this
    /// box's own.
    mutating func addTime(_ d: Duration, to ref: CountRef, at now: Now) throws(Refusal) {
        guard d != .zero else { throw Refusal("add needs an amount other than 0 (1m adds a minute, -1m takes one away)") }
        let t = now.monotonic
        switch ref {
        case .main:
            guard case .count(var timer) = program else {
                throw Refusal(settings.mode == .countdown
                    ? "a countdown ends at its date (countdown.until); time is added to the timer (tock mode timer) and to extra timers"
                    : "an interval program's rounds keep their lengths; time is added to the timer (tock mode timer) and to extra timers")
            }
            try timer.addTime(d, at: t)
            if try sentToGroup(.add, .addTime(d, .main), at: now) { return }
            program = .count(timer)
        case .extra(let name):
            try timers.addTime(name, d, at: t)
            settleTimers(at: t)
            time.changed(at: t)
        }
        panel.active(at: t)
        note([], at: t)
    }

    /// The count a name means: `t1` (or nothing) the box's own count, any
    /// other an extra timer (refused there when there is none).
    public static func countRef(named name: String?) -> CountRef {
        guard let name, name != ExtraTimers.mainLabel else { return .main }
        return .extra(name)
    }

    // MARK: - On the box

    /// Reset on the count shown: while it runs, adds a minute at once and
    /// again while held (`repeating`); while a count-down rings, held for
    /// a long press, counts a minute again (a short press still silences
    /// and resets, on release).
    func addPressStyle(_ b: Button, at t: Instant) -> PressStyle? {
        guard b == .reset else { return nil }
        switch addable(at: t) {
        case .running?: return .repeating
        case .ringing?: return .shortOrLong
        default: return nil
        }
    }

    /// The state of the count shown when Reset would add to it.
    private func addable(at t: Instant) -> StateName? {
        switch focus(at: t) {
        case .main:
            guard case .count(let c) = program, c.target != nil else { return nil }
            return [.running, .ringing].contains(c.stateName) ? c.stateName : nil
        case .extra(let name):
            guard let x = timers.named(name) else { return nil }
            if case .ringing(_, .some) = x.state { return .ringing }
            return x.isRunning ? .running : nil
        }
    }

    /// A press of Reset that adds time (true), with a "no" chirp when the
    /// count is at its limit.
    mutating func addByPress(_ action: ButtonAction, at t: Instant, now: Now) -> Bool {
        switch (action, addable(at: t)) {
        case (.pressed(.reset), .running?), (.repeated(.reset), .running?), (.longPressed(.reset), .ringing?): break
        default: return false
        }
        do throws(Refusal) {
            try addTime(AddTime.step, to: focus(at: t), at: now.at(t))
        } catch {
            note(settings.alarm.chirp ? [(.no, t)] : [], at: t)
        }
        return true
    }
}

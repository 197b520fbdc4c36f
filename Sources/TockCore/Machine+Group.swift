/// A fleet group: boxes that show the same program in step.
///
/// While the group is reachable, a press that would change the program
/// (Start, Stop, Reset, a new preset or mode) is not applied at once: the
/// core works out the program as it will be at the press's instant plus
/// the group's lead, and hands that out as a `GroupChange`. The shell
/// sends it to every member, this box included, and each one adopts it at
/// that wall-clock instant, counting from it on its own clock. A press that
/// changes nothing (a refusal with its chirp) and the editing steps before
/// a preset is committed stay local. With the group out of reach, presses
/// act at once, as on a box without a group.
public struct GroupChange: Equatable, Sendable {
    /// The agreed instant.
    public var at: WallTime
    /// What caused it.
    public var press: Press
    /// The program as it is from `at` on.
    public var state: Snapshot.Count

    /// What caused a change: a button, or a request from outside the
    /// panel (the raw value is what the group message carries).
    public enum Press: String, CaseIterable, Sendable {
        case start, stop, reset, set, mode, program
        /// Time added to (or taken from) the count (`tock add`).
        case add

        init(_ button: Button) {
            switch button {
            case .start: self = .start
            case .stop: self = .stop
            case .reset: self = .reset
            }
        }
    }

    public init(at: WallTime, press: Press, state: Snapshot.Count) {
        self.at = at
        self.press = press
        self.state = state
    }
}

extension Machine {
    /// The change `action` at `now` makes to the group, if it is to go
    /// through the group rather than act here and now.
    func groupChange(for action: ButtonAction, at now: Now) -> GroupChange? {
        guard let then = groupInstant(after: now) else { return nil }
        var base = program
        _ = base.advance(to: then)
        var pressed = base
        _ = pressed.handle(action, at: then)
        let after = pressed.saved(at: then)
        guard after != base.saved(at: then) else { return nil }
        let button: Button
        switch action {
        case .pressed(let b), .longPressed(let b), .repeated(let b): button = b
        }
        return GroupChange(at: then.wall, press: .init(button), state: after)
    }

    /// `now` plus the group's lead, when presses go through the group.
    func groupInstant(after now: Now) -> Now? {
        group.instant(after: now, lead: settings.group?.lead)
    }

    /// A change from outside the panel (`set`, `mode`), worked out on a
    /// copy at the agreed instant and handed to the group; false when it is
    /// to act here at once.
    mutating func sentToGroup(_ press: GroupChange.Press, _ request: Input, at now: Now) throws(Refusal) -> Bool {
        guard let then = groupInstant(after: now) else { return false }
        var copy = self
        copy.group = GroupLink()
        copy.alarmPart.notices = []
        if let refusal = copy.handle(request, at: then).refusal { throw refusal }
        group.send(GroupChange(at: then.wall, press: press, state: copy.program.saved(at: then)))
        return true
    }

    /// Take the group's program, as of its instant: a running count counts
    /// from that instant on this box's clock; the daily alarms stay this
    /// box's own. A mode this box cannot show (a countdown without
    /// `countdown.until`) is refused.
    mutating func adoptGroup(_ state: Snapshot.Count, at now: Now) throws(Refusal) {
        let mode = state.mode  // (a mode this core does not know is refused where the message is decoded)
        if mode == settings.mode {
            let before = program.intervalProgram
            program.restore(state, at: now)
            if let before, case .interval(var p) = program {
                p.adopted(from: before, at: now.monotonic)
                program = .interval(p)
            }
        } else {
            guard mode != .countdown || settings.countdownUntil != nil else {
                throw Refusal("the group shows a countdown, which needs countdown.until in this box's configuration file")
            }
            var snap = snapshot(at: now)
            snap.count = state
            snap.fileMode = fileMode
            var file = settings
            file.mode = fileMode
            var next = Machine(settings: file, switchPosition: input.switchPosition, restoring: snap, at: now)
            carryOver(to: &next)
            self = next
        }
        panel.closeList()
        note([], at: now.monotonic)
    }

    /// What a rebuilt appliance keeps from this one: what the outputs show,
    /// the offset its state file's instants are written at, the group's
    /// link, and reports not yet handed out.
    func carryOver(to next: inout Machine) {
        next.reported.shown = reported.shown
        next.reported.wallOffset = reported.wallOffset
        next.group = group
        next.alarmPart.notices = alarmPart.notices
    }
}

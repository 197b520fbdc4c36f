/// The fleet group's link as the machine sees it (Machine+Group.swift):
/// whether presses go through the group, and the changes handed to it
/// during the call in progress.
extension Machine {
    struct GroupLink: Sendable {
        enum State: Sendable {
            /// No group, or out of reach: presses act at once.
            case alone
            /// Reachable: a press that changes the program goes through it.
            case linked
        }

        private(set) var state = State.alone
        /// Changes raised during the call in progress; handed out and
        /// emptied before it returns.
        var changes: [GroupChange] = []

        var isLinked: Bool {
            if case .linked = state { return true }
            return false
        }

        /// The group became reachable or unreachable.
        mutating func linkChanged(_ up: Bool) { state = up ? .linked : .alone }

        /// `now` plus the group's `lead`, when presses go through the group.
        func instant(after now: Now, lead: Duration?) -> Now? {
            guard let lead, isLinked else { return nil }
            return Now(monotonic: now.monotonic + lead, wall: now.wall + lead, wallSynchronised: now.wallSynchronised)
        }

        mutating func send(_ change: GroupChange) { changes.append(change) }

        /// The changes raised since the last call, handed out once.
        mutating func takeChanges() -> [GroupChange] {
            var taken: [GroupChange] = []
            swap(&taken, &changes)
            return taken
        }
    }
}

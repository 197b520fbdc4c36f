/// The order of time the machine keeps: how far it has applied what
/// happened, and its last change of state.
extension Machine {
    struct Timeline: Sendable {
        /// Everything up to this instant has been applied.
        var processed: Instant
        /// Actions are never applied before the last change of state, so a
        /// press dated at its first edge cannot reorder itself with an end
        /// that was already shown.
        var lastChange: Instant

        init(at t: Instant) { (processed, lastChange) = (t, t) }

        mutating func applied(to t: Instant) { processed = max(processed, t) }
        mutating func changed(at t: Instant) { lastChange = max(lastChange, t) }
    }
}

import TockCore

/// Who holds the control socket's connections and for how long: the
/// rules, apart from the sockets, so that they run on virtual time.
///
/// Every phase of a connection is bounded by `idleLimit`: connected with
/// nothing sent, a request sent halfway (the limit counts from its first
/// byte, so a client dribbling a byte at a time gains nothing), and idle
/// after a reply. A watcher is exempt, since waiting is what it is for;
/// it is dropped instead when it stops reading (the server's business).
///
/// When every slot is taken, a newcomer is always admitted and the
/// connection idle longest is closed to make room, rather than the
/// newcomer being refused: refusing would let a few silent clients lock
/// the command line out for as long as they keep reconnecting, while
/// evicting costs a legitimate client nothing it cannot redo (a
/// connection idle between requests, or a watcher that reconnects). A
/// reserved slot would not help: whoever is hostile can take it too.
/// Connections that are not watching go first, as they are the ones with
/// a deadline anyway; among watchers, the oldest.
public struct ControlSlots {
    public enum Phase: Equatable {
        /// Connected, or answered, with nothing of a next request yet.
        case idle
        /// Part of a request line has arrived.
        case partial
        case watching
    }

    /// Why a connection is closed.
    public enum Closing: Equatable {
        case idle, unfinished, evicted
    }

    public struct Slot: Equatable {
        public var phase: Phase
        /// When the current phase began.
        var since: Instant
    }

    let capacity: Int
    public let idleLimit: Duration
    public private(set) var slots: [CInt: Slot] = [:]

    public init(capacity: Int, idleLimit: Duration) {
        precondition(capacity > 0)
        self.capacity = capacity
        self.idleLimit = idleLimit
    }

    /// A connection arrived at `t`; returns the one to close first to make
    /// room, if every slot was taken.
    public mutating func admit(_ id: CInt, at t: Instant) -> CInt? {
        var evicted: CInt?
        if slots.count >= capacity {
            evicted = slots.min { a, b in
                let aw = a.value.phase == .watching, bw = b.value.phase == .watching
                if aw != bw { return bw }
                return (a.value.since, a.key) < (b.value.since, b.key)
            }?.key
            if let evicted { slots[evicted] = nil }
        }
        slots[id] = Slot(phase: .idle, since: t)
        return evicted
    }

    /// Bytes of a request arrived and none completed it.
    public mutating func requestBegan(_ id: CInt, at t: Instant) {
        guard let s = slots[id], s.phase == .idle else { return }
        slots[id] = Slot(phase: .partial, since: t)
    }

    /// A request line was answered; `watch` made the connection a watcher.
    public mutating func answered(_ id: CInt, watch: Bool, at t: Instant) {
        guard let s = slots[id] else { return }
        if s.phase == .watching || watch {
            slots[id] = Slot(phase: .watching, since: s.phase == .watching ? s.since : t)
        } else {
            slots[id] = Slot(phase: .idle, since: t)
        }
    }

    public mutating func remove(_ id: CInt) { slots[id] = nil }

    /// When the next connection runs out of time; nil when none can.
    public var deadline: Instant? {
        slots.values.filter { $0.phase != .watching }.map { $0.since + idleLimit }.min()
    }

    /// The connections out of time at `t`, removed, with why.
    public mutating func expire(at t: Instant) -> [(id: CInt, why: Closing)] {
        let out = slots.filter { $0.value.phase != .watching && $0.value.since + idleLimit <= t }
            .sorted { $0.key < $1.key }
            .map { (id: $0.key, why: $0.value.phase == .partial ? Closing.unfinished : .idle) }
        for (id, _) in out { slots[id] = nil }
        return out
    }
}

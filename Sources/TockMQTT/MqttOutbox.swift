/// Which message goes to the broker next, and what waits.
///
/// Two kinds of message, each bounded:
/// - **QoS 1** (the discovery configs, availability, the group's message,
///   replies and events): at most `maxInFlight` await their
///   acknowledgement; beyond that a retained one waits for room (only the
///   latest of each topic), anything else is dropped.
/// - **State values** (`<prefix>/<key>`, QoS 0, retained): the latest of a
///   topic is all that matters, and all are sent again on connecting, so
///   they need no acknowledgement (a PUBACK fewer to read for each). One goes
///   only while the link has no backlog (libmosquitto has nothing unsent;
///   the kernel holds at most `MqttClient.unsentBound` bytes, its
///   `TCP_NOTSENT_LOWAT`); otherwise it waits, replacing the value of its
///   topic that waited, and goes when the backlog clears.
///
/// Home Assistant's discovery configs (about 16 KiB on connecting, every
/// one of them retained) are at most `maxDiscoveryInFlight` at a time, and
/// the box's own topics go first: on a slow link a change made while the
/// configs go out (a count ringing) waits behind a few of them, not behind
/// all of them, which on a link of 500 bytes a second took longer than
/// the count.
struct MqttOutbox {
    static let maxInFlight = 32
    static let maxDiscoveryInFlight = 4

    enum Admission: Equatable { case send, wait, drop }

    /// A retained message waiting: a state value (QoS 0) waits for the
    /// backlog to clear, the others for room in flight.
    struct Waiting: Equatable {
        let topic: String
        let payload: [UInt8]
        let value: Bool
    }

    /// `<discovery_prefix>/`.
    let discovery: String
    /// Message ids awaiting their acknowledgement, and whether each is a
    /// discovery config.
    private(set) var inFlight: [Int32: Bool] = [:]
    /// Retained messages waiting, oldest first.
    private(set) var waiting: [Waiting] = []

    init(discoveryPrefix: String) { discovery = discoveryPrefix + "/" }

    private func isDiscovery(_ topic: String) -> Bool { topic.hasPrefix(discovery) }
    private var discoveryInFlight: Int { inFlight.values.count { $0 } }

    private func hasRoom(for topic: String) -> Bool {
        guard inFlight.count < Self.maxInFlight else { return false }
        return !isDiscovery(topic) || discoveryInFlight < Self.maxDiscoveryInFlight
    }

    private func canGo(_ w: Waiting, backlog: Bool) -> Bool { w.value ? !backlog : hasRoom(for: w.topic) }

    private mutating func forget(_ topic: String) {
        if !waiting.isEmpty { waiting.removeAll { $0.topic == topic } }
    }

    /// A QoS 1 message to publish: send it now, or it waits (replacing the
    /// value of its topic that waited), or there is no room for it.
    mutating func offer(_ topic: String, _ payload: [UInt8], retain: Bool) -> Admission {
        if retain { forget(topic) }
        // A discovery config keeps its place behind those already waiting.
        if hasRoom(for: topic), !(isDiscovery(topic) && waiting.contains { isDiscovery($0.topic) }) { return .send }
        guard retain else { return .drop }
        waiting.append(Waiting(topic: topic, payload: payload, value: false))
        return .wait
    }

    /// A state value to publish: send it now (QoS 0), or, while the link
    /// has a backlog, it waits in place of the value of its topic that did.
    mutating func offerValue(_ topic: String, _ value: String, backlog: Bool) -> Admission {
        forget(topic)
        guard backlog else { return .send }
        waiting.append(Waiting(topic: topic, payload: Array(value.utf8), value: true))
        return .wait
    }

    /// The client library took QoS 1 message `mid` for `topic`.
    mutating func sent(_ mid: Int32, topic: String) { inFlight[mid] = isDiscovery(topic) }

    /// Message `mid` was acknowledged: whether it was one in flight.
    @discardableResult
    mutating func acknowledged(_ mid: Int32) -> Bool { !inFlight.isEmpty && inFlight.removeValue(forKey: mid) != nil }

    /// The waiting message to send now, if one can go: the box's own
    /// topics first, then the discovery configs in their order.
    mutating func next(backlog: Bool) -> Waiting? {
        if let i = waiting.firstIndex(where: { !isDiscovery($0.topic) && canGo($0, backlog: backlog) }) {
            return waiting.remove(at: i)
        }
        // No config overtakes a topic of the box's that waits.
        guard !waiting.contains(where: { !isDiscovery($0.topic) }), let first = waiting.first,
              canGo(first, backlog: backlog) else { return nil }
        return waiting.removeFirst()
    }

    /// The link is down: nothing is in flight or waits any more.
    mutating func clear() {
        inFlight = [:]
        waiting = []
    }
}

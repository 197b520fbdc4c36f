/// Which QoS 1 message goes to the broker next: at most `maxInFlight`
/// await their acknowledgement, retained values wait for room (only the
/// latest of each topic), anything else is dropped when there is none.
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

    /// `<discovery_prefix>/`.
    let discovery: String
    /// Message ids awaiting their acknowledgement, and whether each is a
    /// discovery config.
    private(set) var inFlight: [Int32: Bool] = [:]
    /// Retained values waiting for room, oldest first.
    private(set) var waiting: [(topic: String, payload: [UInt8])] = []

    init(discoveryPrefix: String) { discovery = discoveryPrefix + "/" }

    private func isDiscovery(_ topic: String) -> Bool { topic.hasPrefix(discovery) }
    private var discoveryInFlight: Int { inFlight.values.count { $0 } }

    private func hasRoom(for topic: String) -> Bool {
        guard inFlight.count < Self.maxInFlight else { return false }
        return !isDiscovery(topic) || discoveryInFlight < Self.maxDiscoveryInFlight
    }

    /// A message to publish: send it now, or it waits (replacing the value
    /// of its topic that waited), or there is no room for it.
    mutating func offer(_ topic: String, _ payload: [UInt8], retain: Bool) -> Admission {
        if retain { waiting.removeAll { $0.topic == topic } }
        // A discovery config keeps its place behind those already waiting.
        if hasRoom(for: topic), !(isDiscovery(topic) && waiting.contains { isDiscovery($0.topic) }) { return .send }
        guard retain else { return .drop }
        waiting.append((topic, payload))
        return .wait
    }

    /// The client library took message `mid` for `topic`.
    mutating func sent(_ mid: Int32, topic: String) { inFlight[mid] = isDiscovery(topic) }

    mutating func acknowledged(_ mid: Int32) { inFlight[mid] = nil }

    /// The waiting value to send now, if there is room: the box's own
    /// topics first, then the discovery configs in their order.
    mutating func next() -> (topic: String, payload: [UInt8])? {
        guard let i = waiting.firstIndex(where: { !isDiscovery($0.topic) }) ?? waiting.indices.first,
              hasRoom(for: waiting[i].topic) else { return nil }
        return waiting.remove(at: i)
    }

    /// The link is down: nothing is in flight or waits any more.
    mutating func clear() {
        inFlight = [:]
        waiting = []
    }
}

import TockCore

/// The last value sent on each state topic and when, cleared on connecting
/// (so everything is sent again); the bridge's flush sends what changed
/// too soon after.
///
/// Each topic has a slot, made the first time its key is seen, holding its
/// whole topic name: a pass over the topics that follow the count's time
/// (`MqttStateTopics.clockKeys`, the first slots, in their order) finds
/// them by position, and no pass builds a topic name again
/// (`make bench-tick`).
struct MqttPublished {
    struct Sent {
        let topic: String
        var value: String?
        var at: Instant?
    }

    let prefix: String
    private(set) var slots: [Sent] = []
    private var index: [String: Int] = [:]

    init(prefix: String) {
        self.prefix = prefix
        for key in MqttStateTopics.clockKeys { _ = slot(key) }
    }

    /// The slot of `<prefix>/<key>`.
    mutating func slot(_ key: String) -> Int {
        if let i = index[key] { return i }
        slots.append(Sent(topic: "\(prefix)/\(key)"))
        index[key] = slots.count - 1
        return slots.count - 1
    }

    subscript(slot i: Int) -> Sent {
        get { slots[i] }
        _modify { yield &slots[i] }
    }

    /// The value last sent on `<prefix>/<key>`.
    func value(_ key: String) -> String? { index[key].flatMap { slots[$0].value } }

    /// Connected again: nothing has been sent.
    mutating func forget() {
        for i in slots.indices {
            slots[i].value = nil
            slots[i].at = nil
        }
    }
}

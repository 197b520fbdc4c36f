import TockCore
import TockJSON
import TockLoop
@testable import TockHost
@testable import TockMQTT

/// A broker on virtual time for the bridge and the group: retained topics,
/// subscriptions, delivery after `latency`, a member cut off (its messages
/// and the broker's to it are lost) and one that stops reading (what the
/// broker sends it waits).
final class VirtualBroker {
    let loop: VirtualLoop
    var latency: Duration = .milliseconds(20)
    private(set) var retained: [String: [UInt8]] = [:]
    private(set) var links: [VirtualLink] = []
    /// Every publish that reached the broker: (client, topic, payload, retain).
    private(set) var log: [(client: String, topic: String, payload: String, retain: Bool)] = []

    init(loop: VirtualLoop) { self.loop = loop }

    func link(_ id: String) -> VirtualLink {
        let l = VirtualLink(id: id, broker: self)
        links.append(l)
        return l
    }

    func published(on topic: String, by client: String? = nil) -> [String] {
        log.filter { $0.topic == topic && (client == nil || $0.client == client) }.map(\.payload)
    }

    fileprivate func publish(from link: VirtualLink, _ topic: String, _ payload: [UInt8], retain: Bool) {
        loop.schedule(at: .monotonic(loop.instant + latency)) { [self] in
            guard link.link == .connected else { return }  // lost with the connection
            log.append((link.id, topic, String(decoding: payload, as: UTF8.self), retain))
            if retain { retained[topic] = payload.isEmpty ? nil : payload }
            for l in links where l.link == .connected && l.topics.contains(topic) {
                loop.schedule(at: .monotonic(loop.instant + latency)) { l.deliver(topic, payload, retained: false) }
            }
        }
    }

    fileprivate func subscribed(_ link: VirtualLink, _ topic: String) {
        guard let payload = retained[topic] else { return }
        loop.schedule(at: .monotonic(loop.instant + latency)) { link.deliver(topic, payload, retained: true) }
    }
}

/// One member's link to the `VirtualBroker`.
final class VirtualLink: MqttTransport {
    let id: String
    unowned let broker: VirtualBroker
    private(set) var link = MqttLink.down
    private(set) var topics: Set<String> = []
    var onConnected: (() -> Void)?
    var onDisconnected: (() -> Void)?
    var onMessage: ((String, UnsafeRawBufferPointer, Bool) -> Void)?
    private(set) var connects = 0
    /// Every publish the member made while connected, when it made it (the
    /// broker's log has them later, by its latency).
    private(set) var sent: [(at: Instant, topic: String, payload: String)] = []
    var status: JSONObject { ["link": .string(link.rawValue)] }

    init(id: String, broker: VirtualBroker) {
        self.id = id
        self.broker = broker
    }

    func start() { connect() }

    /// The broker accepts the connection one latency later.
    func connect() {
        link = .connecting
        broker.loop.schedule(at: .monotonic(broker.loop.instant + broker.latency)) { [self] in
            link = .connected
            connects += 1
            onConnected?()
        }
    }

    /// The connection drops (a cable pulled, the broker restarted).
    func drop() {
        link = .down
        topics = []
        onDisconnected?()
    }

    func publish(_ topic: String, _ payload: [UInt8], retain: Bool) {
        guard link == .connected else { return }
        sent.append((broker.loop.instant, topic, String(decoding: payload, as: UTF8.self)))
        broker.publish(from: self, topic, payload, retain: retain)
    }

    func publishValue(_ topic: String, _ value: String) { publish(topic, Array(value.utf8), retain: true) }

    func subscribe(_ topic: String) {
        topics.insert(topic)
        broker.subscribed(self, topic)
    }

    func close() { link = .down }
    func measure(_ body: () -> Void) { body() }

    fileprivate func deliver(_ topic: String, _ payload: [UInt8], retained: Bool) {
        guard link == .connected, topics.contains(topic) else { return }
        payload.withUnsafeBytes { onMessage?(topic, $0, retained) }
    }

    /// A message from outside (a person's mosquitto_pub), as the broker relays it.
    func inject(_ topic: String, _ text: String, retained: Bool = false) {
        deliver(topic, Array(text.utf8), retained: retained)
    }
}

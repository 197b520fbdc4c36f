import TockJSON
/// The state of the link to the broker.
public enum MqttLink: String { case down, connecting, connected }

/// What the bridge and the group need of an MQTT connection: publish,
/// subscribe, and hear of connecting, losing the link and messages.
/// `MqttClient` is the real one (libmosquitto); the tests drive the bridge
/// and the group on virtual time through one of their own, with no broker.
public protocol MqttTransport: AnyObject {
    var link: MqttLink { get }
    /// Connected: subscribe and publish everything.
    var onConnected: (() -> Void)? { get set }
    /// The link went down (presses stop going through a group).
    var onDisconnected: (() -> Void)? { get set }
    /// A message on a subscribed topic; `retained` when the broker kept it
    /// from before (sent on subscribing), not one published just now.
    var onMessage: ((_ topic: String, _ payload: UnsafeRawBufferPointer, _ retained: Bool) -> Void)? { get set }
    /// Start connecting (it completes on the loop).
    func start()
    /// Publish with QoS 1 (while connected; nothing is queued while down).
    func publish(_ topic: String, _ payload: [UInt8], retain: Bool)
    /// Publish a state value (`<prefix>/<key>`): retained, QoS 0, only its
    /// topic's latest kept while the link has a backlog.
    func publishValue(_ topic: String, _ value: String)
    func subscribe(_ topic: String)
    /// Say `offline` and close.
    func close()
    /// Runs MQTT work, timed for the status (`worst_stall_us`).
    func measure(_ body: () -> Void)
    /// The link's part of the status.
    var status: JSONObject { get }
}

extension MqttTransport {
    public func publish(_ topic: String, _ payload: [UInt8]) { publish(topic, payload, retain: true) }
}

import CMosquitto
import TockCore

/// Publishing: QoS 1 messages bounded by their acknowledgements, state
/// values (QoS 0) by the link's backlog (`MqttOutbox`).
extension MqttClient {
    /// Publish with QoS 1. Retained values are state: only the latest of
    /// each matters, so they wait for room in flight; anything else (a
    /// reply) is dropped when there is none (`MqttOutbox`).
    public func publish(_ topic: String, _ payload: [UInt8], retain: Bool) {
        guard link == .connected else { return }
        switch outbox.offer(topic, payload, retain: retain) {
        case .send: payload.withUnsafeBytes { send(topic, $0, retain: retain, qos: 1) }
        case .wait: break
        case .drop: dropped += 1
        }
    }

    /// Publish a state value: retained, QoS 0, at once unless the link has
    /// a backlog, when it waits in place of its topic's older value.
    public func publishValue(_ topic: String, _ value: String) {
        guard link == .connected, outbox.offerValue(topic, value, backlog: tock_mosquitto_want_write(mosq)) == .send else { return }
        var value = value
        value.withUTF8 { send(topic, UnsafeRawBufferPointer($0), retain: true, qos: 0) }
    }

    /// A QoS 1 message was acknowledged (or a QoS 0 one written whole:
    /// nothing to do, `sync` sends what waited for a backlog to clear).
    func acknowledged(_ mid: CInt) {
        guard outbox.acknowledged(mid) else { return }
        sendWaiting()
    }

    /// What waited and can go now: room in flight, or no backlog.
    func sendWaiting() {
        while let w = outbox.next(backlog: tock_mosquitto_want_write(mosq)) {
            w.payload.withUnsafeBytes { send(w.topic, $0, retain: true, qos: w.value ? 0 : 1) }
        }
    }

    private func send(_ topic: String, _ payload: UnsafeRawBufferPointer, retain: Bool, qos: CInt) {
        var mid: CInt = 0
        let rc = topic.withCString { tock_mosquitto_publish(mosq, &mid, $0, CInt(payload.count), payload.baseAddress, qos, retain) }
        if rc == MOSQ_ERR_SUCCESS.rawValue { if qos > 0 { outbox.sent(mid, topic: topic) } } else if rc != MOSQ_ERR_NO_CONN.rawValue {
            publishFailedLog(.error, "mqtt: cannot publish to \(topic): \(Self.text(rc))")
        }
    }
}

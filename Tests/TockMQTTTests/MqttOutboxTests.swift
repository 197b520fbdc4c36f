import Testing
@testable import TockMQTT

/// Which message goes next on a link that acknowledges slowly: the box's
/// own topics never wait behind more than a few discovery configs.
@Suite struct MqttOutboxTests {
    var box = MqttOutbox(discoveryPrefix: "homeassistant")
    var mid: Int32 = 0

    /// Offer and, when admitted, hand to the library as the client does.
    mutating func publish(_ topic: String, _ value: String = "v", retain: Bool = true) -> MqttOutbox.Admission {
        let a = box.offer(topic, Array(value.utf8), retain: retain)
        if a == .send { mid += 1; box.sent(mid, topic: topic) }
        return a
    }

    /// The next waiting value, handed to the library as the client does.
    mutating func sendNext() -> (topic: String, payload: [UInt8])? {
        guard let w = box.next() else { return nil }
        mid += 1
        box.sent(mid, topic: w.topic)
        return w
    }

    func config(_ n: Int) -> String { "homeassistant/sensor/kitchen/e\(n)/config" }

    @Test mutating func onConnectingTheConfigsGoOutAFewAtATimeAndAChangeOvertakesThem() {
        for t in ["state", "display", "mode"] { #expect(publish("tock/kitchen/\(t)") == .send) }
        let admitted = (1...24).map { publish(config($0)) }
        #expect(admitted.filter { $0 == .send }.count == MqttOutbox.maxDiscoveryInFlight)
        #expect(box.waiting.count == 24 - MqttOutbox.maxDiscoveryInFlight)
        // A count rings meanwhile: its state goes at once, ahead of 20 configs.
        #expect(publish("tock/kitchen/state", "ringing") == .send)
        // One config acknowledged: the next one in order goes.
        box.acknowledged(4)
        #expect(sendNext()?.topic == config(MqttOutbox.maxDiscoveryInFlight + 1))
        #expect(sendNext() == nil)
    }

    @Test mutating func aFullWindowKeepsTheLatestValueOfATopicAndTheBoxsTopicsFirst() {
        for n in 0..<MqttOutbox.maxInFlight { #expect(publish("tock/kitchen/t\(n)") == .send) }
        #expect(publish(config(1)) == .wait)
        #expect(publish("tock/kitchen/state", "running") == .wait)
        #expect(publish("tock/kitchen/state", "ringing") == .wait)
        #expect(publish("tock/kitchen/reply", retain: false) == .drop)
        #expect(box.waiting.map(\.topic) == [config(1), "tock/kitchen/state"])
        box.acknowledged(1)
        let first = sendNext()
        #expect(first?.topic == "tock/kitchen/state" && first?.payload == Array("ringing".utf8))
        #expect(sendNext() == nil)  // the window is full again
        box.acknowledged(2)
        #expect(sendNext()?.topic == config(1))
        box.clear()
        #expect(box.inFlight.isEmpty && box.waiting.isEmpty)
    }
}

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
    mutating func sendNext(backlog: Bool = false) -> MqttOutbox.Waiting? {
        guard let w = box.next(backlog: backlog) else { return nil }
        if !w.value {
            mid += 1
            box.sent(mid, topic: w.topic)
        }
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

    /// State values (QoS 0) need no room in flight: they go while the link
    /// has no backlog, and during one only the latest of each topic waits.
    @Test mutating func aStateValueGoesAtOnceUnlessTheLinkHasABacklogAndThenOnlyTheLatestWaits() {
        // A full window of QoS 1 messages does not hold a value back.
        for n in 0..<MqttOutbox.maxInFlight { #expect(publish("tock/kitchen/t\(n)") == .send) }
        #expect(box.offerValue("tock/kitchen/display", "9:59", backlog: false) == .send)
        #expect(box.waiting.isEmpty && box.inFlight.count == MqttOutbox.maxInFlight)
        // A backlog: a minute of seconds keeps one value per topic.
        for s in (0..<60).reversed() {
            #expect(box.offerValue("tock/kitchen/display", "8:\(s)", backlog: true) == .wait)
            #expect(box.offerValue("tock/kitchen/remaining_ms", "\(s * 1000)", backlog: true) == .wait)
        }
        #expect(box.waiting == [MqttOutbox.Waiting(topic: "tock/kitchen/display", payload: Array("8:0".utf8), value: true),
                                MqttOutbox.Waiting(topic: "tock/kitchen/remaining_ms", payload: Array("0".utf8), value: true)])
        // Nothing goes while the backlog lasts, acknowledgements or not.
        #expect(sendNext(backlog: true) == nil)
        box.acknowledged(1)
        #expect(sendNext(backlog: true) == nil)
        // It cleared: the values go, oldest first.
        #expect(sendNext()?.topic == "tock/kitchen/display")
        #expect(sendNext()?.topic == "tock/kitchen/remaining_ms")
        #expect(sendNext() == nil && box.inFlight.count == MqttOutbox.maxInFlight - 1)
    }

    /// A topic published both ways (an alarm's switch emptied with QoS 1
    /// when the alarm is deleted) keeps whichever came last.
    @Test mutating func aTopicKeepsItsLatestMessageWhicheverWayItWaits() {
        for n in 0..<MqttOutbox.maxInFlight { #expect(publish("tock/kitchen/t\(n)") == .send) }
        #expect(box.offerValue("tock/kitchen/alarm_2", "ON", backlog: true) == .wait)
        #expect(publish("tock/kitchen/alarm_2", "") == .wait)
        #expect(box.waiting.map(\.value) == [false])
        #expect(box.offerValue("tock/kitchen/alarm_2", "OFF", backlog: true) == .wait)
        #expect(box.waiting == [MqttOutbox.Waiting(topic: "tock/kitchen/alarm_2", payload: Array("OFF".utf8), value: true)])
    }

    /// A value of the box's that waits for the backlog is not overtaken by
    /// a discovery config that has room.
    @Test mutating func noConfigOvertakesAValueThatWaits() {
        for n in 1...(MqttOutbox.maxDiscoveryInFlight + 1) { _ = publish(config(n)) }
        #expect(box.waiting.map(\.topic) == [config(MqttOutbox.maxDiscoveryInFlight + 1)])
        #expect(box.offerValue("tock/kitchen/state", "ringing", backlog: true) == .wait)
        box.acknowledged(1)  // room for a config
        #expect(sendNext(backlog: true) == nil)
        #expect(sendNext()?.topic == "tock/kitchen/state")
        #expect(sendNext()?.topic == config(MqttOutbox.maxDiscoveryInFlight + 1))
    }
}

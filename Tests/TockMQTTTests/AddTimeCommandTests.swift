import Foundation
import Testing
@testable import TockConfig
import TockControl
import TockCore
@testable import TockMQTT

/// Adding time over MQTT: what *+1 min*, *+1 min timer* and *Add time*
/// send, the timer topic's `add` read and refused, and the request it
/// becomes for the timer selected.
@Suite struct AddTimeCommandTests {
    func parse(_ text: String) -> Result<TimerPicker.Command, TimerPicker.Invalid> {
        Result { () throws(TimerPicker.Invalid) in try TimerPicker.parse(Array(text.utf8)) }
    }

    func refusal(_ text: String) -> String? {
        if case .failure(let e) = parse(text) { return e.description }
        return nil
    }

    func request(_ text: String) -> Result<ControlRequest, ControlRequest.Invalid> {
        Result { () throws(ControlRequest.Invalid) in try ControlRequest.parse(Array(text.utf8)) }
    }

    var configs: [(topic: String, payload: [String: Any])] {
        var c = MqttConfig()
        c.clientID = "kitchen"
        c.topicPrefix = "tock/kitchen"
        c.discoveryPrefix = "homeassistant"
        return HomeAssistant.configs(c, version: "0.1.0").map { ($0.topic, wire($0.payload)) }
    }

    func config(_ suffix: String) throws -> [String: Any] {
        try #require(configs.first { $0.topic.hasSuffix(suffix) }?.payload)
    }

    @Test func theTimerTopicTakesAnAmountSignedOrNot() throws {
        #expect(try parse(#"{"op":"add","duration":"1m"}"#).get() == .add(.seconds(60)))
        #expect(try parse(#"{"op": "add", "duration": "-30s"}"#).get() == .add(.seconds(-30)))
        #expect(try parse(#"{"op":"add","duration":"+1h2m3s"}"#).get() == .add(.seconds(3723)))
        #expect(try parse(#"{"op":"add","duration":"1:30"}"#).get() == .add(.seconds(90)))
        // Zero and a huge amount are well formed: the box refuses them, saying why.
        #expect(try parse(#"{"op":"add","duration":"-0s"}"#).get() == .add(.zero))
        #expect(try parse(#"{"op":"add","duration":"2000h"}"#).get() == .add(.seconds(7_200_000)))
        #expect(TimerPicker.Command.add(.seconds(-90)).description == "add -1m30s")
    }

    @Test func anAddThatIsNoAmountIsRefusedWithWhy() {
        for (text, why) in [
            (#"{"op":"add"}"#, #"add needs "duration""#), (#"{"op":"add","duration":60}"#, #"add needs "duration""#),
            (#"{"op":"add","duration":1e308}"#, #"add needs "duration""#), (#"{"op":"add","duration":null}"#, #"add needs "duration""#),
            (#"{"op":"add","duration":["1m"]}"#, "not a JSON object"), (#"{"op":"add","duration":""}"#, "empty duration"),
            (#"{"op":"add","duration":"99999h"}"#, "too long"), (#"{"op":"add","duration":"99999999999999999999h"}"#, "add duration"),
            (#"{"op":"add","duration":"1"}"#, "needs a unit"), (#"{"op":"add","duration":"--1m"}"#, "not a duration"),
            (#"{"op":"add","duration":"1m","name":"EGG"}"#, #"unknown field "name" for add"#),
            (#"{"op":"pause","duration":"1m"}"#, #"unknown field "duration" for pause"#),
            (#"{"op":"ADD","duration":"1m"}"#, "one of select, pause, resume, cancel, add"),
            (#"{"op":"add","duration":"1m","duration":"2m"}"#, "given twice"),
        ] {
            #expect(refusal(text)?.contains(why) == true, "\(text): \(refusal(text) ?? "accepted")")
        }
        // A megabyte is refused by its length, before a byte is read as JSON.
        let huge = #"{"op":"add","duration":""# + String(repeating: "9", count: 1 << 20) + #"h"}"#
        #expect(refusal(huge) == "\(huge.utf8.count) bytes, longer than 1024")
    }

    @Test func theSelectedTimerIsTheOneTimeIsAddedTo() {
        var p = TimerPicker()
        let none = p.apply(.add(.seconds(60)), inProgress: [])
        #expect(none == .refused("no timer is in progress to add time to; add one first (Add timer, or tock timer add NAME DURATION)"))
        p.follow(["EGG", "tEA"])
        #expect(p.apply(.add(.seconds(60)), inProgress: ["EGG", "tEA"]) == .request(.add(.seconds(60), name: "EGG")))
        _ = p.apply(.select("tEA"), inProgress: ["EGG", "tEA"])
        #expect(p.apply(.add(.seconds(-60)), inProgress: ["EGG", "tEA"]) == .request(.add(.seconds(-60), name: "tEA")))
        // tEA cancelled meanwhile: the press acts on what is selected now.
        #expect(p.apply(.add(.seconds(60)), inProgress: ["EGG"]) == .request(.add(.seconds(60), name: "EGG")))
    }

    @Test func theButtonsSendTheControlSocketsRequest() throws {
        let main = try config("/button/kitchen/add_minute/config")
        #expect(main["command_topic"] as? String == "tock/kitchen/cmd" && main["name"] as? String == "+1 min")
        let press = try #require(main["payload_press"] as? String)
        #expect(try request(press).get() == .add(.seconds(60), name: nil))
        // Available while the box is, as Start, Stop and Reset.
        #expect(main["availability_topic"] as? String == "tock/kitchen/availability" && main["availability"] == nil)
        let timer = try config("/button/kitchen/timer_add_minute/config")
        #expect(timer["command_topic"] as? String == "tock/kitchen/timer_cmd" && timer["name"] as? String == "+1 min timer")
        #expect(try parse(try #require(timer["payload_press"] as? String)).get() == .add(.seconds(60)))
        // Unavailable while no timer is in progress, as Pause timer.
        let pause = try config("/button/kitchen/timer_pause/config")
        #expect((timer["availability"] as? [[String: String]]) == (pause["availability"] as? [[String: String]]))
        #expect((timer["availability"] as? [[String: String]])?.last?["topic"] == "tock/kitchen/timer_selected")
    }

    /// Home Assistant checks a text against its pattern before it renders
    /// the template; what passes renders to a request the box reads.
    @Test func theAddTimeTextTakesAnAmountAndANameAndNothingElse() throws {
        let text = try config("/text/kitchen/add_time/config")
        #expect(text["command_topic"] as? String == "tock/kitchen/cmd" && text["state_topic"] == nil)
        let pattern = try NSRegularExpression(pattern: try #require(text["pattern"] as? String))
        func matches(_ s: String) -> Bool { pattern.firstMatch(in: s, range: NSRange(s.startIndex..., in: s)) != nil }
        for ok in ["1m", "-30s", "+2m", "1h30m", "1:30", "EGG 2m", "EGG -1m", "t1 30s", "-_H 1m", #"E"G 1m"#] { #expect(matches(ok), "\(ok)") }
        for bad in ["", "m", "EGG", "EGG two minutes", "a minute", "EGG 1m x", "ABCDEFGHIJKLMNOPQ 1m", " 1m"] { #expect(!matches(bad), "\(bad)") }
        // What the template makes of them (Home Assistant renders it with
        // Jinja; the two shapes it can give, written out).
        let template = try #require(text["command_template"] as? String)
        #expect(template.contains("value.split()") && template.contains("| tojson"))
        #expect(try request(#"{"cmd": "add", "duration": "-30s"}"#).get() == .add(.seconds(-30), name: nil))
        #expect(try request(#"{"cmd": "add", "name": "EGG", "duration": "2m"}"#).get() == .add(.seconds(120), name: "EGG"))
        #expect(try request(#"{"cmd": "add", "name": "E\"G", "duration": "2m"}"#).get() == .add(.seconds(120), name: #"E"G"#))
    }
}

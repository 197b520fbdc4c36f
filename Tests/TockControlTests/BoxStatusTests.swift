import Testing
import TockControl
import TockCore
import TockJSON

/// The status is written in one place and read in one place: what the box
/// writes, a client reads back field for field, through the JSON on the wire.
@Suite struct BoxStatusTests {
    func wire(_ o: JSONObject) throws -> JSONObject {
        try JSON.object(JSON.object(o).bytes())
    }

    @Test func everyFieldComesBackThroughTheWire() throws {
        var s = BoxStatus(state: .running, display: "04:59", buzzer: false, mode: .timer)
        s.show(Frame(text: "04:59", digits: 4))
        s.configWaitsForReset = true
        s.notice = true
        s.switchPosition = .down
        s.brightness = 5
        s.night = .init(from: "22:00", to: "07:00", brightness: 1)
        s.brightnessNow = 5
        s.alarms = [.init(n: 1, at: "06:45", days: "mon-fri", enabled: true, label: "work", line: "1  06:45 mon-fri work", next: "Mon 06:45"),
                    .init(n: 2, at: "08:00", days: "daily", enabled: false, label: "", line: "2  08:00 daily (off)", next: nil)]
        s.alarm = "ringing 06:45"
        s.preset = "5m"
        s.presets = ["5m", "10m"]
        s.direction = .up
        s.elapsedMs = 1_000
        s.remainingMs = 299_000
        s.leadInMs = 3_000
        s.overrunMs = 0
        s.round = 2
        s.set = 1
        s.program = "E1"
        s.programs = ["tAbA", "E1"]
        s.finishMs = 754_321
        s.stateWrites = 12
        s.mqtt = ["link": "up", "received": 3]
        s.group = ["name": "gym", "pending": 0]
        let back = try #require(BoxStatus(try wire(s.json)))
        #expect(back == s)
        #expect(s.json["elapsed_ms"] == 1_000 && s.json["switch"] == "down" && s.json["direction"] == "up")
    }

    @Test func aRefusalCarriesItsReasonAndTheStatusWhenThereIsOne() throws {
        let s = BoxStatus(state: .running, display: "04:59", buzzer: false, mode: .timer)
        let r = ControlReply.refused("Reset does nothing while the count runs", status: s)
        let back = try #require(ControlReply(try wire(r.json)))
        #expect(back == r && !back.ok && back.status?.state == .running)
        let bare = try #require(ControlReply(try wire(ControlReply.refused("no such alarm").json)))
        #expect(bare.error == "no such alarm" && bare.status == nil)
        #expect(ControlReply(["state": "ready"]) == nil)  // no "ok": not a reply
    }
}

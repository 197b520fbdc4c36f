import Foundation
import Logging
import Testing
import TockConfig
import TockCore
import TockLoop
@testable import TockHost
@testable import TockMQTT
@testable import TockShell
import TockTestSupport
import TockDevices

/// A box that boots before NTP has answered, through the whole host on
/// virtual time: the log, the status, the MQTT topics and the idle clock
/// while the wall clock is not synchronised, and the step that sets it.
@Suite struct ClockSyncOnVirtualTimeTests {
    /// True time: Thursday 2026-11-26 06:00 in Berlin (05:00 UTC).
    let truth = WallTime(secondsSince1970: 1_795_669_200)
    let yaml = """
    mqtt: {host: h, client_id: kitchen}
    clock: {zone: Europe/Berlin}
    display: {idle: clock, idle_after: 5s}
    alarms: [{at: "06:45", label: work}]
    """

    /// A box whose clock reads `truth + off`, not synchronised, and what it logs.
    func booted(off: Duration, yaml: String? = nil) throws -> (TestBox, VirtualLoop, VirtualBroker, LogLines) {
        let loop = VirtualLoop(epoch: truth + off)
        loop.wallSynchronised = false
        let lines = LogLines()
        let log = Logger(label: "test") { [lines] _ in LogCapture(lines: lines) }
        let broker = VirtualBroker(loop: loop)
        let box = try TestBox(yaml ?? self.yaml, loop: loop, link: broker.link("kitchen"), log: log)
        loop.advance(by: .seconds(10))
        return (box, loop, broker, lines)
    }

    func status(_ box: TestBox) -> [String: Any] { box.host.service.status().object }

    @Test func untilTheClockIsSynchronisedEverythingSaysSoAndTheStepThatSetsItIsLogged() throws {
        let (box, loop, broker, lines) = try booted(off: .seconds(3600))  // an hour fast
        #expect(lines.messages.contains { $0.hasPrefix("the wall clock is not synchronised") })
        #expect(box.shell.frame?.text == "--:--")
        var s = status(box)
        #expect(s["time_unverified"] as? Bool == true)
        #expect((s["clock"] as? [String: Any])?["synchronised"] as? Bool == false)
        #expect(broker.published(on: "tock/kitchen/clock_synchronised") == ["OFF"])
        #expect(broker.published(on: "tock/kitchen/next_alarm_attributes") == [#"{"unverified":true}"#])
        // NTP answers at true 06:10: the clock goes back an hour.
        loop.advance(by: .seconds(590))
        loop.stepWall(by: .seconds(-3600), synchronised: true)
        loop.advance(by: .seconds(1))
        #expect(lines.messages.contains {
            $0.hasPrefix("the wall clock was stepped back by 1h (it reads 2026-11-26T05:10:00Z); the next alarm, Thu 2026-11-26 06:45, is 35m away")
        })
        #expect(lines.messages.contains { $0.hasPrefix("the wall clock is synchronised") })
        s = status(box)
        #expect(s["time_unverified"] == nil)
        let clock = try #require(s["clock"] as? [String: Any])
        #expect(clock["synchronised"] as? Bool == true)
        #expect(clock["since"] as? String == "2026-11-26T05:10:00Z")
        #expect(clock["last_step"] as? String == "back by 1h")
        #expect(clock["steps"] as? Int == 1)
        #expect(broker.published(on: "tock/kitchen/clock_synchronised") == ["OFF", "ON"])
        #expect(broker.published(on: "tock/kitchen/next_alarm_attributes") == [#"{"unverified":true}"#, #"{"unverified":false}"#])
        #expect(box.shell.frame?.text == "06:10")
        // The alarm rings once, at its true time.
        loop.advance(by: .seconds(3600))
        #expect(broker.published(on: "tock/kitchen/event").filter { $0 == "alarm_ringing" }.count == 1)
    }

    @Test func aClockThatNeverSynchronisesIsLookedAtOnceAMinuteAndTheAlarmStillRings() throws {
        let (box, loop, broker, lines) = try booted(off: .zero, yaml: "clock: {zone: Europe/Berlin}\nalarms: [{at: \"06:45\"}]\nmqtt: {host: h, client_id: kitchen}")
        loop.advance(by: .seconds(600))
        #expect(lines.messages.filter { $0.contains("not synchronised") }.count == 1)
        loop.advance(by: .seconds(2700))
        #expect(broker.published(on: "tock/kitchen/event").filter { $0 == "alarm_ringing" }.count == 1)
        #expect(status(box)["time_unverified"] as? Bool == true)
        // The kernel says yes without a step (a slewed clock): seen within a minute.
        loop.wallSynchronised = true
        loop.advance(by: .seconds(60))
        #expect(broker.published(on: "tock/kitchen/clock_synchronised") == ["OFF", "ON"])
        #expect(lines.messages.contains { $0.hasPrefix("the wall clock is synchronised") })
    }

    @Test func aCountdownToADateSaysItsTimeIsUnverified() throws {
        let (box, loop, _, _) = try booted(off: .zero, yaml: "mode: countdown\ncountdown: {until: \"2026-12-24T18:00[Europe/Berlin]\"}")
        #expect(status(box)["time_unverified"] as? Bool == true)
        loop.stepWall(by: .seconds(120), synchronised: true)
        loop.advance(by: .seconds(1))
        #expect(status(box)["time_unverified"] == nil)
    }

    /// The cost of not being synchronised, counted: timers fired in ten
    /// idle minutes (no idle clock, an alarm hours away), by a box whose
    /// clock is and one whose clock is not synchronised.
    @Test func anUnsynchronisedClockCostsOneWakeUpAMinute() throws {
        func fired(synchronised: Bool) throws -> Int {
            let loop = VirtualLoop(epoch: truth)
            loop.wallSynchronised = synchronised
            let box = try TestBox("clock: {zone: Europe/Berlin}\nalarms: [{at: \"12:00\"}]", loop: loop)
            loop.advance(by: .seconds(10))
            let before = loop.timers.fired
            loop.advance(by: .seconds(600))
            withExtendedLifetime(box) {}
            return loop.timers.fired - before
        }
        #expect(try fired(synchronised: true) == 0)
        #expect(try fired(synchronised: false) == 10)
    }

    @Test func theStatusAndTheLogSayHowFarTheRTCIsFromTheSystemClock() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tock-rtc-\(UUID().uuidString)")
        let dir = root.appendingPathComponent("rtc0")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try Data("rtc-ds1307 1-0068\n".utf8).write(to: dir.appendingPathComponent("name"))
        try Data("\(1_795_669_200 - 2)\n".utf8).write(to: dir.appendingPathComponent("since_epoch"))
        let loop = VirtualLoop(epoch: truth)
        let lines = LogLines()
        var setup = Box.Setup(config: try Configuration.parse(yaml: "", file: "t.yaml"), devices: Devices.mock(try Configuration.parse(yaml: "", file: "t.yaml"), clock: { [loop] in loop.instant }))
        setup.rtcDirectory = root.path
        let box = try Box(setup, loop: loop, log: Logger(label: "test") { [lines] _ in LogCapture(lines: lines) })
        box.start()
        #expect(lines.messages.contains("rtc: /dev/rtc0 (rtc-ds1307 1-0068) reads 2 s behind the system clock (synchronised by NTP)"))
        let rtc = try #require((box.service.status().object["clock"] as? [String: Any])?["rtc"] as? [String: Any])
        #expect(rtc["name"] as? String == "rtc-ds1307 1-0068" && rtc["drift_s"] as? Int == -2)
    }
}

import Foundation
import Logging
import Testing
import TockConfig
import TockCore
import TockHardware
import TockLoop
import TockMock
@testable import TockDevices
@testable import TockHost
import TockTestSupport

/// The light sensor through the whole box on virtual time: the mock BH1750
/// on the mock board, read by the box, the display's brightness following
/// the room, and a sensor that stops answering.
@Suite struct LightOnVirtualTimeTests {
    let loop = VirtualLoop(epoch: WallTime(secondsSince1970: 1_795_690_800))  // 2026-11-26 11:00 UTC
    let lines = LogLines()

    func box(_ yaml: String = "light: {sensor: bh1750, smoothing: 0s}") throws -> (Box, MockBH1750) {
        let config = try Configuration.parse(yaml: yaml, file: "test.yaml")
        let devices = Devices.mock(config, clock: { [loop] in loop.instant })
        let log = Logger(label: "test") { [lines] _ in LogCapture(lines: lines) }
        let box = try Box(Box.Setup(config: config, devices: devices), loop: loop, log: log)
        box.start()
        return (box, devices.board?.lightChip ?? MockBH1750())
    }

    @Test func theDisplayFollowsTheRoomAndASilentSensorLeavesTheBrightnessSetByHand() throws {
        let (box, chip) = try box()
        chip.lux = 300
        loop.advance(by: .seconds(3))
        #expect(box.shell.frame?.brightness == 6)
        chip.lux = 3  // the lights go down
        loop.advance(by: .seconds(3))
        #expect(box.shell.frame?.brightness == 1)
        var light = box.service.status().object["light"] as? [String: Any]
        #expect(light?["lux"] as? Int == 3 && light?["level"] as? Int == 1)
        chip.failing = HardwareError(.noAcknowledge, "no device answered at 0x23 on /dev/i2c-1")
        loop.advance(by: .seconds(10))
        #expect(box.shell.frame?.brightness == 7)  // display.brightness, as without a sensor
        #expect(lines.messages.filter { $0.hasPrefix("light sensor: no device answered") }.count == 1)
        light = box.service.status().object["light"] as? [String: Any]
        #expect((light?["problem"] as? String)?.hasPrefix("no device answered") == true)
        chip.failing = nil
        loop.advance(by: .seconds(5))
        #expect(box.shell.frame?.brightness == 1)
        #expect(lines.messages.contains { $0.hasPrefix("the light sensor answers again (3 lx)") })
    }

    @Test func aReadingOutOfRangeIsRefusedAndSaidSo() throws {
        /// A sensor whose readings are scripted (a BH1750 cannot read out of range).
        final class Scripted: LightSensor {
            var value = 20.0
            func start() throws {}
            func lux() throws -> Double { value }
        }
        let config = try Configuration.parse(yaml: "light: {smoothing: 0s}", file: "test.yaml")
        let devices = Devices.mock(config, clock: { [loop] in loop.instant })
        let sensor = Scripted()
        devices.light = sensor
        let log = Logger(label: "test") { [lines] _ in LogCapture(lines: lines) }
        let box = try Box(Box.Setup(config: config, devices: devices), loop: loop, log: log)
        box.start()
        loop.advance(by: .seconds(3))
        #expect(box.shell.frame?.brightness == 3)
        for bad in [Double.nan, -1, 1e9] {
            sensor.value = bad
            loop.advance(by: .seconds(3))
            #expect(box.shell.frame?.brightness == 7, "\(bad)")
        }
        #expect(lines.messages.filter { $0.contains("outside 0 to 100000 lx") }.count == 1)
    }

    /// What reading the light costs, counted: timers fired in a minute on
    /// an idle box, with the sensor read every 2 s (the default) and every 10 s.
    @Test func readingTheSensorCostsOneWakeUpPerReading() throws {
        func fired(_ yaml: String) throws -> Int {
            let fresh = LightOnVirtualTimeTests()
            let (b, _) = try fresh.box(yaml)
            fresh.loop.advance(by: .seconds(10))
            let before = fresh.loop.timers.fired
            fresh.loop.advance(by: .seconds(60))
            withExtendedLifetime(b) {}
            return fresh.loop.timers.fired - before
        }
        #expect(try fired("light: {sensor: bh1750}") == 30)
        #expect(try fired("light: {sensor: bh1750, every: 10s}") == 6)
        #expect(try fired("display: {brightness: 7}") == 0)
    }

    @Test func theConfigurationRefusesABadCurveAndAddress() {
        for (yaml, key) in [("light: {curve: [1, 2, 3]}", "light.curve"), ("light: {curve: [5, 4, 6, 7, 8, 9, 10]}", "light.curve"),
                            ("light: {i2c_address: 0x24}", "light.i2c_address"), ("light: {floor: 5, ceiling: 3}", "light.ceiling"),
                            ("light: {hysteresis: 120%}", "light.hysteresis")] {
            #expect(throws: ConfigError.self, "\(key)") { try Configuration.parse(yaml: yaml, file: "t.yaml") }
        }
        #expect((try? Configuration.parse(yaml: "light: {}", file: "t.yaml"))?.settings.light == LightSettings())
    }
}

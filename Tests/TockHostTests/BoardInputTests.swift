import Logging
import Testing
import TockConfig
import TockCore
import TockHardware
import TockLoop
import TockMock
@testable import TockHost
@testable import TockDevices

/// Mock presses reach the core as GPIO events do: the board's wires, its
/// descriptor, the loop, the `InputReader`, the shell.
@Suite struct BoardInputTests {
    let loop = VirtualLoop(epoch: WallTime(secondsSince1970: 1_800_000_000))

    final class MockBox {
        let box: Box
        let panel: MockPanel
        var edges: [Edge] = []
        var state: String { box.shell.state?.rawValue ?? "starting" }

        init(_ yaml: String, loop: VirtualLoop) throws {
            let config = try Configuration.parse(yaml: yaml, file: "test.yaml")
            let parts = Devices.mockParts(config, clock: { [loop] in loop.instant })
            panel = parts.panel
            var quiet = Logger(label: "test")
            quiet.logLevel = .critical
            box = try Box(Box.Setup(config: config, devices: parts.devices), loop: loop, log: quiet)
            box.onEdges = { [unowned self] in edges += $0 }
            box.start()
        }
    }

    /// A press is not handed to the shell when the wire moves but when the
    /// loop serves the board's descriptor: after the timer that moved it,
    /// before the next timer due at the same instant.
    @Test func aMockEdgeIsReadByTheLoopInItsOrder() throws {
        let box = try MockBox("timer: {presets: [1m]}", loop: loop)
        loop.advance(by: .seconds(1))
        box.panel.press(.start, at: loop.instant)
        #expect(box.edges.isEmpty)
        loop.run(until: loop.instant)
        #expect(box.edges == [Edge(line: .button(.start), active: true, timestamp: loop.instant)])
        loop.advance(by: .milliseconds(100))
        box.panel.release(.start, at: loop.instant)
        loop.advance(by: .seconds(1))
        #expect(box.state == "running")

        let t = loop.instant + .seconds(1)
        var seen: [String: Int] = [:]
        loop.schedule(at: .monotonic(t)) { seen["before"] = box.edges.count }
        loop.schedule(at: .monotonic(t)) { box.panel.press(.stop, at: t) }
        loop.schedule(at: .monotonic(t)) { seen["after"] = box.edges.count }
        loop.advance(by: .seconds(2))
        #expect(seen == ["before": 2, "after": 3])
        #expect(box.state == "paused")
    }

    /// The same script on a box wired active-low with pull-ups and one
    /// wired active-high with pull-downs: the same presses, the same states.
    @Test func activeLowAndActiveHighBoxesCountTheSame() throws {
        var states: [[String]] = []
        for pins in ["{active_low: true, bias: pull-up}", "{active_low: false, bias: pull-down}", "{active_low: true, bias: disabled}"] {
            let loop = VirtualLoop(epoch: WallTime(secondsSince1970: 1_800_000_000))
            let box = try MockBox("timer: {presets: [3s]}\npins: \(pins)", loop: loop)
            var seen: [String] = [box.state]
            for b in [Button.start, .stop, .start] {
                box.panel.press(b, at: loop.instant)
                loop.advance(by: .milliseconds(100))
                box.panel.release(b, at: loop.instant)
                loop.advance(by: .milliseconds(900))
                seen.append(box.state)
            }
            loop.advance(by: .seconds(5))
            seen.append(box.state)
            states.append(seen)
        }
        #expect(states[0] == ["ready", "running", "paused", "running", "ringing"])
        #expect(states[1] == states[0])
        #expect(states[2] == states[0])
    }

    /// 10,001 edges of chatter queued before the loop reads (a contact
    /// bouncing, 1 µs apart) ending closed: one read, one press.
    @Test func aFloodOfTenThousandEdgesIsOnePress() throws {
        let box = try MockBox("timer: {presets: [1m]}", loop: loop)
        loop.advance(by: .seconds(1))
        let t0 = loop.instant
        loop.advance(by: .milliseconds(10))
        for k in 0..<10_001 { box.panel.set(.button(.start), active: k % 2 == 0, at: t0 + .microseconds(k)) }
        loop.advance(by: .milliseconds(100))
        #expect(box.edges.count == 10_001)
        #expect(box.state == "running")
        box.panel.release(.start, at: loop.instant)
        loop.advance(by: .seconds(1))
        #expect(box.state == "running")
    }
}

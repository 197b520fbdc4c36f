import Logging
import TockCore
import TockHardware
import TockMock

/// The desk simulator on virtual time: replays a script against the real
/// core, driver and mock panel, jumping the clock from one event to the
/// next, and writes the trace. A whole scenario takes milliseconds.
public final class ScriptedSimulation {
    public let config: ApplianceConfig
    public let script: Script
    /// The virtual wall clock at t = 0.
    public let epoch: WallTime
    public let origin = Instant(nanoseconds: 1_000_000_000)
    public private(set) var now: Instant
    public let panel: MockPanel
    public private(set) var display: MockDisplay!
    public private(set) var sounder: MockSounder!
    public private(set) var driver: ApplianceDriver!
    private var wake: (Instant?, WallTime?) = (nil, nil)
    /// Scheduled edges: (instant, sequence, line, level).
    private var agenda = Agenda<(at: Instant, seq: Int, input: MockInput, active: Bool)>([], by: { _, _ in false })
    /// Scheduled steps of the wall clock.
    private var clockSteps = Agenda<(at: Instant, seq: Int, by: Duration)>([], by: { _, _ in false })
    /// The work of taking scheduled events in order (see `Agenda.work`).
    var agendaWork: Int { agenda.work + clockSteps.work }
    /// How far the wall clock has been stepped from `epoch + elapsed`.
    public private(set) var wallOffset: Duration = .zero
    /// Timer wake-ups taken (not counting input edges).
    public private(set) var wakeUps = 0

    public init(config: ApplianceConfig, script: Script, epoch: WallTime, trace: ((String) -> Void)? = nil) {
        self.config = config
        self.script = script
        self.epoch = epoch
        now = origin
        panel = MockPanel(switchPosition: config.switchPosition)
        let clock: MockClock = { [unowned self] in now }
        display = MockDisplay(clock: clock)
        sounder = MockSounder(clock: clock)
        let leds = Dictionary(uniqueKeysWithValues: config.leds.map { ($0, MockOutput(name: $0, clock: clock) as any DigitalOutput) })
        var log = Logger(label: "tock.sim")
        log.logLevel = .warning
        let core = Machine(settings: config.settings, switchPosition: config.switchPosition, at: nowBoth)
        driver = ApplianceDriver(core: core, clock: { [unowned self] in nowBoth }, display: display, sounder: sounder, leds: leds, log: log)
        if let trace { driver.trace = TraceWriter(origin: origin, leds: config.leds, sink: trace) }
        driver.onWake = { [unowned self] m, w in wake = (m, w) }
        panel.connect { [unowned self] e in driver.edge(e) }
        schedule(script)
    }

    private var nowBoth: Now { Now(monotonic: now, wall: epoch + (now - origin) + wallOffset) }

    private func schedule(_ script: Script) {
        var edges: [(at: Instant, seq: Int, input: MockInput, active: Bool)] = []
        var steps: [(at: Instant, seq: Int, by: Duration)] = []
        func add(_ input: MockInput, _ active: Bool, _ t: Instant) {
            edges.append((t, edges.count, input, active))
        }
        for step in script.steps {
            let t = origin + step.at
            switch step.action {
            case .press(let b, let hold):
                for e in PressWaveform.edges(at: t, hold: hold) { add(panel.buttons[b]!, e.active, e.at) }
            case .bounce(let b, let n):
                for e in PressWaveform.edges(at: t, hold: Script.defaultHold, bounces: n) { add(panel.buttons[b]!, e.active, e.at) }
            case .setSwitch(let p):
                add(panel.directionSwitch, p == .up, t)
            case .stepClock(let d):
                steps.append((t, steps.count, d))
            case .end:
                break
            }
        }
        agenda = Agenda(edges) { ($0.at, $0.seq) < ($1.at, $1.seq) }
        clockSteps = Agenda(steps) { ($0.at, $0.seq) < ($1.at, $1.seq) }
    }

    /// Run the whole script.
    public func run() {
        run(until: origin + script.endTime)
    }

    /// Run until the virtual clock reaches `end`, taking every scripted
    /// edge and every wake-up the appliance asks for, in time order.
    public func run(until end: Instant) {
        if driver.state == nil { driver.start() }
        var repeats = 0
        while true {
            let wakeAt = [wake.0, wake.1.map { nowBoth.monotonic(at: $0) }].compactMap { $0 }.min()
            let edgeAt = agenda.first?.at
            let stepAt = clockSteps.first?.at
            guard let next = [wakeAt, edgeAt, stepAt].compactMap({ $0 }).min(), next <= end else { break }
            repeats = next == now ? repeats + 1 : 0
            precondition(repeats < 1000, "the appliance keeps asking to be woken at \(now)")
            now = max(now, next)
            if let s = stepAt, s <= now, edgeAt.map({ s <= $0 }) ?? true {
                wallOffset = wallOffset + clockSteps.removeFirst().by
                driver.clockStepped()
            } else if let e = edgeAt, e <= now {
                let item = agenda.removeFirst()
                item.input.drive(active: item.active, at: item.at)
            } else {
                wakeUps += 1
                driver.tick()
            }
        }
        now = max(now, end)
    }

    /// Advance the virtual clock by `d`, as a test would.
    public func advance(by d: Duration) { run(until: now + d) }
}

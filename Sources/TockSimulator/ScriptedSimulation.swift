import Logging
import TockConfig
import TockCore
import TockHardware
import TockLoop
import TockMock
import TockHost
import TockDevices
import TockShell

/// The desk simulator on virtual time: the host (core, shell, mock
/// panel) on a `VirtualLoop`, with the script's edges and clock steps
/// scheduled on that loop before it runs, and the trace written. A whole
/// scenario takes milliseconds.
public final class ScriptedSimulation {
    public let config: Configuration
    public let script: Script
    /// The virtual wall clock at t = 0.
    public let epoch: WallTime
    public let origin = Instant(nanoseconds: 1_000_000_000)
    public let loop: VirtualLoop
    public let host: Box
    public let panel: MockPanel
    public let display: MockDisplay
    public let sounder: MockSounder
    /// The mock board the drivers run on (its lines, its display chip).
    public let board: MockBoard
    public var shell: Shell { host.shell }
    public var now: Instant { loop.instant }
    /// The work of ordering the script's events (see `Agenda.work`).
    private(set) var agendaWork = 0
    /// The script's timer requests the box refused, with their lines.
    public private(set) var refusals: [String] = []
    private var started = false

    public init(config: Configuration, script: Script, epoch: WallTime, trace: ((String) -> Void)? = nil) {
        self.config = config
        self.script = script
        self.epoch = epoch
        let loop = VirtualLoop(origin: origin, epoch: epoch)
        self.loop = loop
        let clock: MockClock = { [loop] in loop.instant }
        let parts = Devices.mockParts(config, clock: clock)
        let devices = parts.devices
        panel = parts.panel
        display = parts.display
        sounder = parts.sounder
        board = parts.board
        var log = Logger(label: "tock.sim")
        log.logLevel = .warning
        var setup = Box.Setup(config: config, devices: devices)
        setup.trace = trace
        host = try! Box(setup, loop: loop, log: log)  // no file, socket or link to fail
        schedule(script)
    }

    /// The script's clock steps, then its edges, each in time order, go on
    /// the loop first: at one instant a step comes before an edge, and both
    /// before the wake-ups the appliance asks for. An edge's timer moves
    /// the mock panel's contact; the loop reads the line's change before
    /// its next timer, as it reads a GPIO chip's events.
    private func schedule(_ script: Script) {
        var edges: [(at: Instant, seq: Int, line: InputLine, active: Bool)] = []
        var steps: [(at: Instant, seq: Int, by: Duration)] = []
        func add(_ line: InputLine, _ active: Bool, _ t: Instant) {
            edges.append((t, edges.count, line, active))
        }
        for step in script.steps {
            let t = origin + step.at
            switch step.action {
            case .press(let b, let hold):
                for e in PressWaveform.edges(at: t, hold: hold) { add(.button(b), e.active, e.at) }
            case .bounce(let b, let n):
                for e in PressWaveform.edges(at: t, hold: Script.defaultHold, bounces: n) { add(.button(b), e.active, e.at) }
            case .setSwitch(let p):
                add(.directionSwitch, p == .up, t)
            case .stepClock(let d):
                steps.append((t, steps.count, d))
            case .clockSynchronised(let yes):
                loop.schedule(at: .monotonic(t)) { [loop] in loop.wallSynchronised = yes }
            case .light(let lux):
                loop.schedule(at: .monotonic(t)) { [board] in board.lightChip?.lux = lux }
            case .timer(let r):
                loop.schedule(at: .monotonic(t)) { [unowned self] in
                    do throws(Machine.Refusal) { try shell.timer(r) } catch { refusals.append("script:\(step.line): \(error.description)") }
                }
            case .add(let d, let ref):
                loop.schedule(at: .monotonic(t)) { [unowned self] in
                    do throws(Machine.Refusal) { try shell.addTime(d, to: ref) } catch { refusals.append("script:\(step.line): \(error.description)") }
                }
            case .end:
                break
            }
        }
        var stepAgenda = Agenda(steps) { ($0.at, $0.seq) < ($1.at, $1.seq) }
        while stepAgenda.first != nil {
            let s = stepAgenda.removeFirst()
            loop.schedule(at: .monotonic(s.at)) { [loop] in loop.stepWall(by: s.by) }
        }
        var edgeAgenda = Agenda(edges) { ($0.at, $0.seq) < ($1.at, $1.seq) }
        while edgeAgenda.first != nil {
            let e = edgeAgenda.removeFirst()
            loop.schedule(at: .monotonic(e.at)) { [panel] in panel.set(e.line, active: e.active, at: e.at) }
        }
        agendaWork = stepAgenda.work + edgeAgenda.work
    }

    /// Run the whole script.
    public func run() {
        run(until: origin + script.endTime)
    }

    /// Run until the virtual clock reaches `end`, taking every scripted
    /// edge and every wake-up the appliance asks for, in time order.
    public func run(until end: Instant) {
        if !started {
            started = true
            host.start()
        }
        loop.run(until: end)
    }

    /// Advance the virtual clock by `d`, as a test would.
    public func advance(by d: Duration) { run(until: now + d) }
}

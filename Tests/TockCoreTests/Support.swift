import Testing
@testable import TockCore

/// Seconds on the virtual clock (tests count from an origin of 1000 s).
func at(_ s: Double) -> Instant { Instant(nanoseconds: 1_000_000_000_000 + Int64((s * 1e9).rounded())) }

let epoch = WallTime(secondsSince1970: 1_800_000_000)

func now(_ s: Double) -> Now { Now(monotonic: at(s), wall: epoch + (at(s) - at(0))) }

/// The core alone on virtual time: takes every wake-up it asks for.
struct VirtualMachine {
    var core: Machine
    var t: Instant
    var wallOffset: Duration = .zero
    var start: WallTime = epoch
    var synchronised = true
    var wake: (Instant?, WallTime?) = (nil, nil)
    var wakeUps = 0
    var log: [(Instant, Machine.Output.Item)] = []
    var persisted: [Snapshot] = []

    init(_ settings: Settings = Settings(), switch position: SwitchPosition = .down, epoch start: WallTime = epoch,
         restoring snapshot: Snapshot? = nil, synchronised: Bool = true) {
        t = at(0)
        self.start = start
        self.synchronised = synchronised
        core = Machine(settings: settings, switchPosition: position, restoring: snapshot,
                       at: Now(monotonic: t, wall: start, wallSynchronised: synchronised))
        take(core.handle(.powerOn, at: clock))
    }

    var clock: Now { Now(monotonic: t, wall: start + (t - at(0)) + wallOffset, wallSynchronised: synchronised) }

    /// Step the wall clock at `s` (NTP, `date -s`), as the reactor reports it.
    /// `synchronised`: the kernel's verdict changes with the step (NTP's first setting).
    mutating func stepClock(by d: Duration, at s: Double, synchronised: Bool? = nil) {
        run(to: s)
        wallOffset = wallOffset + d
        if let synchronised { self.synchronised = synchronised }
        take(core.handle(.clockStepped, at: clock))
    }

    /// A control-socket action at `s`.
    mutating func act(_ a: ButtonAction, at s: Double) {
        run(to: s)
        take(core.handle(.remotePress(a), at: clock))
    }

    var notices: [AlarmClock.Notice] { log.compactMap { if case .report(.alarm(let n)) = $0.1 { n } else { nil } } }
    var rang: [Instant] { log.compactMap { if case .report(.alarm(.rang)) = $0.1 { $0.0 } else { nil } } }
    /// Displays shown in order.
    var displays: [String] { log.compactMap { if case .command(.render(let f)) = $0.1 { f.text } else { nil } } }

    mutating func take(_ output: Machine.Output) {
        for item in output.items {
            switch item {
            case .command(.wake(let m, let w)): wake = (m, w)
            case .command(.persist(let s)): persisted.append(s)
            default: log.append((t, item))
            }
        }
    }

    /// A request from outside the panel at the current instant: its
    /// outputs taken, or its refusal thrown.
    mutating func request(_ input: Machine.Input) throws(Machine.Refusal) {
        let output = core.handle(input, at: clock)
        if let refusal = output.refusal { throw refusal }
        take(output)
    }

    /// Run until `s` seconds, waking whenever asked.
    mutating func run(to s: Double) {
        let end = at(s)
        var repeats = 0
        while true {
            let w = [wake.0, wake.1.map { clock.monotonic(at: $0) }].compactMap { $0 }.min()
            guard let next = w, next <= end else { break }
            // A core that keeps asking for an instant already passed would
            // spin the real reactor: fail instead of hanging.
            repeats = next <= t ? repeats + 1 : 0
            guard repeats < 1000 else {
                Issue.record("the appliance keeps asking to be woken at \(next) (now \(t)): a busy loop")
                break
            }
            t = max(t, next)
            wakeUps += 1
            take(core.handle(.wake, at: clock))
        }
        t = end
    }

    /// A clean press: contact closes at `s`, opens `hold` later.
    mutating func press(_ b: Button, at s: Double, hold: Double = 0.08) {
        edge(.button(b), true, at: s)
        edge(.button(b), false, at: s + hold)
    }

    mutating func flip(_ p: SwitchPosition, at s: Double) { edge(.directionSwitch, p == .up, at: s) }

    mutating func edge(_ line: InputLine, _ active: Bool, at s: Double) {
        run(to: s)
        take(core.handle(.edge(line, active: active, at: at(s)), at: clock))
    }

    var display: String? { lastFrame?.text }
    var lastFrame: Frame? {
        for (_, c) in log.reversed() { if case .command(.render(let f)) = c { return f } }
        return nil
    }
    var buzzing: Bool {
        for (_, c) in log.reversed() { if case .command(.buzzer(let tone)) = c { return tone != nil } }
        return false
    }
    var state: StateName { core.stateName }

    /// Instants at which a command matching `match` was issued.
    func times(_ match: (Machine.Output.Item) -> Bool) -> [Instant] { log.filter { match($0.1) }.map(\.0) }
    var chirps: [Instant] {
        times { if case .command(.buzzer(let t)) = $0, t?.hertz == 400 { return true } else { return false } }
    }
}

extension Settings {
    static func timer(_ presets: [Duration] = [.seconds(300)], mode: Mode = .timer) -> Settings {
        var s = Settings()
        s.mode = mode
        s.presets = presets
        return s
    }
}

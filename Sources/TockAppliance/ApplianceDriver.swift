import Logging
import TockConfig
import TockCore
import TockHardware
import TockLoop

/// The imperative shell around the core: feeds it events with "now" from
/// its loop, and carries its commands out to the display, the buzzer, the
/// LEDs and the trace; the core's wake-ups are its own two timers on the
/// loop. The same driver runs on the real reactor and on virtual time.
public final class ApplianceDriver {
    public private(set) var core: Appliance
    private let loop: any EventLoop
    /// The core's next wake-up on each clock, and the one last delivered:
    /// a core that hands a delivered deadline back is not woken again for it.
    private var wakeMonotonic: LoopTimer!
    private var wakeWall: LoopTimer!
    private var asked: (monotonic: Instant?, wall: WallTime?)
    private var delivered: (monotonic: Instant?, wall: WallTime?)
    private let display: any SegmentDisplay
    private let sounder: any Sounder
    private let leds: [String: any DigitalOutput]
    private let log: Logger
    public var trace: TraceWriter?
    /// Called with each new state to remember across a restart.
    public var onPersist: ((Snapshot) -> Void)?
    /// Called with every batch of commands (for screens and status).
    public var onCommands: (([Appliance.Command]) -> Void)?
    /// Called with each press the fleet group is to carry out.
    public var onGroupChange: ((GroupChange) -> Void)?
    /// The last state and frame carried out.
    public private(set) var state: StateName?
    public private(set) var frame: Frame?
    public private(set) var tone: Tone?
    /// Output faults seen so far, by device (logged once each until it recovers).
    private var faulty: Set<String> = []

    public init(core: Appliance, loop: any EventLoop, display: any SegmentDisplay, sounder: any Sounder,
                leds: [String: any DigitalOutput], log: Logger) {
        self.core = core
        self.loop = loop
        self.display = display
        self.sounder = sounder
        self.leds = leds
        self.log = log
        wakeMonotonic = loop.makeTimer { [weak self] in
            guard let self else { return }
            delivered.monotonic = asked.monotonic
            tick()
        }
        wakeWall = loop.makeTimer { [weak self] in
            guard let self else { return }
            delivered.wall = asked.wall
            tick()
        }
        loop.onClockStep { [weak self] in
            guard let self else { return }
            // After a step back a delivered calendar deadline may lie ahead again.
            delivered.wall = nil
            clockStepped()
        }
    }

    private func clock() -> Now { loop.now() }

    /// Drive the buzzer off first (whatever a crash left behind), then show
    /// the initial state.
    public func start() {
        output("buzzer") { try sounder.sound(nil) }
        let now = clock()
        perform(core.start(at: now), at: now.monotonic)
    }

    public func edge(_ e: Edge) { handle(.edge(e.line, active: e.active, at: e.timestamp)) }
    public func tick() { handle(.tick) }
    public func clockStepped() { handle(.clockStepped) }
    public func action(_ a: ButtonAction) { handle(.action(a)) }

    /// A reloaded configuration: the same state under new settings.
    public func reconfigure(_ settings: Settings) {
        let now = clock()
        core = core.reconfigured(settings, at: now)
        perform(core.handle(.tick, at: now), at: now.monotonic)
    }

    /// `tock set`: replace the current preset.
    public func setPreset(_ d: Duration) throws(Appliance.Refusal) {
        let now = clock()
        perform(try core.setPreset(d, at: now), at: now.monotonic)
    }

    /// `tock mode`: change the mode.
    public func setMode(_ mode: Settings.Mode) throws(Appliance.Refusal) {
        let now = clock()
        perform(try core.setMode(mode, at: now), at: now.monotonic)
    }

    /// `tock alarm add|rm|on|off|skip-next`.
    public func editAlarms(_ edit: Appliance.AlarmEdit) throws(Appliance.Refusal) {
        let now = clock()
        perform(try core.editAlarms(edit, at: now), at: now.monotonic)
    }

    /// Elapsed and remaining time now.
    public func progress() -> Progress { core.progress(at: clock()) }

    /// Whether the fleet group can be reached (presses go through it).
    public var groupLinked: Bool {
        get { core.groupLinked }
        set { core.groupLinked = newValue }
    }

    /// Take the fleet group's program (see `Appliance.adoptGroup`).
    public func adoptGroup(_ state: Snapshot) throws(Appliance.Refusal) {
        let now = clock()
        perform(try core.adoptGroup(state, at: now), at: now.monotonic)
    }

    /// Every exit path: buzzer off, display dark, LEDs off.
    public func shutdown() {
        output("buzzer") { try sounder.sound(nil) }
        if let f = frame { output("display") { try display.show(f.dark) } }
        for (name, led) in leds { output("led \(name)") { try led.set(false) } }
    }

    private func handle(_ event: Appliance.Event) {
        let now = clock()
        perform(core.handle(event, at: now), at: now.monotonic)
    }

    private func perform(_ commands: [Appliance.Command], at t: Instant) {
        for c in commands {
            trace?.record(c, at: t)
            switch c {
            case .render(let f):
                frame = f
                output("display") { try display.show(f) }
            case .buzzer(let tone):
                if (tone == nil) != (self.tone == nil) { log.debug("buzzer \(tone == nil ? "off" : "on")") }
                self.tone = tone
                output("buzzer") { try sounder.sound(tone) }
            case .state(let s):
                if let old = state { log.info("state \(old.rawValue) -> \(s.rawValue)") }
                state = s
            case .led(let name, let lit):
                if let led = leds[name] { output("led \(name)") { try led.set(lit) } }
            case .wake(let m, let w):
                wake(monotonic: m, wall: w)
            case .persist(let s):
                onPersist?(s)
            case .alarm(let notice):
                log.notice("\(AlarmText.describe(notice, zone: core.alarms.zone))")
            case .group(let change):
                onGroupChange?(change)
            }
        }
        onCommands?(commands)
    }

    private func wake(monotonic m: Instant?, wall w: WallTime?) {
        if m == nil || m != delivered.monotonic {
            delivered.monotonic = nil
            asked.monotonic = m
            wakeMonotonic.schedule(at: m)
        }
        if w == nil || w != delivered.wall {
            delivered.wall = nil
            asked.wall = w
            wakeWall.schedule(atWall: w)
        }
    }

    /// A failing output is logged once and the appliance keeps running: a
    /// missing display must not stop the alarm from sounding.
    private func output(_ device: String, _ write: () throws -> Void) {
        do {
            try write()
            if faulty.remove(device) != nil { log.notice("\(device) works again") }
        } catch {
            if faulty.insert(device).inserted { log.error("\(device): \(error)") }
        }
    }
}

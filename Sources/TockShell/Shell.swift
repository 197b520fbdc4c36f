import Logging
import TockConfig
import TockCore
import TockHardware
import TockLoop

/// The imperative shell around the core: feeds it events with "now" from
/// its loop, and carries its commands out to the display, the buzzer, the
/// LEDs and the trace; the core's wake-ups are its own two timers on the
/// loop. The same shell runs on the real reactor and on virtual time.
///
/// Everything here runs on the loop's one thread and no call re-enters the
/// shell while it holds the core: the run-time exclusivity checks are left
/// out of the per-event state (`@exclusivity(unchecked)`); the compile-time
/// ones stay.
public final class Shell {
    @exclusivity(unchecked) public private(set) var core: Machine
    private let loop: any EventLoop
    /// The core's next wake-up on each clock, and the deadlines it asked for.
    private let wakeMonotonic: LoopTimer
    private let wakeWall: LoopTimer
    @exclusivity(unchecked) private var asked: (monotonic: Instant?, wall: WallTime?)
    let display: any SegmentDisplay
    private let sounder: any Sounder
    private let leds: [String: any DigitalOutput]
    let log: Logger
    @exclusivity(unchecked) public var trace: TraceWriter?
    /// Those who follow what the box shows and does (`observe`).
    @exclusivity(unchecked) private var observers: [Observer] = []
    /// A follower's closure, held in a struct: an array of bare closures
    /// keeps them at the generic abstraction, and every call went through
    /// a thunk that copied the change (`make bench-tick`).
    private struct Observer { let see: (BoxChange) -> Void }
    /// The outputs' list, kept between batches for its storage (`handle`).
    @exclusivity(unchecked) private var outputs = Machine.Output()
    /// The switch position last handed out.
    @exclusivity(unchecked) private var lastSwitch: SwitchPosition?
    /// The last state and frame carried out.
    @exclusivity(unchecked) public private(set) var state: StateName?
    @exclusivity(unchecked) public private(set) var frame: Frame?
    @exclusivity(unchecked) public private(set) var tone: Tone?
    /// A notice shown over the core's frames until its timer fires, a
    /// button is pressed or `endNotice` (Shell+Notice.swift).
    @exclusivity(unchecked) var notice: Frame?
    @exclusivity(unchecked) var noticeTimer: LoopTimer!
    /// The lines a command from outside can cause, each kind at most once a
    /// minute (a flood of timer commands on MQTT once wrote a line each).
    private let limited: Lines
    /// A notice that waits for a hand on the box: the prompt is `notice`,
    /// this the text a held Start reveals (Shell+Notice.swift).
    @exclusivity(unchecked) var hidden: (text: Frame, lasts: Duration)?
    /// Whether the notice up was revealed by a press on the box.
    @exclusivity(unchecked) public internal(set) var noticeConfirmed = false
    /// Buttons whose press a notice took, with their last level and when:
    /// their chatter and release are the notice's too.
    @exclusivity(unchecked) var taken: [Button: (active: Bool, at: Instant)] = [:]
    @exclusivity(unchecked) var holdTimer: LoopTimer!
    /// Output faults seen so far, by device (logged once each until it recovers).
    @exclusivity(unchecked) var faulty: Set<String> = []
    /// Whether the wall clock is synchronised, since when, its steps (Shell+ClockTrust.swift).
    @exclusivity(unchecked) public internal(set) var clockTrust: ClockTrust
    @exclusivity(unchecked) var clockWatch: LoopTimer!

    public init(core: Machine, loop: any EventLoop, display: any SegmentDisplay, sounder: any Sounder,
                leds: [String: any DigitalOutput], log: Logger) {
        self.core = core
        self.loop = loop
        self.display = display
        self.sounder = sounder
        self.leds = leds
        self.log = log
        clockTrust = ClockTrust(at: loop.now())
        limited = Lines(log: log, loop: loop)
        let reach = Reach()
        self.reach = reach
        wakeMonotonic = loop.makeTimer { reach.shell?.woke(.monotonic) }
        wakeWall = loop.makeTimer { reach.shell?.woke(.wall) }
        noticeTimer = loop.makeTimer { reach.shell?.endNotice() }
        holdTimer = loop.makeTimer { reach.shell?.holdElapsed() }
        clockWatch = loop.makeTimer { reach.shell?.tick() }
        loop.onClockStep {
            guard let shell = reach.shell else { return }
            // After a step back a delivered calendar deadline may lie ahead
            // again: asked for again, it is scheduled again.
            shell.asked.wall = nil
            shell.clockStepped()
        }
        reach.shell = self
    }

    deinit { reach.shell = nil }

    /// The shell as its timers and the loop's step handler reach it, until
    /// it goes. Not a weak reference: an object weakly referenced keeps its
    /// counts in a side table, and every retain and release of it takes the
    /// runtime's slow path (about 200 instructions a wake-up, `make
    /// bench-tick`). One thread; cleared in `deinit`, before the shell is gone.
    private final class Reach {
        unowned(unsafe) var shell: Shell?
    }
    private let reach: Reach

    func clock() -> Now { loop.now() }

    /// Where a state to remember goes (the state file), before the
    /// followers hear of the batch; called only when there is one.
    @exclusivity(unchecked) public var remember: ((Snapshot) -> Void)?

    /// Follow every change the box makes, batch by batch, in the order
    /// `observe` was called (see `BoxChange`).
    public func observe(_ observer: @escaping (BoxChange) -> Void) {
        observers.append(Observer(see: observer))
    }

    func tell(_ change: BoxChange) {
        if change.persists, let remember, let s = change.persist { remember(s) }
        for o in observers { o.see(change) }
    }

    /// Whether pressing `button` now would change anything (`Machine.pressChanges`).
    public func pressChanges(_ button: Button) -> Bool { core.pressChanges(button, at: clock()) }

    /// Drive the buzzer off first (whatever a crash left behind), then show
    /// the initial state.
    public func start() {
        output("buzzer") { try sounder.sound(nil) }
        let now = clock()
        dated = now.monotonic
        let seen = look(at: now)
        report(seen.isEmpty ? clockTrust.atStart : seen, at: now)
        perform(core.handle(.powerOn, at: now), at: now.monotonic, clock: true)
    }

    public func edge(_ e: Edge) {
        if noticeTakes(e) { return }
        handle(.edge(e.line, active: e.active, at: e.timestamp))
    }
    public func tick() { handle(.wake) }
    /// The core's own wake-up, on the clock whose deadline it served.
    private func woke(_ served: Served) { handle(.wake, served: served) }
    public func clockStepped() { handle(.clockStepped) }
    public func action(_ a: ButtonAction) { handle(.remotePress(a)) }
    /// `tock switch up|down`: the switch set as if the lever had moved.
    public func setSwitch(_ p: SwitchPosition) { handle(.remoteSwitch(p)) }

    /// `tock brightness`, `tock night`: the display's dimming, kept across restarts.
    public func setDimming(_ d: Dimming) throws(Machine.Refusal) { try request(.setDimming(d)) }

    /// The light sensor's reading (nil: it does not answer).
    public func ambientLight(_ lux: Double?) { handle(.ambientLight(lux)) }
    /// The box's addresses and name, after a change (`NetworkWatch`).
    public func network(_ identity: NetworkIdentity) { handle(.network(identity)) }

    /// A reloaded configuration: the same state under new settings.
    public func reconfigure(_ settings: Settings) { handle(.reconfigure(settings)) }

    /// `tock set`: replace the current preset.
    public func setPreset(_ d: Duration) throws(Machine.Refusal) { try request(.setPreset(d)) }

    /// `tock mode`: change the mode.
    public func setMode(_ mode: Settings.Mode) throws(Machine.Refusal) { try request(.setMode(mode)) }

    /// `tock program NAME`: select a named interval program.
    public func selectProgram(_ name: String) throws(Machine.Refusal) { try request(.selectProgram(name)) }

    /// `tock alarm add|rm|on|off|skip-next`.
    public func editAlarms(_ edit: Machine.AlarmEdit) throws(Machine.Refusal) { try request(.editAlarms(edit)) }
    /// `tock timer add|pause|resume|cancel`.
    public func timer(_ r: ExtraTimers.Request) throws(Machine.Refusal) { try request(.timer(r)) }
    /// `tock add 2m [NAME]`: time added to a count (negative: taken away).
    public func addTime(_ d: Duration, to ref: Machine.CountRef) throws(Machine.Refusal) { try request(.addTime(d, ref)) }
    /// The extra timers now: each with what is left, its end on the wall
    /// clock while it runs, and whether it is the count on the display.
    public func timers() -> [TimerView] {
        let now = clock()
        let shown = core.focus(at: now.monotonic)
        return core.timers.list.map { x in
            TimerView(timer: x, left: x.left(at: now.monotonic), ends: x.ends.map { now.wall + ($0 - now.monotonic) },
                      shown: shown == .extra(x.name))
        }
    }

    /// Whether something rings now: the box's own count, an extra timer
    /// (on the display or waiting its turn) or a daily alarm. What a
    /// silence request needs, and what Home Assistant's *Silence* follows.
    public var rings: Bool {
        state == .ringing || core.alarms.isRinging || core.timers.list.contains { if case .ringing = $0.state { true } else { false } }
    }

    /// Elapsed and remaining time now.
    public func progress() -> Progress { core.progress(at: clock()) }
    /// When the running count reaches its end on the wall clock: nil unless
    /// a count with an end runs (a paused one may never end).
    public func finishesAt() -> WallTime? {
        let now = clock()
        guard state == .running, let remaining = core.progress(at: now).remaining else { return nil }
        return now.wall + remaining
    }
    /// Whether an interval program is in a rest phase now.
    public func resting() -> Bool { core.program.resting(at: clock()) }

    /// What the display means now, without its blink phases.
    public func displayMeaning() -> DisplayMeaning {
        core.displayMeaningInPlace(at: clock())
    }

    /// Whether the fleet group can be reached (presses go through it).
    public var groupLinked: Bool {
        get { core.groupLinked }
        set { handle(.groupLink(newValue)) }
    }

    /// Take the fleet group's program (see `Machine.Input.adoptGroup`).
    public func adoptGroup(_ state: Snapshot.Count) throws(Machine.Refusal) { try request(.adoptGroup(state)) }

    /// Reads the input lines when the loop finds them readable and hands
    /// their edges to the core (`onEdges` sees them first). A line whose
    /// descriptor fails (its chip went away) goes to `onFailure`: it would
    /// be reported readable forever, so the caller stops.
    public func watch(_ readers: [any EdgeReader], onEdges: @escaping ([Edge]) -> Void,
                      onFailure: @escaping (any Error) -> Void) throws {
        for reader in readers {
            try loop.watch(reader.descriptor) { [unowned self] in
                do {
                    let edges = try reader.readEdges()
                    onEdges(edges)
                    for e in edges {
                        log.debug("edge \(e)")
                        edge(e)
                    }
                } catch {
                    log.critical("reading input events failed: \(error); stopping so the hardware is opened again")
                    onFailure(error)
                }
            }
        }
    }

    public func unwatch(_ readers: [any EdgeReader]) {
        for reader in readers { try? loop.unwatch(reader.descriptor) }
    }

    /// Every exit path: buzzer off, display dark, LEDs off.
    public func shutdown() {
        output("buzzer") { try sounder.sound(nil) }
        if let f = frame { output("display") { try display.show(f.dark) } }
        noticeTimer.cancel()
        limited.close()
        holdTimer.cancel()
        for (name, led) in leds { output("led \(name)") { try led.set(false) } }
    }

    /// The instant the batch being carried out is dated by: the deadline a
    /// wake-up of the core's served (the instant the digits stepped, however
    /// late the wake-up came), an edge's timestamp, otherwise the time the
    /// batch began. What follows the count's time is spaced by it (MQTT's
    /// least gap between two values of a topic: docs/mqtt.md).
    public internal(set) var dated = Instant.zero
    enum Served { case monotonic, wall }

    /// `clockChanged`: the wall clock's verdict changed before this call
    /// (seen by `lookAtClock`). `served`: the core's deadline on that clock
    /// brought this wake-up.
    func handle(_ input: Machine.Input, clockChanged: Bool = false, served: Served? = nil) {
        let now = clock()
        switch served {
        case .monotonic?: dated = min(asked.monotonic ?? now.monotonic, now.monotonic)
        case .wall?: dated = min(asked.wall.map(now.monotonic(at:)) ?? now.monotonic, now.monotonic)
        case nil:
            // An edge is dated by the kernel's timestamp (what the count
            // starts from), not by when the loop got to it.
            if case .edge(_, _, let at) = input { dated = min(at, now.monotonic) } else { dated = now.monotonic }
        }
        let seen = look(at: now)
        // The outputs' list is the one the last batch used, taken out while
        // this one is carried out (a follower that hands the shell an input
        // gets a list of its own) and put back for the next.
        var out = Machine.Output()
        swap(&out, &outputs)
        core.handle(input, at: now, into: &out)
        if !seen.isEmpty { report(seen, at: now) }
        perform(out, at: now.monotonic, clock: clockChanged || !seen.isEmpty)
        outputs = out
    }

    /// A request that may be refused: the refusal is thrown, nothing done.
    private func request(_ input: Machine.Input) throws(Machine.Refusal) {
        let now = clock()
        dated = now.monotonic
        let seen = look(at: now)
        let out = core.handle(input, at: now)
        if !seen.isEmpty { report(seen, at: now) }
        if let refusal = out.refusal { throw refusal }
        perform(out, at: now.monotonic, clock: !seen.isEmpty)
    }

    /// `clock`: the wall clock's verdict changed with this batch.
    func perform(_ out: Machine.Output, at t: Instant, clock: Bool = false) {
        var change = BoxChange()
        change.clock = clock
        for i in out.items.indices {
            if let trace { trace.record(out.items[i], at: t) }
            switch out.items[i] {
            case .command(.render(let f)):
                frame = f
                if notice == nil {
                    show(f)
                    change.frame = f
                }
            case .command(.buzzer(let tone)):
                if (tone == nil) != (self.tone == nil) { log.debug("buzzer \(tone == nil ? "off" : "on")") }
                self.tone = tone
                output("buzzer") { try sounder.sound(tone) }
                change.buzzer = tone != nil
            case .report(.stateChanged(let s)):
                if let old = state { limited.state(.info, "state \(old.rawValue) -> \(s.rawValue)") }
                state = s
                change.state = s
            case .command(.led(let name, let lit)):
                if let led = leds[name] { output("led \(name)") { try led.set(lit) } }
                change.alarmsOrLEDs = true
            case .command(.wake(let m, let w)):
                wake(monotonic: m, wall: w)
            case .command(.persist(let s)):
                change.persist = s
            case .report(.alarm(let notice)):
                limited.alarm(.notice, "\(AlarmText.describe(notice, zone: core.alarms.zone))")
                change.alarmsOrLEDs = true
            case .command(.group(let g)):
                change.group = g
            case .report(.round(let r)):
                limited.round(.info, "round \(r.round)\(r.set.map { " of set \($0)" } ?? "")")
                change.round = r
            case .report(.refused):
                break  // (thrown by `request`)
            case .report(.timers(let timers)):
                limited.timers(.info, timers.list.isEmpty ? "timers: none" : "timers: \(timers.list.map { "\($0.name) \($0.stateName.rawValue)" }.joined(separator: ", "))")
                change.timers = true
            case .report(.timerRang(let name)):
                limited.rang(.notice, "timer \(name) rang")
                change.timersRang.append(name)
            case .report(.addressShown(let line)):
                log.info("display: the address scrolls: \(line)")
            }
        }
        // A flip, by the lever or a request, whatever it shows.
        let position = core.input.switchPosition
        if position != lastSwitch {
            change.switchPosition = position
            lastSwitch = position
        }
        // While a notice is up the core's frames are kept, not shown, and
        // not handed on (what is handed on is what the display shows).
        change.output = notice == nil ? out : Machine.Output(out.items.filter {
            if case .command(.render) = $0 { false } else { true }
        })
        tell(change)
    }

    /// The monotonic wake-up the core last asked for: its next one, or
    /// one already delivered (compare with the time).
    public var nextWake: Instant? { asked.monotonic }

    /// The core's wake-ups on the loop. A deadline the core asks for again
    /// is left as it is: still scheduled, or, when it has fired, not
    /// rescheduled (a core that hands a delivered deadline back is not
    /// woken again for it). A batch that changes nothing costs two
    /// comparisons.
    private func wake(monotonic m: Instant?, wall w: WallTime?) {
        if m != asked.monotonic {
            asked.monotonic = m
            wakeMonotonic.schedule(at: m)
        }
        if w != asked.wall {
            asked.wall = w
            wakeWall.schedule(atWall: w)
        }
    }
}

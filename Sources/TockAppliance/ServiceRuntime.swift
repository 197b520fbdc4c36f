import Foundation
import Logging
import TockCore
import TockHardware
import TockLinux

/// `tock run`: the appliance in the foreground as systemd expects it. One
/// thread, one epoll loop: GPIO event descriptors, the timerfds, signals.
public final class ServiceRuntime {
    public struct Options {
        public var configPath: String?
        public var backend: Hardware.Backend = .gpiod
        public var tracePath: String?
        /// A named pipe whose lines drive the mock inputs (`MockInputStream`).
        public var mockInputPath: String?
        /// Where to write the `TimingLog`.
        public var timingLogPath: String?
        public var statePath: String?
        public var controlPath: String?
        /// How long a control connection may stay silent, or a request
        /// half-sent, before it is dropped (watchers excepted).
        public var controlIdleLimit: Duration = .seconds(5)
        public var chips = "/dev"
        public init() {}
    }

    private let options: Options
    private let log: Logger
    private let clock = SystemClock()
    private var wake: (Instant?, WallTime?) = (nil, nil)
    private var nextWatchdog: Instant?

    public init(options: Options, log: Logger) {
        self.options = options
        self.log = log
    }

    public func run() throws {
        var config = try options.configPath.map { try ApplianceConfig.load(path: $0) } ?? ApplianceConfig.defaults()
        for w in config.warnings { log.warning("\(w)") }
        if SystemClock.synchronised == nil {
            log.warning("cannot read the kernel's clock status (adjtimex(2) refused); the idle clock shows the time without waiting for NTP")
        }
        if let s = config.scheduling {
            do { try s.apply() } catch { log.warning("\(error)") }
        }
        // Claimed before any hardware is opened: a second instance refused
        // here has not touched the first one's lines, display or buzzer.
        let lock = try options.statePath.map { try StateLock.take(statePath: $0) }
        defer { lock?.release() }
        let listener = try options.controlPath.map { try ControlServer.listen(path: $0) }
        let reactor = try Reactor()
        let notifier = SystemdNotifier(environment: ProcessInfo.processInfo.environment)
        let hardware: Hardware
        switch options.backend {
        case .mock:
            let input = try options.mockInputPath.map {
                try MockInputStream(path: $0, switchPosition: config.switchPosition, timestamp: clock.boottimeFromMonotonic,
                                    now: { [clock] in clock.now().monotonic }, log: log)
            }
            hardware = Hardware.mock(config, clock: { [clock] in clock.now().monotonic }, input: input)
        case .gpiod: hardware = try Hardware.gpiod(config, chips: options.chips, log: log, timestamp: clock.boottimeFromMonotonic)
        }
        log.info("hardware: \(hardware.summary)")

        let store = options.statePath.map { StateStore(path: $0, log: log) }
        let start = clock.now()
        let saved = store?.load(at: start)
        let core = Machine(settings: config.settings, switchPosition: hardware.switchPosition, restoring: saved, at: start)
        if let listed = saved?.filePresets, listed != config.settings.presets.map(\.nanoseconds) {
            log.notice("the presets in \(options.configPath ?? "the configuration") changed since the state was saved: the file's list is used\(core.pendingSettings != nil ? " from the next reset (a count is in progress)" : ""), edits made on the box are dropped")
        } else if core.pendingSettings != nil {
            log.notice("\(options.configPath ?? "the configuration") changed the mode since the state was saved: it applies from the next reset (a count is in progress)")
        }
        let driver = ApplianceDriver(core: core, clock: { [clock] in clock.now() }, display: hardware.display,
                                     sounder: hardware.sounder, leds: hardware.leds, log: log)
        let trace = try options.tracePath.map { try TraceSink(path: $0) }
        if let trace { driver.trace = TraceWriter(origin: start.monotonic, leds: config.leds, sink: trace.write) }
        driver.onPersist = { [clock] in store?.save($0, at: clock.now().monotonic) }
        driver.onWake = { [unowned self] m, w in wake = (m, w) }
        hardware.panel?.connect { driver.edge($0) }
        let service = ControlService(driver: driver, now: { [clock] in clock.now().monotonic })
        if let store { service.statusExtras.append { $0["state_writes"] = store.writes } }
        let control = try listener.map {
            try ControlServer(listener: $0, reactor: reactor, service: service, log: log, idleLimit: options.controlIdleLimit,
                              now: { [clock] in clock.now().monotonic })
        }
        let mqtt = try config.mqtt.map {
            MqttBridge(config: $0, client: try MqttClient(config: $0, reactor: reactor, log: log, now: { [clock] in clock.now().monotonic }),
                       driver: driver, service: service, log: log, clock: { [clock] in clock.now() })
        }
        let timingSink = try options.timingLogPath.map { try TraceSink(path: $0, what: "the timing log") }
        let timing = timingSink.map { TimingLog(boottimeOffset: clock.boottimeOffset(), sink: $0.write) }
        driver.onCommands = { [clock] commands in
            control?.publish(commands)
            mqtt?.outputs(commands)
            timing?.outputs(commands, doneAt: clock.now().monotonic)
        }
        if let timing { reactor.onDeadlineWake = { timing.wake(deadline: $0, at: $1) } }

        var status = ""
        func report() {
            let s = "\(driver.state?.rawValue ?? "starting") \(driver.frame?.text ?? "")"
            guard s != status else { return }
            status = s
            try? notifier.notify(["STATUS=\(s)"])
        }
        func rearm() {
            let m = [wake.0, nextWatchdog, control?.deadline, mqtt?.client.deadline, mqtt?.deadline, store?.deadline].compactMap { $0 }.min()
            let w = [wake.1, mqtt?.group?.wallDeadline].compactMap { $0 }.min()
            do { try reactor.arm(monotonic: m, wall: w) } catch { log.critical("cannot arm the timer: \(error)") }
            trace?.flush()
            timingSink?.flush()
            report()
        }
        control?.onActivity = rearm
        mqtt?.client.onActivity = rearm
        // An input whose descriptor fails (its chip went away) would be
        // reported readable forever: stop instead, with an error, so the
        // service manager restarts us and the hardware is opened afresh.
        var inputFailure: (any Error)?
        for reader in hardware.readers {
            try reactor.watch(reader.descriptor) { [log, clock] in
                do {
                    let edges = try reader.readEdges()
                    let readAt = timing.map { _ in clock.now().monotonic }
                    for e in edges {
                        if let timing, let readAt { timing.edge(e, readAt: readAt) }
                        log.debug("edge \(e)")
                        driver.edge(e)
                    }
                } catch {
                    log.critical("reading input events failed: \(error); stopping so the hardware is opened again")
                    inputFailure = error
                    reactor.stop()
                }
                rearm()
            }
        }
        reactor.onTimer = { [unowned self] in
            let now = clock.now().monotonic
            if let w = nextWatchdog, w <= now, let interval = notifier.watchdogInterval {
                // Pinged from the loop itself: a stuck loop stops pinging
                // and systemd restarts the service.
                try? notifier.notify(["WATCHDOG=1"])
                nextWatchdog = now + interval
            }
            control?.expire()
            store?.flush(at: now)
            if let mqtt {
                mqtt.client.expire()
                mqtt.group?.expire()
            }
            driver.tick()
            mqtt?.serve()  // after the timer's own work
            rearm()
        }
        reactor.onClockStepped = { [log] in
            log.notice("the real-time clock was stepped")
            driver.clockStepped()
            rearm()
        }
        var stopping = false
        reactor.onSignal = { [log] signal in
            if signal == SIGHUP {
                config = self.reload(config, driver: driver, notifier: notifier)
                rearm()
                return
            }
            log.notice("signal \(signal): stopping")
            stopping = true
            reactor.stop()
        }
        defer {
            reactor.onTimer = nil
            reactor.onSignal = nil
            reactor.onClockStepped = nil
            reactor.onDeadlineWake = nil
        }

        driver.start()
        mqtt?.client.start()
        if let interval = notifier.watchdogInterval { nextWatchdog = clock.now().monotonic + interval }
        rearm()
        try? notifier.notify(["READY=1", "STATUS=\(status)"])
        timing?.ready(at: clock.now().monotonic)
        log.notice("ready: \(driver.state?.rawValue ?? "?") \(driver.frame?.text ?? "")")
        do {
            try reactor.run()
        } catch {
            driver.shutdown()
            throw error
        }
        try? notifier.notify(["STOPPING=1"])
        control?.close()
        mqtt?.close()
        store?.save(driver.core.snapshot(at: clock.now()))
        driver.shutdown()
        trace?.flush()
        timingSink?.flush()
        if let inputFailure { throw inputFailure }
        if stopping { log.notice("stopped") }
    }
}

extension ServiceRuntime {
    /// SIGHUP: read the file again. A bad file is logged with every problem
    /// and the running configuration kept; a good one applies at once,
    /// except for the wiring, which needs a restart (the lines are held).
    func reload(_ running: ApplianceConfig, driver: ApplianceDriver, notifier: SystemdNotifier) -> ApplianceConfig {
        guard let path = options.configPath else {
            log.notice("SIGHUP: no configuration file to reload")
            return running
        }
        try? notifier.notify(["RELOADING=1"])
        defer { try? notifier.notify(["READY=1"]) }
        let fresh: ApplianceConfig
        do {
            fresh = try ApplianceConfig.load(path: path)
        } catch {
            log.error("SIGHUP: \(path) refused, keeping the running configuration:\n\(error)")
            return running
        }
        if fresh.hardware != running.hardware || fresh.leds != running.leds {
            log.warning("SIGHUP: wiring changes in \(path) apply at the next restart (systemctl restart tock)")
        }
        driver.reconfigure(fresh.settings)
        log.notice("SIGHUP: \(path) reloaded\(driver.core.pendingSettings != nil ? "; it applies when the count in progress is reset" : "")")
        var applied = fresh
        applied.hardware = running.hardware
        applied.leds = running.leds
        return applied
    }
}

import Glibc
import Logging
import TockConfig
import TockCore
import TockHardware
import TockLinux
import TockLoop
import TockHost
import TockControl
import TockDevices
import TockShell

/// `tock run`: the appliance in the foreground as systemd expects it. One
/// thread, one epoll loop: GPIO event descriptors, the timerfds, signals.
public final class ServiceRuntime {
    public struct Options {
        public var configPath: String?
        public var backend: Devices.Backend = .gpiod
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

    public init(options: Options, log: Logger) {
        self.options = options
        self.log = log
    }

    /// Starts, runs until a stop signal (or a failed input), and stops
    /// cleanly: every exit path leaves the buzzer off and the state saved.
    public func run() throws {
        // The command line's code is done with, and after the next line
        // the configuration's: each let go before the next part of
        // start-up touches its own, so they do not add up in the peak
        // (Benchmarks/README.md, footprint).
        ImagePages.releaseStartupPages()
        let config = try loadConfiguration()
        ImagePages.releaseStartupPages()
        // Claimed before any hardware is opened: a second instance refused
        // here has not touched the first one's lines, display or buzzer.
        let lock = try options.statePath.map { try StateLock.take(statePath: $0) }
        defer { lock?.release() }
        let listener = try options.controlPath.map { try ControlServer.listen(path: $0) }
        let reactor = try Reactor()
        let devices = try openDevices(config)
        let trace = try options.tracePath.map { try TraceSink(path: $0) }
        var setup = Box.Setup(config: config, devices: devices)
        setup.configName = options.configPath ?? setup.configName
        setup.statePath = options.statePath
        setup.control = listener
        setup.controlIdleLimit = options.controlIdleLimit
        setup.trace = trace?.write
        setup.watchAddresses = true
        let box = try Box(setup, loop: reactor, log: log)
        let manager = ServiceManager(box: box, loop: reactor)
        let timing = try options.timingLogPath.map { try TimingProbe(path: $0, box: box, reactor: reactor) }
        box.shell.observe { change in
            if !change.notice { timing?.outputs(change.output) }
            trace?.flush()
            manager.outputs()
        }
        // An input whose descriptor fails (its chip went away) would be
        // reported readable forever: stop instead, with an error, so the
        // service manager restarts us and the hardware is opened afresh.
        var inputFailure: (any Error)?
        box.onInputFailure = { error in
            inputFailure = error
            reactor.stop()
        }
        let reload = options.configPath.map { ConfigReload(path: $0, running: config, shell: box.shell, loop: reactor, log: log) }
        reload?.onReloading = { manager.reloading() }
        reload?.onReloaded = { manager.reloaded() }
        if let reload { box.addStatusFields { [unowned reload] s in s.configWaitsForRestart = reload.waitsForRestart } }
        // A storm of signals with no file to read: one line a minute.
        let noFileLog = LimitedLog(log: log, loop: reactor)
        reactor.onSignal = { [log] signal in
            if signal == SIGHUP {
                guard let reload else { return noFileLog(.notice, "SIGHUP: no configuration file to reload") }
                return reload.requested()
            }
            log.notice("signal \(signal): stopping")
            reactor.stop()
        }
        defer {
            reactor.onSignal = nil
            reactor.onDeadlineWake = nil
            reload?.cancel()
            noFileLog.close()
        }

        box.start()
        manager.ready()
        timing?.ready()
        log.notice("ready: \(box.shell.state?.rawValue ?? "?") \(box.shell.frame?.text ?? "")")
        // Start-up's code and constants are not needed again (Benchmarks/README.md, footprint),
        // nor, a minute on, what a rare path touched since (a press, a reload, a connection).
        ImagePages.releaseStartupPages()
        let trim = ImagePages.Trim(loop: reactor)
        defer { trim.stop() }
        do {
            try reactor.run()
        } catch {
            box.shell.shutdown()
            throw error
        }
        manager.stopping()
        box.stop()
        trace?.flush()
        timing?.flush()
        if let inputFailure { throw inputFailure }
        log.notice("stopped")
    }

    private func loadConfiguration() throws -> Configuration {
        let config = try options.configPath.map { try Configuration.load(path: $0) } ?? Configuration.defaults()
        for w in config.warnings { log.warning("\(w)") }
        if SystemClock.synchronised == nil {
            log.warning("cannot read the kernel's clock status (adjtimex(2) refused); the idle clock shows the time without waiting for NTP")
        }
        if let s = config.scheduling {
            do { try s.apply() } catch { log.warning("\(error)") }
        }
        return config
    }

    private func openDevices(_ config: Configuration) throws -> Devices {
        let clock = SystemClock()
        let devices: Devices
        switch options.backend {
        case .mock:
            let input = try options.mockInputPath.map {
                try MockInputStream(path: $0, timestamp: clock.boottimeFromMonotonic, now: { clock.now().monotonic }, log: log)
            }
            devices = Devices.mock(config, clock: clock.monotonic, input: input)
        case .gpiod: devices = try Devices.gpiod(config, chips: options.chips, log: log, timestamp: clock.boottimeFromMonotonic)
        }
        log.info("hardware: \(devices.summary)")
        return devices
    }
}

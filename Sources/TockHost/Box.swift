import Logging
import TockConfig
import TockCore
import TockHardware
import TockLinux
import TockLoop
import TockMQTT
import TockControl
import TockDevices
import TockShell

/// The appliance wired once: the core and its shell, the devices, the
/// state file, the trace, the control socket and MQTT, all on one loop.
/// `tock run` puts it on the reactor with the real devices, `tock sim` on
/// the reactor (at the keyboard) or on virtual time (a script) with the
/// mock ones, and the tests on virtual time.
public final class Box {
    /// What to wire.
    public struct Setup {
        public var config: Configuration
        /// Where the configuration came from, for log lines.
        public var configName = "the configuration"
        public var devices: Devices
        /// The state file (`<state>.lock` is the caller's).
        public var statePath: String?
        /// The control socket, already bound.
        public var control: UnixListener?
        public var controlIdleLimit: Duration = .seconds(5)
        /// Where trace lines go (JSON Lines without the newline).
        public var trace: ((String) -> Void)?
        /// Where the kernel lists its RTCs (`/sys/class/rtc`); nil: none looked at.
        public var rtcDirectory: String? = "/sys/class/rtc"
        /// The daily update check's result (docs/updates.md); nil: beside
        /// the state file, when there is one.
        public var updateCheckPath: String?
        /// Watch the kernel's IPv4 addresses (`NetworkWatch`): the
        /// service and the interactive simulator; not the scripted one
        /// nor the tests, whose displays must not depend on the machine.
        public var watchAddresses = false
        /// The MQTT link for `mqtt:`; libmosquitto's unless a test brings its own.
        public var transport: (MqttConfig, any EventLoop, Logger) throws -> any MqttTransport = { try MqttClient(config: $0, loop: $1, log: $2) }

        public init(config: Configuration, devices: Devices) {
            self.config = config
            self.devices = devices
        }
    }

    public let loop: any EventLoop
    public let shell: Shell
    public let store: StateStore?
    let control: ControlServer?
    let mqtt: MqttBridge?
    let service: ControlService
    /// Reads the light sensor (`light:`), when one was opened.
    let light: LightSampler?
    /// The addresses for the display, when watched.
    let network: NetworkWatch?
    private let devices: Devices
    private let log: Logger
    /// Called with the edges read from an input, before they are handled.
    public var onEdges: (([Edge]) -> Void)?
    /// An input failed (its chip went away): the caller stops the loop.
    public var onInputFailure: ((any Error) -> Void)?

    public init(_ setup: Setup, loop: any EventLoop, log: Logger) throws {
        self.loop = loop
        self.log = log
        devices = setup.devices
        let config = setup.config
        let store = setup.statePath.map { StateStore(path: $0, log: log, loop: loop) }
        self.store = store
        let start = loop.now()
        let saved = store?.load(at: start)
        let core = Machine(settings: config.settings, switchPosition: devices.switchPosition, restoring: saved, at: start)
        if let listed = saved?.filePresets, listed != config.settings.presets.map(\.nanoseconds), core.pendingSettings != nil {
            log.notice("the presets in \(setup.configName) changed since the state was saved: the file's list is used from the next reset (a count is in progress), edits made on the box are dropped")
        } else if let saved, core.pendingSettings == nil {
            for line in ListNotes.lines(before: saved, after: core.snapshot(at: start), name: setup.configName) {
                log.notice("since the state was saved, \(line)")
            }
        } else if core.pendingSettings != nil {
            log.notice("\(setup.configName) changed the mode since the state was saved: it applies from the next reset (a count is in progress)")
        }
        if let d = saved?.dimming, d.dimming.record != d.file, d.file != Dimming(config.settings.display).record {
            log.notice("display.brightness or display.night in \(setup.configName) changed since the state was saved: the file's values are used, the ones set with tock brightness, tock night or the web page are dropped")
        }
        shell = Shell(core: core, loop: loop, display: devices.display, sounder: devices.sounder, leds: devices.leds, log: log)
        if let trace = setup.trace { shell.trace = TraceWriter(origin: start.monotonic, leds: config.leds, sink: trace) }
        if let store { shell.remember = { [loop] s in store.save(s, at: loop.now().monotonic) } }
        let shell = shell
        let service = ControlService(shell: shell, now: { [loop] in loop.now().monotonic })
        self.service = service
        if let store { service.addStatusFields { $0.stateWrites = store.writes } }
        let light = zip(devices.light, config.settings.light).map { LightSampler(sensor: $0, every: $1.every, shell: shell, loop: loop, log: log) }
        self.light = light
        if let problem = devices.lightProblem {
            log.warning("\(problem); the display keeps the brightness set by hand and the night schedule")
            service.addStatusFields { $0.light = BoxStatus.Light(lux: nil, level: nil, problem: problem) }
        }
        if let light { service.addStatusFields { $0.light = light.status } }
        var watch: NetworkWatch?
        do {
            watch = setup.watchAddresses ? try NetworkWatch(shell: shell, loop: loop, log: log) : nil
        } catch {
            log.warning("network: no rtnetlink socket (\(error)); the address shows on the display only when Stop is held")
        }
        network = watch
        service.addStatusFields { [watch] s in
            let name = watch?.last?.name ?? AddressWatch.localName()
            s.host = name.hasSuffix(".local") ? String(name.dropLast(6)) : name
            s.addresses = watch?.last?.addresses
        }
        if let dir = setup.rtcDirectory {
            let rtc = RTCWatch(directory: dir, log: log)
            _ = rtc.rtc(at: loop.now())  // said in the log at the start
            service.addStatusFields { [loop] in rtc.fields(&$0, at: loop.now()) }
        }
        control = try setup.control.map {
            try ControlServer(listener: $0, loop: loop, service: service, log: log, idleLimit: setup.controlIdleLimit)
        }
        mqtt = try config.mqtt.map {
            MqttBridge(config: $0, client: try setup.transport($0, loop, log), loop: loop, shell: shell, service: service, log: log)
        }
        if let control { shell.observe { control.publish($0) } }
        if let path = setup.updateCheckPath ?? setup.statePath.map(UpdateCheckFile.beside(statePath:)) {
            let file = UpdateCheckFile(path: path, log: log)
            service.readUpdateCheck = file.read
            if let mqtt { service.onUpdateCheck.append(mqtt.updateChecked) }
            service.reloadUpdateCheck()
        }
        try shell.watch(devices.readers, onEdges: { [unowned self] in onEdges?($0) },
                         onFailure: { [unowned self] in onInputFailure?($0) })
        try devices.watchScript(on: loop, log: log, onFailure: { [unowned self] in onInputFailure?($0) })
    }

    /// Fields of the status that the box's owner adds (the reload's).
    public func addStatusFields(_ fields: @escaping (inout BoxStatus) -> Void) { service.addStatusFields(fields) }

    /// Buzzer off, the first frame, then the links.
    public func start() {
        shell.start()
        network?.start()
        light?.start()
        mqtt?.start()
    }

    /// A clean stop: links closed, the state saved at once, the outputs dark.
    public func stop() {
        control?.close()
        mqtt?.close()
        shell.unwatch(devices.readers)
        devices.unwatchScript(on: loop)
        light?.stop()
        network?.stop()
        store?.save(shell.core.savedSnapshot(at: loop.now()))
        shell.shutdown()
    }
}

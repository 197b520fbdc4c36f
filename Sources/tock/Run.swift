import ArgumentParser
import Glibc
import Logging
import TockHost
import TockConfig
import TockService
import TockDevices
import TockLinux

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the appliance in the foreground (as the systemd service does)."
    )

    @Option(help: "Configuration file (YAML).")
    var config: String?

    @Option(help: "gpiod (the GPIO character device) or mock (no hardware).")
    var backend: Devices.Backend = .gpiod

    @Option(help: "Write the trace (JSON Lines) to this file as the appliance runs.")
    var trace: String?

    @Option(help: ArgumentHelp("With --backend mock: a named pipe (mkfifo) whose lines press the buttons and flip the switch.",
                               discussion: "One edge per line: \(MockInputStream.grammar), e.g. echo 'start 1' > PATH."))
    var mockInput: String?

    @Option(help: "Write when the loop woke against when it was due, and each input and output, with CLOCK_MONOTONIC nanoseconds (see Benchmarks/).")
    var timingLog: String?

    @Option(help: ArgumentHelp("State file that survives restarts (default: $STATE_DIRECTORY/state.json under systemd).",
                               discussion: "Locked (flock on <state>.lock, holding the PID) while tock runs: a second tock run on it refuses to start."))
    var state: String?

    @Option(help: ArgumentHelp("Control socket path (default: $RUNTIME_DIRECTORY/control.sock under systemd; none otherwise).",
                               discussion: "Only a stale socket at the path is replaced; a live one, or anything else, refuses the start."))
    var socket: String?

    @Option(help: "Close a control connection that stays silent, or leaves a request unfinished, this long (watchers excepted).")
    var controlTimeout: String = "5s"

    @Flag(help: "Log every input edge with its kernel timestamp, and every output change.")
    var verbose = false

    @Option(help: "Directory holding the gpiochip devices.")
    var chips: String = "/dev"

    func validate() throws {
        if mockInput != nil, backend != .mock {
            throw ValidationError("--mock-input drives mock lines: use it with --backend mock")
        }
    }

    func run() throws {
        try Self.start(RunArguments(config: config, backend: backend, trace: trace, mockInput: mockInput, timingLog: timingLog,
                                    state: state, socket: socket, controlTimeout: controlTimeout, verbose: verbose, chips: chips))
    }

    /// The appliance in the foreground, however its command line was read.
    static func start(_ a: RunArguments) throws {
        let level: Logger.Level = a.verbose ? .debug : .info
        LoggingSystem.bootstrap { label in
            var h = JournalLogHandler(label: label)
            h.logLevel = level
            return h
        }
        let log = Logger(label: "tock")
        var options = ServiceRuntime.Options()
        options.configPath = a.config
        options.backend = a.backend
        options.tracePath = a.trace
        options.mockInputPath = a.mockInput
        options.timingLogPath = a.timingLog
        options.chips = a.chips
        do { options.controlIdleLimit = try DurationText.parse(a.controlTimeout) } catch {
            throw ValidationError("--control-timeout: \(error.description)")
        }
        guard options.controlIdleLimit >= .milliseconds(1) else { throw ValidationError("--control-timeout: at least 1ms") }
        // getenv, not ProcessInfo's environment: that builds a dictionary of
        // every variable (1.5 M instructions at start).
        options.controlPath = a.socket ?? Environment.value("RUNTIME_DIRECTORY")
            .map { "\($0.split(separator: ":").first.map(String.init) ?? $0)/control.sock" }
        options.statePath = a.state ?? Environment.value("STATE_DIRECTORY")
            .map { "\($0.split(separator: ":").first.map(String.init) ?? $0)/state.json" }
        do {
            try ServiceRuntime(options: options, log: log).run()
        } catch let e as ConfigError {
            log.critical("configuration refused:\n\(e.description)")
            throw ExitCode(2)
        } catch {
            log.critical("\(error)")
            throw ExitCode(1)
        }
    }
}

/// What ArgumentParser derives for a `String` enum, spelled out: its
/// derivation formats each raw value with `"\(value)"`, and the runtime's
/// type checks behind that cost the service's start-up 0.2 M instructions.
extension Devices.Backend: ExpressibleByArgument {
    public var defaultValueDescription: String { rawValue }
    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
    /// No value has a description of its own (ArgumentParser's derivation
    /// gives the same: each value's description is its raw value).
    public static var allValueDescriptions: [String: String] { [:] }
}

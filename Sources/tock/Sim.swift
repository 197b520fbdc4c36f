import ArgumentParser
import TockLinux
import Glibc
import TockHost
import TockConfig
import TockControl
import TockCore
import TockSimulator
import TockShell

struct Sim: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sim",
        abstract: "The desk simulator: the appliance on mock GPIO, drawn in the terminal, or replaying a script on virtual time."
    )

    @Option(name: .long, help: "Configuration file (YAML). Defaults are used without one.")
    var config: String?

    @Option(name: .long, help: "Replay this script on virtual time instead of taking keys.")
    var script: String?

    @Option(name: .long, help: "Write the trace (JSON Lines) here; '-' for standard output.")
    var trace: String?

    @Option(name: .long, help: "The virtual wall clock at t = 0, ISO 8601 with a zone or offset (default: now).")
    var epoch: String?

    @Option(name: .long, help: "The local time zone (tz name such as Europe/Berlin) instead of clock.zone or the system's.")
    var zone: String?

    @Option(name: .long, help: ArgumentHelp(
        "The control socket the simulator serves, as tock run does (default: $TOCK_SOCKET, else $XDG_RUNTIME_DIR/tock/control.sock or /tmp/tock-UID/control.sock; '' for none).",
        discussion: "tock status, tock start, tock watch ... find it without --socket when no service runs here."))
    var socket: String?

    func run() throws {
        var cfg = try loadConfig(config)
        if let zone {
            do { cfg.settings.clock.zone = try ZoneFile.named(zone) } catch { throw ValidationError("--zone: \(error.description)") }
        }
        if let script {
            try runScript(cfg, path: script)
        } else {
            let env = Environment.all()
            let path = socket ?? env["TOCK_SOCKET"].flatMap { $0.isEmpty ? nil : $0 } ?? ControlSocketPath.personal(env)
            try InteractiveSimulator(config: cfg, tracePath: trace, socketPath: path.isEmpty ? nil : path).run()
        }
    }

    private func runScript(_ cfg: Configuration, path: String) throws {
        guard let bytes = FileSystem.contents(path), let text = String(validating: bytes, as: UTF8.self) else {
            throw ValidationError("cannot read the script \(path)")
        }
        let parsed: Script
        do { parsed = try Script.parse(text, file: path) } catch { throw ValidationError(error.description) }
        let start: WallTime
        if let epoch {
            do { start = try CalendarText.parse(epoch) } catch { throw ValidationError("--epoch: \(error.description)") }
        } else {
            start = SystemClock().now().wall
        }
        let out = try TraceSink(path: trace ?? "-")
        let sim = ScriptedSimulation(config: cfg, script: parsed, epoch: start, trace: out.write)
        sim.run()
        try out.close()
        guard sim.refusals.isEmpty else {
            for r in sim.refusals { StandardStream.error.write("refused: \(r)\n") }
            throw ExitCode(1)
        }
    }
}

/// Load the config or exit with every problem listed.
func loadConfig(_ path: String?) throws -> Configuration {
    do {
        let config = try path.map(Configuration.load) ?? Configuration.defaults()
        for w in config.warnings { StandardStream.error.write("warning: \(w)\n") }
        return config
    } catch let e as ConfigError {
        StandardStream.error.write(e.description + "\n")
        throw ExitCode(2)
    }
}

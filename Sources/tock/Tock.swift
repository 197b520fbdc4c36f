import ArgumentParser
import TockLinux
import Glibc
import TockService

struct Tock: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tock",
        abstract: "A count-down / count-up timer, stopwatch, calendar countdown and interval timer for Linux single-board computers.",
        discussion: """
            The commands that talk to the service (status, start, stop, reset, set, mode, program, switch, brightness, night, alarm, watch) wait at most \
            --timeout (5s) for a reply and take reply lines of at most \(ControlClient.maxLine) bytes; watch waits as \
            long as it takes for the next event. Their exit status says what went wrong: 0 done; 1 refused by the \
            service (its reason is printed); 64 a mistake on the command line; 69 the service cannot be reached; \
            74 the service closed the connection; 75 no complete reply within --timeout; 76 a reply too long or \
            not JSON; 77 no permission to use the socket.
            """,
        version: TockVersion.string,
        subcommands: [Run.self, HwTest.self, Status.self, Start.self, Stop.self, Reset.self, Silence.self, SetPreset.self, Add.self, Mode.self, Program.self, Switch.self, Brightness.self, Night.self, AlarmCommand.self, TimerCommand.self, Watch.self, UpdateChecked.self, Sim.self, ConfigCommand.self, SetupCommand.self, Splash.self, Render.self]
    )

    /// ArgumentParser's own `main`, with two additions: SIGPIPE is ignored,
    /// so that a service closing the connection is an EPIPE reported in
    /// words rather than a silent death, and a `Failure` exits with its
    /// own status. `tock run` as the service starts it is read by hand
    /// (`RunArguments`), with no reflection.
    static func main() {
        signal(SIGPIPE, SIG_IGN)
        do {
            let arguments = CommandLine.arguments
            if arguments.count > 1, arguments[1] == "run", let run = RunArguments.parse(arguments.dropFirst(2)) {
                try Run.start(run)
                return
            }
            var command = try parseAsRoot()
            try command.run()
        } catch let failure as Failure {
            StandardStream.error.write("Error: \(failure.description)\n")
            Glibc.exit(failure.exit.rawValue)
        } catch {
            exit(withError: error)
        }
    }
}

import ArgumentParser
import TockLinux
import Glibc
import TockHost
import TockConfig
import TockDevices
import TockGPIOD

struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Work with configuration files.",
        subcommands: [Check.self]
    )

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "check", abstract: "Check a configuration file without touching hardware; print every problem with file, line and key.")

        @Argument(help: "The configuration file.")
        var file: String

        @Option(help: "Check line names against the GPIO chips in this directory (when there are any).")
        var chips: String = "/dev"

        func run() throws {
            let config = try loadConfig(file)
            // On the board, also check every line name against its chips.
            if let found = try? GpioChip.all(in: chips) {
                let problems = config.unknownLines(LineFinder(chips: found))
                if !problems.isEmpty {
                    StandardStream.error.write(problems.map(\.description).joined(separator: "\n") + "\n")
                    throw ExitCode(2)
                }
                print("\(file): OK (line names found on \(found.map(\.name).joined(separator: ", ")))")
            } else {
                print("\(file): OK (line names not checked: no GPIO chips in \(chips))")
            }
        }
    }
}

import ArgumentParser
import TockAppliance

struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Work with configuration files.",
        subcommands: [Check.self]
    )

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Check a configuration file without touching hardware; print every problem with file, line and key.")

        @Argument(help: "The configuration file.")
        var file: String

        func run() throws {
            _ = try loadConfig(file)
            print("\(file): OK")
        }
    }
}

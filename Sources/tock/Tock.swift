import ArgumentParser

@main
struct Tock: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tock",
        abstract: "A count-down / count-up timer, stopwatch, calendar countdown and interval timer for Linux single-board computers.",
        subcommands: [Run.self, Sim.self, ConfigCommand.self, Render.self]
    )
}

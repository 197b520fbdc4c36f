import ArgumentParser

@main
struct Tock: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tock",
        abstract: "A count-down / count-up timer, stopwatch, calendar countdown and interval timer for Linux single-board computers.",
        subcommands: [Run.self, HwTest.self, Status.self, Start.self, Stop.self, Reset.self, SetPreset.self, Mode.self, AlarmCommand.self, Watch.self, Sim.self, ConfigCommand.self, Render.self]
    )
}

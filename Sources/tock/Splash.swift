import ArgumentParser
import TockConfig
import TockCore
import TockDevices
import TockLinux
import TockMock
import TockSimulator

struct Splash: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "splash",
        abstract: "Show `boot` on the display and exit: the image runs it as soon as the data partition is mounted, long before tock itself starts.",
        discussion: """
            Opens the display only (no button, switch, buzzer or LED line) with the configuration's wiring, sends one \
            frame at the configured brightness (or the night's, when that is dimmer) and lets the lines go: the display \
            keeps showing it until tock's first frame. Exit status: 0 shown, or no display configured; 1 the display \
            could not be reached (what to check is printed); 2 the configuration could not be read.
            """
    )

    @Option(help: "Configuration file (YAML); the default wiring without one.")
    var config: String?

    @Option(help: "gpiod (the GPIO character device) or mock (no hardware: the frame is drawn here).")
    var backend: Devices.Backend = .gpiod

    @Option(help: "Directory holding the gpiochip devices.")
    var chips: String = "/dev"

    func run() throws {
        let cfg = try loadConfig(config)
        do {
            switch backend {
            case .gpiod:
                report(try BootFrame.show(cfg, chips: chips))
            case .mock:
                let board = MockBoard(clock: { Instant(nanoseconds: 0) })
                report(try BootFrame.show(cfg, on: board))
                if let chip = board.displayChip {
                    for line in BigDigits.lines(for: chip.lit(digits: cfg.settings.display.digits)) { print(line) }
                }
            }
        } catch {
            StandardStream.error.write("tock splash: the display could not show \"\(BootFrame.text)\": \(error) (tock reports the same when it starts; `tock hw-test` checks the wiring)\n")
            throw ExitCode(1)
        }
    }

    private func report(_ outcome: BootFrame.Outcome) {
        switch outcome {
        case .shown(let what): print("shown \"\(BootFrame.text)\" on the \(what)")
        case .noDisplay: print("no display configured (display.kind: none): nothing shown")
        }
    }
}

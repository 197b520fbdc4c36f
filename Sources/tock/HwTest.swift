import ArgumentParser
import Glibc
import Logging
import TockHost
import TockConfig
import TockLinux
import TockDevices

struct HwTest: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hw-test",
        abstract: "Check the wiring: light every segment in turn, beep, light each LED, print every button and switch edge live, and name what does not answer."
    )

    @Option(help: "Configuration file (YAML); the default wiring without one.")
    var config: String?

    @Option(help: "gpiod (the GPIO character device) or mock (no hardware).")
    var backend: Devices.Backend = .gpiod

    @Option(help: "How long to listen for button presses and switch flips.")
    var listen: String = "30s"

    @Option(help: "Directory holding the gpiochip devices.")
    var chips: String = "/dev"

    func run() throws {
        let cfg = try loadConfig(config)
        let seconds: Duration
        do { seconds = try DurationText.parse(listen) } catch { throw ValidationError("--listen: \(error.description)") }
        let log = Logger(label: "tock.hw-test")
        let clock = SystemClock()
        let hardware: Devices
        do {
            switch backend {
            case .mock: hardware = Devices.mock(cfg, clock: { clock.now().monotonic })
            case .gpiod: hardware = try Devices.gpiod(cfg, chips: chips, log: log, timestamp: clock.boottimeFromMonotonic)
            }
        } catch {
            print("✗ \(error)")
            throw ExitCode(1)
        }
        let problems = try WiringCheck(hardware: hardware, config: cfg, listen: seconds) { line in
            StandardStream.output.write(line + "\n")
        }.run()
        if problems.isEmpty {
            print("✓ everything answered; look for any segment that stayed dark above")
        } else {
            print("first problem: \(problems[0])")
            for p in problems.dropFirst() { print("also: \(p)") }
            throw ExitCode(1)
        }
    }
}

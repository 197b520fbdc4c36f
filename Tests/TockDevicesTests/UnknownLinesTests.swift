import Testing
import TockConfig
import TockGPIOD
@testable import TockDevices

/// `tock config check` on a board: line names the chips do not have.
@Suite struct UnknownLinesTests {
    @Test func unknownLineNamesAreReportedWithLineAndKey() throws {
        let c = try Configuration.parse(yaml: "mode: timer\npins:\n  start: GPIO99\n  stop: GPIO27\n", file: "/etc/tock/config.yaml")
        let pi4 = LineFinder(chips: [GpioChip(path: "/dev/gpiochip0", name: "gpiochip0", label: "pinctrl-bcm2711",
                                              lineNames: (0..<58).map { "GPIO\($0)" })])
        let p = c.unknownLines(pi4)
        #expect(p.count == 1)
        #expect(p.first?.description.hasPrefix("/etc/tock/config.yaml:3: pins.start: GPIO line \"GPIO99\" not found on any chip (chips: gpiochip0 [pinctrl-bcm2711] 58 lines)") == true)
    }
}

import Testing
import TockHardware
@testable import TockGPIOD

/// Finding lines by name across chips, with the errors a person acts on.
@Suite struct LineFinderTests {
    static func names(_ prefix: String, _ n: Int) -> [String] { (0..<n).map { "\(prefix)\($0)" } }

    /// A Pi 5: the header's lines are on pinctrl-rp1, which is gpiochip4
    /// (gpiochip0 on newer kernels); other chips carry other names.
    let pi5 = LineFinder(chips: [
        GpioChip(path: "/dev/gpiochip0", name: "gpiochip0", label: "gpio-brcmstb@107d508500", lineNames: ["RP1_SDA", "RP1_SCL"]),
        GpioChip(path: "/dev/gpiochip4", name: "gpiochip4", label: "pinctrl-rp1", lineNames: names("GPIO", 54)),
    ])

    @Test func aNameIsFoundOnWhicheverChipHasIt() throws {
        let a = try pi5.find("GPIO17", for: "pins.start")
        #expect(a.chip.name == "gpiochip4" && a.offset == 17)
        #expect(a.description == "GPIO17 (gpiochip4 line 17)")
    }

    @Test func chipAndOffsetByNameLabelOrPath() throws {
        #expect(try pi5.find("pinctrl-rp1:5", for: "display.clk").offset == 5)
        #expect(try pi5.find("gpiochip4:6", for: "display.dio").chip.label == "pinctrl-rp1")
        #expect(try pi5.find("/dev/gpiochip0:1", for: "x").chip.name == "gpiochip0")
    }

    @Test func anUnknownNameListsTheChipsAndTheKey() {
        #expect(throws: HardwareError(.notFound, "pins.start: GPIO line \"GPIO99\" not found on any chip (chips: gpiochip0 [gpio-brcmstb@107d508500] 2 lines, gpiochip4 [pinctrl-rp1] 54 lines); check pins.start, or give CHIP:OFFSET such as gpiochip0:17")) {
            try pi5.find("GPIO99", for: "pins.start")
        }
    }

    @Test func aNameOnTwoChipsIsAmbiguous() {
        let twice = LineFinder(chips: [
            GpioChip(path: "/dev/gpiochip0", name: "gpiochip0", label: "a", lineNames: ["GPIO17"]),
            GpioChip(path: "/dev/gpiochip1", name: "gpiochip1", label: "b", lineNames: ["X", "GPIO17"]),
        ])
        do {
            _ = try twice.find("GPIO17", for: "pins.start")
            Issue.record("found an ambiguous line")
        } catch {
            #expect(error.description.contains("names a line on 2 chips (gpiochip0 line 0, gpiochip1 line 1)"))
            #expect(error.description.contains("gpiochip0:0"))
        }
    }

    @Test func anOffsetPastTheChipAndAnUnknownChip() {
        #expect(throws: HardwareError.self) { try pi5.find("gpiochip0:7", for: "pins.stop") }
        #expect(throws: HardwareError.self) { try pi5.find("pinctrl-bcm2711:17", for: "pins.stop") }
    }

    @Test func noChipsAtAllSaysWhatToCheck() {
        do {
            _ = try GpioChip.all(in: "/proc/self")
            Issue.record("found chips in /proc/self")
        } catch {
            #expect(error.kind == .notFound && error.message.contains("no GPIO chips in /proc/self"))
            #expect(error.message.contains("--backend mock"))
        }
    }

    @Test func theAPIVersionIsKnown() {
        #expect(Libgpiod.api == 1 || Libgpiod.api == 2)
        #expect(!Libgpiod.version.isEmpty)
    }
}

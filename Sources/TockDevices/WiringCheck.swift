import Glibc
import Logging
import TockConfig
import TockCore
import TockHardware
import TockLinux
import TockLoop

/// `tock hw-test`: for the person wiring the box. Lights every segment of
/// the display in turn, beeps, lights each LED, then prints every button
/// and switch edge live with its kernel timestamp, and ends by naming what
/// did not answer.
public final class WiringCheck {
    private let hardware: Devices
    private let config: Configuration
    private let clock = SystemClock()
    private let print: (String) -> Void
    private let listen: Duration

    public init(hardware: Devices, config: Configuration, listen: Duration, print: @escaping (String) -> Void) {
        self.hardware = hardware
        self.config = config
        self.listen = listen
        self.print = print
    }

    /// One step of the output sequence: what to do, and for how long.
    private struct Step {
        var label: String?
        var device: String
        var action: () throws -> Void
        var hold: Duration
    }

    /// Run the whole check; returns the problems found (empty when all answered).
    public func run() throws -> [String] {
        let reactor = try Reactor()
        var problems: [String] = []
        var failed: Set<String> = []
        var steps = outputSteps()
        let origin = clock.now().monotonic
        var seen: Set<String> = []
        var listenUntil: Instant? = nil
        var step: LoopTimer!
        // The step timer's closure must not keep the reactor alive: it is
        // freed (and restores the signal mask) when the check ends.
        unowned let loop = reactor

        func stamp(_ t: Instant) -> String { DurationText.format(t - origin) }
        func next() {
            while !steps.isEmpty {
                let s = steps.removeFirst()
                guard !failed.contains(s.device) else { continue }
                if let l = s.label { print(l) }
                do {
                    try s.action()
                } catch {
                    failed.insert(s.device)
                    problems.append("\(s.device) does not answer: \(error)")
                    print("  ✗ \(s.device): \(error)")
                    continue
                }
                step.schedule(at: clock.now().monotonic + s.hold)
                return
            }
            if listenUntil == nil {
                listenUntil = clock.now().monotonic + listen
                print("inputs: press each button and flip the switch (listening \(DurationText.format(listen)); Ctrl-C ends)")
                step.schedule(at: listenUntil)
            } else {
                loop.stop()
            }
        }
        for reader in hardware.readers {
            try reactor.watch(reader.descriptor) { [clock, print] in
                do {
                    for e in try reader.readEdges() {
                        let name = e.line.name
                        seen.insert(name)
                        let what = e.line == .directionSwitch ? (e.active ? "up" : "down") : (e.active ? "pressed" : "released")
                        print("  \(stamp(e.timestamp))  \(name) \(what)  (kernel timestamp; read \(stamp(clock.now().monotonic)))")
                    }
                } catch {
                    print("  ✗ reading inputs: \(error)")
                }
            }
        }
        step = reactor.makeTimer { next() }
        reactor.onSignal = { _ in reactor.stop() }
        defer {
            step.cancel()
            reactor.onSignal = nil
            try? hardware.sounder.sound(nil)
            try? hardware.display.show(.blank(digits: config.settings.display.digits))
            for led in hardware.leds.values { try? led.set(false) }
        }
        print("hardware: \(hardware.summary)")
        problems += checkRTC()
        next()
        try reactor.run()
        if listenUntil != nil {
            for line in InputLine.all where !seen.contains(line.name) {
                problems.append("\(line.name) (\(key(line)) \(lineName(line))) never changed: check its wiring to GND and the line name")
            }
        }
        return problems
    }

    /// Where the kernel lists its RTCs.
    public var rtcDirectory = "/sys/class/rtc"

    /// The battery-backed RTC, if the kernel has one: its time against the
    /// system clock. None is no problem (NTP sets the clock); one that
    /// cannot be read (a flat battery) is.
    private func checkRTC() -> [String] {
        let now = clock.now()
        guard let rtc = RealTimeClock.first(in: rtcDirectory) else {
            print("rtc: none (\(rtcDirectory) is empty): the clock comes from NTP only (Hardware/README.md, \"Real-time clock\")")
            return []
        }
        let line = rtc.summary(against: now.wall, synchronised: now.wallSynchronised)
        print(rtc.problem == nil ? "rtc: \(line)" : "  ✗ rtc: \(line)")
        return rtc.problem.map { ["rtc: \($0)"] } ?? []
    }

    private func outputSteps() -> [Step] {
        let digits = config.settings.display.digits
        let display = "display (\(config.hardware.display.rawValue))"
        var steps: [Step] = []
        steps.append(Step(label: "display: all segments on", device: display, action: { [hardware] in
            try hardware.display.show(Frame.segments(Array(repeating: 0xFF, count: digits), colon: digits == 4))
        }, hold: .seconds(1)))
        steps.append(Step(label: "display: each segment in turn (a b c d e f g point, digit by digit)", device: display, action: {}, hold: .zero))
        for d in 0..<digits {
            for bit in 0..<8 {
                var cells = [UInt8](repeating: 0, count: digits)
                cells[d] = 1 << bit
                steps.append(Step(label: nil, device: display, action: { [hardware] in
                    try hardware.display.show(Frame.segments(cells))
                }, hold: .milliseconds(120)))
            }
        }
        if digits == 4 {
            steps.append(Step(label: "display: the colon", device: display, action: { [hardware] in
                try hardware.display.show(Frame.segments([0, 0, 0, 0], colon: true))
            }, hold: .milliseconds(600)))
        }
        steps.append(Step(label: nil, device: display, action: { [hardware] in
            try hardware.display.show(.blank(digits: digits))
        }, hold: .zero))
        let buzzer = "buzzer (\(config.hardware.buzzer.rawValue))"
        steps.append(Step(label: "buzzer: three beeps", device: buzzer, action: {}, hold: .zero))
        for _ in 0..<3 {
            steps.append(Step(label: nil, device: buzzer, action: { [hardware] in try hardware.sounder.sound(Tone(hertz: 2_000)) }, hold: .milliseconds(200)))
            steps.append(Step(label: nil, device: buzzer, action: { [hardware] in try hardware.sounder.sound(nil) }, hold: .milliseconds(200)))
        }
        for name in hardware.leds.keys.sorted() {
            let led = hardware.leds[name]!
            steps.append(Step(label: "LED \(name): on", device: "LED \(name)", action: { try led.set(true) }, hold: .milliseconds(700)))
            steps.append(Step(label: nil, device: "LED \(name)", action: { try led.set(false) }, hold: .zero))
        }
        steps += lightSteps()
        return steps
    }

    /// The light sensor: set measuring, then three readings a second apart
    /// (cover it with a hand to see the value drop). BH1750FVI datasheet:
    /// a measurement takes at most 180 ms.
    private func lightSteps() -> [Step] {
        let hw = config.hardware
        guard hw.light != .none else { return [] }
        let device = "light sensor (\(hw.light.rawValue) at 0x\(String(hw.lightAddress, radix: 16)) on /dev/i2c-\(hw.lightI2CBus))"
        guard let sensor = hardware.light else {
            let why = hardware.lightProblem ?? "not opened"
            return [Step(label: "light sensor", device: device, action: { throw LightNotOpened(description: why) }, hold: .zero)]
        }
        var steps = [Step(label: "light sensor: three readings a second apart (cover it to see the value drop)", device: device,
                          action: { try sensor.start() }, hold: .milliseconds(200))]
        for i in 0..<3 {
            steps.append(Step(label: nil, device: device, action: { [print] in
                let lux = try sensor.lux()
                guard AmbientLight.isPlausible(lux) else { throw LightNotOpened(description: "it read \(lux) lx, outside 0 to \(Int(LightSettings.maxLux)) lx") }
                print("  \(Int(lux.rounded())) lx")
            }, hold: i < 2 ? .seconds(1) : .zero))
        }
        return steps
    }

    private func key(_ line: InputLine) -> String { "pins.\(line.name)" }

    private func lineName(_ line: InputLine) -> String {
        let h = config.hardware
        switch line {
        case .button(.start): return h.start
        case .button(.stop): return h.stop
        case .button(.reset): return h.reset
        case .directionSwitch: return h.directionSwitch
        }
    }
}

/// The light sensor could not be opened or read sensibly, said as it was found.
struct LightNotOpened: Error, CustomStringConvertible {
    var description: String
}

import Logging
import TockConfig
import TockControl
import TockCore
import TockHardware
import TockLoop
import TockShell

/// Reads the ambient light sensor every `LightSettings.every` and hands
/// the core its readings. A sensor that does not answer, or reads out of
/// range, is logged once (and again when it answers), the core is told
/// (the display keeps the brightness set by hand and the night's), and the
/// sensor is set measuring again at the next turn; nothing stops.
final class LightSampler {
    private let sensor: any LightSensor
    private let every: Duration
    private let shell: Shell
    private let loop: any EventLoop
    private let log: Logger
    private var timer: LoopTimer!
    private var started = false
    /// The last reading handed on, and the fault since, if any.
    private(set) var lux: Double?
    private(set) var problem: String?
    private(set) var reads = 0
    private(set) var failures = 0

    /// BH1750FVI datasheet: H-resolution mode measures in 180 ms at most.
    static let firstReading: Duration = .milliseconds(200)

    init(sensor: any LightSensor, every: Duration, shell: Shell, loop: any EventLoop, log: Logger) {
        self.sensor = sensor
        self.every = every
        self.shell = shell
        self.loop = loop
        self.log = log
        timer = loop.makeTimer { [weak self] in self?.read() }
    }

    func start() {
        begin()
        timer.schedule(at: loop.now().monotonic + Self.firstReading)
    }

    func stop() { timer.cancel() }

    private func begin() {
        do {
            try sensor.start()
            started = true
        } catch {
            fail("\(error)")
        }
    }

    private func read() {
        defer { timer.schedule(at: loop.now().monotonic + every) }
        guard started else { return begin() }
        let value: Double
        do { value = try sensor.lux() } catch { return fail("\(error)") }
        guard AmbientLight.isPlausible(value) else {
            return fail("it read \(value) lx, outside 0 to \(Int(LightSettings.maxLux)) lx")
        }
        reads += 1
        if problem != nil { log.notice("the light sensor answers again (\(Int(value.rounded())) lx): the room's light sets the brightness") }
        problem = nil
        lux = value
        shell.ambientLight(value)
    }

    private func fail(_ why: String) {
        failures += 1
        if problem == nil {
            log.warning("light sensor: \(why); the display keeps the brightness set by hand and the night schedule until it answers (tried again every \(DurationText.format(every)))")
        }
        problem = why
        lux = nil
        started = false  // set it measuring again: it may have lost power
        shell.ambientLight(nil)
    }

    /// What the status says.
    var status: BoxStatus.Light {
        BoxStatus.Light(lux: lux.map { Int($0.rounded()) }, level: shell.core.ambient?.level, problem: problem)
    }
}

/// Both values, or nil unless both are there.
func zip<A, B>(_ a: A?, _ b: B?) -> (A, B)? {
    guard let a, let b else { return nil }
    return (a, b)
}

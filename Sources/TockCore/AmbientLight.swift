/// How the room's light sets the display's brightness (`light:` in the
/// configuration): a curve of thresholds, hysteresis so the display never
/// flickers between two levels, smoothing so a passing shadow does not dim
/// it, and a floor and a ceiling. The rule that combines it with the
/// brightness set by hand and the night schedule is `Machine`'s
/// (docs/display.md, "Brightness"): the lowest of them wins.
public struct LightSettings: Equatable, Sendable {
    /// The illuminance (lux) at which each level from 1 to 7 begins;
    /// below the first, level 0 (the dimmest lit: never dark). Rising.
    public var curve: [Double] = [1, 5, 15, 40, 100, 250, 600]
    /// The levels the light may set, at least and at most.
    public var floor = 0
    public var ceiling = 7
    /// A level changes only once the light is this much past a threshold
    /// (0.25: 25 % above it to go up, 25 % below it to go down).
    public var hysteresis = 0.25
    /// The smoothing's time constant: a step in the light moves the
    /// smoothed value 63 % of the way in about this long.
    public var smoothing: Duration = .seconds(4)
    /// How often the sensor is read.
    public var every: Duration = .seconds(2)
    /// Readings above this are refused as out of range (a BH1750 counts to 54612 lx).
    public static let maxLux = 100_000.0

    public init() {}
}

/// The level the room's light asks for, from the sensor's readings.
public struct AmbientLight: Equatable, Sendable {
    public let settings: LightSettings
    /// The last reading and the smoothed illuminance, lux; nil before the
    /// first reading and while the sensor does not answer.
    public private(set) var reading: Double?
    public private(set) var smoothed: Double?
    /// The curve's level (0...7) with hysteresis, before floor and ceiling.
    private var curveLevel: Int?
    private var readAt: Instant?

    public init(_ settings: LightSettings) { self.settings = settings }

    /// The level the light asks for, within floor and ceiling; nil while
    /// there is no reading (the brightness is then as without a sensor).
    public var level: Int? { curveLevel.map { min(max($0, settings.floor), settings.ceiling) } }

    /// A reading at `t`. Readings outside 0...`LightSettings.maxLux` are the
    /// caller's to refuse (`isPlausible`).
    public mutating func read(_ lux: Double, at t: Instant) {
        reading = lux
        if let s = smoothed, let last = readAt, t > last {
            // First-order low-pass filter, dt/(τ+dt): no exp() in the core.
            let dt = Double((t - last).nanoseconds), tau = Double(settings.smoothing.nanoseconds)
            smoothed = s + dt / (tau + dt) * (lux - s)
        } else {
            smoothed = lux  // the first reading (or a second at the same instant)
        }
        readAt = t
        let s = smoothed!
        let h = 1 + settings.hysteresis
        let plain = settings.curve.count(where: { s >= $0 })
        guard let l = curveLevel else { curveLevel = plain; return }
        // Up only once past a threshold by the margin, down only once below by it.
        let up = settings.curve.count(where: { s >= $0 * h })
        let down = settings.curve.count(where: { s >= $0 / h })
        curveLevel = min(max(l, up), down)
    }

    /// The sensor stopped answering: no level until it answers again.
    public mutating func lost() {
        reading = nil
        smoothed = nil
        curveLevel = nil
        readAt = nil
    }

    public static func isPlausible(_ lux: Double) -> Bool { lux.isFinite && lux >= 0 && lux <= LightSettings.maxLux }
}

/// The display's brightness as it applies now: by day, and at night when a
/// schedule is set. The configuration file's (`display.brightness`,
/// `display.night`) unless changed from outside (`tock brightness`,
/// `tock night`, the web page). Such a change is kept in the state file
/// across restarts and reloads until the file's own values change; then
/// the file wins, as for edited presets and alarms.
public struct Dimming: Equatable, Sendable {
    /// 0 (dimmest lit) ... 7 (brightest).
    public var brightness: Int
    public var night: NightSchedule?

    public init(brightness: Int, night: NightSchedule? = nil) {
        self.brightness = brightness
        self.night = night
    }

    /// The configuration file's.
    public init(_ display: DisplaySettings) {
        self.init(brightness: display.brightness, night: display.night)
    }

    /// The levels a display takes (TM1637's eight pulse widths; the other
    /// drivers scale them).
    public static let levels = 0...7

    /// The brightness at the wall instant `w`.
    public func level(at w: WallTime, zone: ZoneRules) -> Int {
        if let night, night.isNight(at: w, zone: zone) { return night.brightness }
        return brightness
    }

    /// Why these values cannot be shown, said so a person knows what to fix.
    public var problem: String? {
        guard Self.levels.contains(brightness) else { return "brightness is 0 (dimmest lit) to 7, not \(brightness)" }
        guard let n = night else { return nil }
        guard (0..<86_400).contains(n.from), (0..<86_400).contains(n.to) else { return "night from and to are times of day, 00:00 to 23:59" }
        guard n.from != n.to else { return "night from and to are the same time; send \"off\" for no night schedule" }
        guard Self.levels.contains(n.brightness) else { return "night brightness is 0 (dimmest lit) to 7, not \(n.brightness)" }
        return nil
    }

    /// One line that changes whenever the values do (the state file
    /// compares the file's with the one it saved).
    public var record: String {
        "\(brightness)" + (night.map { " night \($0.from)-\($0.to) \($0.brightness)" } ?? "")
    }
}

/// The dimming in the state file: the values in use, and the
/// configuration file's when they were saved (`Dimming.record`).
public struct DimmingSnapshot: Equatable, Sendable {
    public var brightness: Int
    /// `[from, to, brightness]`, seconds after local midnight; absent: none.
    public var night: [Int]?
    public var file: String

    init(_ d: Dimming, file: Dimming) {
        brightness = d.brightness
        night = d.night.map { [$0.from, $0.to, $0.brightness] }
        self.file = file.record
    }

    public var dimming: Dimming {
        Dimming(brightness: brightness, night: night.map { NightSchedule(from: $0[0], to: $0[1], brightness: $0[2]) })
    }

    public init(brightness: Int, night: [Int]?, file: String) {
        (self.brightness, self.night, self.file) = (brightness, night, file)
    }

    /// Read from outside: levels 0-7, times within a day.
    func check() throws(Snapshot.Invalid) {
        guard file.utf8.count <= 64 else { throw Snapshot.Invalid("dimming.file", "longer than 64 bytes") }
        if let n = night, n.count != 3 { throw Snapshot.Invalid("dimming.night", "not [from, to, brightness]") }
        if let why = dimming.problem { throw Snapshot.Invalid("dimming.brightness", why) }
    }
}

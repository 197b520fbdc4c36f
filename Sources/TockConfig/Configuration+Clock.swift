import TockCore

/// The time-of-day keys: `clock:`, `alarms:`, and the idle clock under
/// `display:`.
extension Configuration {
    /// `clock: {zone: Europe/Berlin, format: 24h, colon: blink, require_sync: true}`.
    mutating func readClock(_ node: Node?, _ r: ConfigReader) {
        let c = node.map { r.mapping($0, "clock", allowed: ["zone", "format", "colon", "require_sync"]) } ?? Section()
        if let v = c["zone"] {
            if let name = r.string(v, "clock.zone") {
                do { settings.clock.zone = try ZoneFile.named(name) } catch { r.problem(v, "clock.zone", error.description) }
            }
        } else {
            // The timer needs no zone: a system zone that cannot be read
            // leaves the clock and alarms on UTC, said at start-up.
            do { settings.clock.zone = try ZoneFile.system() } catch {
                warnings.append("the system's time zone cannot be used (\(error.description)); the clock and alarms follow UTC until clock.zone is set in \(r.file)")
            }
        }
        if let v = c["format"], let f = r.choice(v, "clock.format", ClockSettings.Format.allCases.map(\.rawValue)) {
            settings.clock.format = ClockSettings.Format(rawValue: f)!
        }
        if let v = c["colon"], let k = r.choice(v, "clock.colon", ["blink", "steady"]) { settings.clock.blinkColon = k == "blink" }
        if let v = c["require_sync"], let b = r.bool(v, "clock.require_sync") { settings.clock.requireSync = b }
    }

    /// `display.idle: clock|off`, `display.idle_after: 30s`.
    mutating func readIdle(_ d: Section, _ r: ConfigReader) {
        if let v = d["idle"], let k = r.choice(v, "display.idle", ["clock", "off"]) { settings.display.idleClock = k == "clock" }
        if let v = d["idle_after"], let t = r.duration(v, "display.idle_after", min: .seconds(1), max: .seconds(3600)) {
            settings.display.idleAfter = t
        }
    }

    /// `alarms: [{at: "06:45", days: mon-fri, label: work, enabled: true}]`.
    mutating func readAlarms(_ node: Node, _ r: ConfigReader) {
        guard case .sequence(let seq) = node.value else {
            r.problem(node, "alarms", "expected a list, e.g. [{at: \"06:45\", days: mon-fri}]")
            return
        }
        if seq.count > DailyAlarm.maxCount { r.problem(node, "alarms", "at most \(DailyAlarm.maxCount) alarms (\(seq.count) given)") }
        var alarms: [DailyAlarm] = []
        for (i, item) in seq.enumerated() {
            let key = "alarms[\(i)]"
            let a = r.mapping(item, key, allowed: ["at", "days", "label", "enabled"])
            guard let atNode = a["at"] else {
                r.problem(item, "\(key).at", "needed: the time of day, e.g. \"06:45\"")
                continue
            }
            guard let text = r.string(atNode, "\(key).at") else { continue }
            let minute: Int
            do { minute = try DailyAlarm.parseTime(text) } catch {
                r.problem(atNode, "\(key).at", error.description)
                continue
            }
            var alarm = DailyAlarm(minute: minute)
            if let v = a["days"], let items = r.list(v, "\(key).days") {
                let words = items.compactMap { r.string($0, "\(key).days") }
                do { alarm.days = try DailyAlarm.parseDays(words) } catch { r.problem(v, "\(key).days", error.description) }
            }
            if let v = a["label"], let l = r.string(v, "\(key).label") {
                do { alarm.label = try DailyAlarm.parseLabel(l) } catch { r.problem(v, "\(key).label", error.description) }
            }
            if let v = a["enabled"], let b = r.bool(v, "\(key).enabled") { alarm.enabled = b }
            alarms.append(alarm)
        }
        settings.alarms = Array(alarms.prefix(DailyAlarm.maxCount))
    }
}

import TockCore

/// Daily alarms in words: log lines, trace values, `tock alarm list`.
public enum AlarmText {
    /// `06:45 mon-fri "weekday"`, `on`/`off`, and the next occurrence.
    public static func line(_ e: AlarmClock.Entry, number: Int, zone: ZoneRules) -> String {
        let a = e.alarm
        var s = "\(number)  \(a.timeText)  \(a.daysText)  \(a.enabled ? "on" : "off")"
        if !a.label.isEmpty { s += "  \"\(a.label)\"" }
        if let next = e.next { s += "  next \(local(next, zone))" }
        return s
    }

    /// A wall instant as local date and time in the zone: `Tue 2026-11-24 06:45`.
    public static func local(_ w: WallTime, _ zone: ZoneRules) -> String {
        let (date, second) = zone.local(at: w)
        let day = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"][date.weekday.rawValue]
        return "\(day) \(date) \(clock(second / 60))"
    }

    public static func clock(_ minute: Int) -> String { DailyAlarm.timeText(minute) }

    private static func name(_ r: AlarmClock.Ring) -> String {
        let labels = r.labels.filter { !$0.isEmpty }
        return clock(r.minute) + (labels.isEmpty ? "" : " (\(labels.joined(separator: ", ")))")
    }

    private static func name(_ a: DailyAlarm) -> String { a.timeText + (a.label.isEmpty ? "" : " (\(a.label))") }

    public static func describe(_ n: AlarmClock.Notice, zone: ZoneRules) -> String {
        switch n {
        case .rang(let r): "alarm \(name(r)) ringing"
        case .snoozed(let r, _): "alarm \(name(r)) snoozed"
        case .dismissed(let r): "alarm \(name(r)) dismissed"
        case .silenced(let r): "alarm \(name(r)) silenced after ringing alarm.ring_for"
        case .missed(let a, let at): "alarm \(name(a)) missed: its time \(local(at, zone)) passed while the box was off or the clock was stepped past it"
        case .skipped(let a, let at): "alarm \(name(a)) will skip \(local(at, zone))"
        }
    }

    /// The trace's `alarm` value.
    public static func traceValue(_ n: AlarmClock.Notice) -> String {
        switch n {
        case .rang(let r): clock(r.minute)
        case .snoozed: "snoozed"
        case .dismissed: "dismissed"
        case .silenced: "silenced"
        case .missed(let a, _): "missed \(a.timeText)"
        case .skipped(let a, _): "skipped \(a.timeText)"
        }
    }
}

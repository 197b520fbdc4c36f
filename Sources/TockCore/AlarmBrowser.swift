/// The alarm list on the panel, for a box without SSH: a long press of
/// Start in ready opens it at the next alarm to ring.
///
/// | button | does |
/// |---|---|
/// | Start | switch this alarm on or off |
/// | Stop | the next alarm (after the last, the first) |
/// | Reset | leave |
/// | nothing for 10 s | leave |
///
/// 4 digits cycle every 3 s: `AL 1` (which alarm, 1 s), its time (1 s),
/// then its time again if on, `oFF` if off (1 s). 8 digits show both at
/// once: `AL1 06.45`, `AL1  oFF`.
struct AlarmBrowser: Equatable, Sendable {
    var index: Int
    /// When the current alarm was shown (its cycle starts then).
    var shownAt: Instant
    var lastPress: Instant

    static let leaveAfter: Duration = .seconds(10)
    static let step: Duration = .seconds(1)

    init(index: Int, shownAt: Instant, lastPress: Instant) {
        self.index = index
        self.shownAt = shownAt
        self.lastPress = lastPress
    }

    /// Opened at the alarm that rings next (the first, if none is on).
    init(opening alarms: AlarmClock, at t: Instant) {
        let e = alarms.entries
        let next = e.indices.filter { e[$0].next != nil }.min { e[$0].next! < e[$1].next! }
        self.init(index: next ?? 0, shownAt: t, lastPress: t)
    }

    /// A press while the list shows; nil when it closes.
    func press(_ b: Button, alarms: inout AlarmClock, at now: Now) -> AlarmBrowser? {
        let t = now.monotonic
        guard index < alarms.entries.count else { return nil }
        switch b {
        case .start:
            alarms.setEnabled(index, !alarms.entries[index].alarm.enabled, at: now)
            return AlarmBrowser(index: index, shownAt: t, lastPress: t)
        case .stop:
            return AlarmBrowser(index: (index + 1) % alarms.entries.count, shownAt: t, lastPress: t)
        case .reset:
            return nil
        }
    }

    func presentation(_ entries: [AlarmClock.Entry], digits: Int, at t: Instant) -> Presentation {
        guard index < entries.count else { return Presentation(.text("AL--")) }
        let a = entries[index].alarm
        let n = index + 1
        let time = a.timeText
        if digits == 8 {
            let name = "AL\(n)" + (n < 10 ? " " : "")
            return Presentation(.text(name + (a.enabled ? time.replacingColon : " oFF")))
        }
        switch (t - shownAt).nanoseconds / Self.step.nanoseconds % 3 {
        case 0: return Presentation(.text("AL" + (n < 10 ? " \(n)" : "\(n)")))
        case 1: return Presentation(.text(time))
        default: return Presentation(.text(a.enabled ? time : " oFF"))
        }
    }

    /// When the 4-digit cycle moves on.
    func nextChange(after t: Instant, digits: Int) -> Instant? {
        guard digits == 4 else { return nil }
        return t + timeToNextBoundary(of: t - shownAt, quantum: Self.step, increasing: true)
    }
}

private extension String {
    /// `06:45` as 8 digits write it, `06.45`.
    var replacingColon: String { String(map { $0 == ":" ? "." : $0 }) }
}

/// The daily alarms as a pure state machine: which occurrence comes next,
/// ringing, snoozing, and what a step of the real-time clock means for
/// them. Every rule is in local time of `zone`:
///
/// - an occurrence is the alarm's time on an enabled day; on a day whose
///   clocks spring forward past it, the first instant after the gap; on a
///   day whose clocks fall back, the first of the two (`ZoneRules.instant`);
/// - each alarm remembers the last occurrence it is done with
///   (`handledThrough`: rung, skipped or missed), so no occurrence rings
///   twice, whatever the clock does afterwards;
/// - an occurrence noticed late (the clock stepped past it, the box was off
///   or suspended) rings if it is less than `ringFor` late, and is
///   otherwise reported missed;
/// - a step of the clock is recognised by comparing the wall clock with the
///   monotonic one since the last look, so the rule holds whichever event
///   reports it first.
public struct AlarmClock: Sendable {
    public struct Entry: Equatable, Sendable {
        public var alarm: DailyAlarm
        /// Occurrences at or before this instant are done with.
        public var handledThrough: WallTime
        /// The last occurrence that rang or was skipped on purpose (or,
        /// after a restart, the remembered mark: what the state file holds
        /// is taken as done). A step back keeps only this much of
        /// `handledThrough`: a mark set by the start, by switching on or by
        /// a miss on a clock that was wrong is not a ring, so what lies
        /// ahead of the corrected clock rings at its time.
        public var doneThrough: WallTime
        /// The first occurrence after `handledThrough` (nil when disabled).
        public fileprivate(set) var next: WallTime?

        public init(alarm: DailyAlarm, handledThrough: WallTime, doneThrough: WallTime = WallTime(nanoseconds: .min)) {
            self.alarm = alarm
            self.handledThrough = handledThrough
            self.doneThrough = doneThrough
        }
    }

    /// What rings: the alarm time shown, and the labels of every alarm in it.
    public struct Ring: Equatable, Sendable {
        public var minute: Int
        public var labels: [String]
    }

    public enum State: Equatable, Sendable {
        case quiet
        case ringing(Ring, since: Instant)
        case snoozed(Ring, until: Instant)
    }

    /// What happened, for the log and the trace.
    public enum Notice: Equatable, Sendable {
        case rang(Ring)
        case missed(DailyAlarm, at: WallTime)
        case snoozed(Ring, until: Instant)
        case dismissed(Ring)
        case silenced(Ring)
        case skipped(DailyAlarm, at: WallTime)
    }

    public private(set) var entries: [Entry] = []
    public internal(set) var state: State = .quiet
    public let zone: ZoneRules
    public let settings: AlarmSettings
    /// Both clocks at the last look, to recognise a step of the wall clock.
    private var lookMonotonic: Instant
    private var lookWall: WallTime

    /// Alarms as configured; occurrences before `now` are not owed.
    public init(alarms: [DailyAlarm], zone: ZoneRules, settings: AlarmSettings, at now: Now) {
        self.zone = zone
        self.settings = settings
        lookMonotonic = now.monotonic
        lookWall = now.wall
        entries = alarms.map { scheduled(Entry(alarm: $0, handledThrough: now.wall)) }
    }

    public var isRinging: Bool { if case .ringing = state { true } else { false } }
    public var ringingSince: Instant? { if case .ringing(_, let s) = state { s } else { nil } }

    // MARK: - Occurrences

    /// The first occurrence of `alarm` after `w`.
    public func occurrence(of alarm: DailyAlarm, after w: WallTime) -> WallTime? {
        guard alarm.enabled, !alarm.days.isEmpty else { return nil }
        let today = zone.local(at: w).date
        for k in Int64(-1)...8 {
            let d = today.adding(days: k)
            guard alarm.days.contains(d.weekday) else { continue }
            let t = WallTime(secondsSince1970: zone.instant(of: d, second: alarm.minute * 60))
            if t > w { return t }
        }
        return nil
    }

    private func scheduled(_ e: Entry) -> Entry {
        var e = e
        e.next = occurrence(of: e.alarm, after: e.handledThrough)
        return e
    }

    private mutating func handle(_ i: Int, through w: WallTime, done: Bool) {
        entries[i].handledThrough = max(entries[i].handledThrough, w)
        if done { entries[i].doneThrough = max(entries[i].doneThrough, w) }
        entries[i] = scheduled(entries[i])
    }

    // MARK: - Time

    /// The next instant on the monotonic clock something is due (the end of
    /// a ring, of a snooze).
    public var monotonicDeadline: Instant? {
        switch state {
        case .quiet: nil
        case .ringing(_, let since): since + settings.ringFor
        case .snoozed(_, let until): until
        }
    }

    /// The next occurrence of any alarm, on the wall clock.
    public var wallDeadline: WallTime? { entries.compactMap(\.next).min() }

    /// The earliest deadline, seen from `now`.
    public func deadline(at now: Now) -> Instant? {
        [monotonicDeadline, wallDeadline.map { now.monotonic(at: $0) }].compactMap { $0 }.min()
    }

    /// Apply everything due at or before `now`, in time order.
    public mutating func advance(to now: Now) -> [Notice] {
        var notices: [Notice] = []
        // Only a look forward in time can tell a step (an edge may be dated
        // before the last look); what is due is applied either way, so a
        // caller's loop always makes progress.
        let forward = now.monotonic >= lookMonotonic
        let elapsed = now.monotonic - lookMonotonic
        let drift = (now.wall - lookWall) - elapsed
        // NTP slews at most 500 ppm; anything beyond 1000 ppm (or 1 s) is a step.
        let tolerance = max(.seconds(1), elapsed / 1000)
        if forward, drift > tolerance || drift < .zero - tolerance { stepped(to: now) }
        while let due = deadline(at: now), due <= now.monotonic {
            if let m = monotonicDeadline, m == due {
                switch state {
                case .ringing(let r, _):
                    state = .quiet
                    notices.append(.silenced(r))
                case .snoozed(let r, let until):
                    state = .ringing(r, since: until)
                    notices.append(.rang(r))
                case .quiet:
                    break
                }
                continue
            }
            // The deadline is a wall one, so some entry has a next occurrence.
            guard let (i, o) = entries.indices.compactMap({ i in entries[i].next.map { (i, $0) } }).min(by: { $0.1 < $1.1 }) else { break }
            if now.wall - o < settings.ringFor {
                handle(i, through: o, done: true)
                notices += ring(entries[i].alarm, since: min(max(now.monotonic(at: o), lookMonotonic), now.monotonic))
            } else {
                notices.append(.missed(entries[i].alarm, at: o))
                handle(i, through: max(o, now.wall - settings.ringFor), done: false)
            }
        }
        if forward {
            lookMonotonic = now.monotonic
            lookWall = now.wall
        }
        return notices
    }

    /// How far ahead of the clock an alarm can be handled: skip-next marks
    /// the next occurrence, at most a week away (a day for a zone's shifts
    /// besides). A mark further ahead means a clock was wrong.
    static let furthestMark: Duration = .seconds(8 * 86_400)

    /// The wall clock was stepped. What a step forward jumped over is
    /// decided by the loop in `advance` like any late occurrence (less than
    /// `ringFor` late rings, anything older is missed), but rings from now:
    /// it was never heard. Back: nothing that rang or was skipped rings
    /// again, unless the clock went back further than any mark can be
    /// ahead (`furthestMark`), which means it was wrong before; what was
    /// only passed over (the time at the start, a miss) by a clock that
    /// was ahead rings at its time on the corrected clock. A box that
    /// boots with its clock fast and is set back by NTP still rings.
    private mutating func stepped(to now: Now) {
        lookMonotonic = now.monotonic
        for i in entries.indices where entries[i].handledThrough > now.wall {
            let e = entries[i]
            let kept = e.handledThrough > now.wall + Self.furthestMark ? now.wall : max(min(e.doneThrough, e.handledThrough), now.wall)
            guard kept != e.handledThrough else { continue }
            entries[i].handledThrough = kept
            entries[i].doneThrough = min(e.doneThrough, kept)
            entries[i] = scheduled(entries[i])
        }
    }

    private mutating func ring(_ a: DailyAlarm, since: Instant) -> [Notice] {
        switch state {
        case .ringing(var r, let s):
            r.labels.append(a.label)
            state = .ringing(r, since: s)
            return []
        case .quiet, .snoozed:
            let r = Ring(minute: a.minute, labels: [a.label])
            state = .ringing(r, since: since)
            return [.rang(r)]
        }
    }

    // MARK: - Buttons

    /// Stop while ringing: ring again after `snooze`.
    public mutating func snooze(at t: Instant) -> [Notice] {
        guard case .ringing(let r, _) = state else { return [] }
        state = .snoozed(r, until: t + settings.snooze)
        return [.snoozed(r, until: t + settings.snooze)]
    }

    /// Start or Reset while ringing, or Reset while a snooze shows: done
    /// until the next occurrence.
    public mutating func dismiss() -> [Notice] {
        switch state {
        case .quiet: return []
        case .ringing(let r, _), .snoozed(let r, _):
            state = .quiet
            return [.dismissed(r)]
        }
    }

    // MARK: - Editing (tock alarm ...)

    public mutating func add(_ a: DailyAlarm, at now: Now) -> Bool {
        guard entries.count < DailyAlarm.maxCount else { return false }
        entries.append(scheduled(Entry(alarm: a, handledThrough: now.wall)))
        return true
    }

    public mutating func remove(_ i: Int) { entries.remove(at: i) }

    /// Switch an alarm on or off; switched on, it rings from its next
    /// occurrence after now, never for one that passed while it was off.
    public mutating func setEnabled(_ i: Int, _ on: Bool, at now: Now) {
        entries[i].alarm.enabled = on
        if on { entries[i].handledThrough = max(entries[i].handledThrough, now.wall) }
        entries[i] = scheduled(entries[i])
    }

    /// Skip the next occurrence of alarm `i`.
    public mutating func skipNext(_ i: Int) -> Notice? {
        guard let o = entries[i].next else { return nil }
        handle(i, through: o, done: true)
        return .skipped(entries[i].alarm, at: o)
    }

    /// Continue from a snapshot: its alarms (unless the file's alarms were
    /// edited since, when the file wins), and a ring or snooze in progress.
    public mutating func restore(_ s: AlarmsSnapshot, fileAlarms: [DailyAlarm], at now: Now) {
        if s.file == fileAlarms.map(\.record) {
            entries = s.items.compactMap { item in
                guard let m = try? DailyAlarm.parseTime(item.at), let d = try? DailyAlarm.parseDays([item.days]) else { return nil }
                let a = DailyAlarm(minute: m, days: d, label: item.label, enabled: item.enabled)
                // As after a step back (`stepped(to:)`): a mark further ahead
                // than skip-next can set one means a clock was wrong.
                let saved = WallTime(nanoseconds: item.handled)
                let mark = saved > now.wall + Self.furthestMark ? now.wall : saved
                return scheduled(Entry(alarm: a, handledThrough: mark, doneThrough: mark))
            }
        }
        let ring = Ring(minute: s.minute ?? 0, labels: s.labels ?? [])
        if let since = s.ringing {
            state = .ringing(ring, since: Snapshot.ringStart(now.instant(ofWall: since), now: now, ringFor: settings.ringFor))
        } else if let until = s.snoozedUntil {
            // Never snoozed for longer than a snooze, whatever the file says.
            let u = min(now.instant(ofWall: until), now.monotonic + settings.snooze)
            state = .snoozed(ring, until: u > now.monotonic ? u : Snapshot.ringStart(u, now: now, ringFor: settings.ringFor))
        }
        lookMonotonic = now.monotonic
        lookWall = now.wall
    }

    public func snapshot(fileAlarms: [DailyAlarm], at now: Now) -> AlarmsSnapshot {
        var s = AlarmsSnapshot(items: entries.map {
            .init(at: $0.alarm.timeText, days: $0.alarm.daysText, label: $0.alarm.label, enabled: $0.alarm.enabled,
                  handled: $0.handledThrough.nanoseconds)
        }, file: fileAlarms.map(\.record))
        switch state {
        case .quiet: break
        case .ringing(let r, let since):
            (s.minute, s.labels, s.ringing) = (r.minute, r.labels, now.wall(of: since))
        case .snoozed(let r, let until):
            (s.minute, s.labels, s.snoozedUntil) = (r.minute, r.labels, now.wall(of: until))
        }
        return s
    }
}

/// The alarms in the state file: each with the last occurrence it is done
/// with, and a ring or snooze in progress, on the wall clock.
public struct AlarmsSnapshot: Equatable, Sendable {
    public struct Item: Equatable, Sendable {
        public var at: String
        public var days: String
        public var label: String
        public var enabled: Bool
        /// Occurrences at or before this wall instant (ns) are done with.
        public var handled: Int64

        public init(at: String, days: String, label: String, enabled: Bool, handled: Int64) {
            (self.at, self.days, self.label, self.enabled, self.handled) = (at, days, label, enabled, handled)
        }
    }
    public var items: [Item]
    /// The configuration file's alarms when this was taken.
    public var file: [String]
    public var minute: Int? = nil
    public var labels: [String]? = nil
    public var ringing: Int64? = nil
    public var snoozedUntil: Int64? = nil

    public init(items: [Item], file: [String]) {
        self.items = items
        self.file = file
    }

    /// Read from outside: lists within `DailyAlarm.maxCount`, instants
    /// within `TimeBounds`, labels printable.
    func check() throws(Snapshot.Invalid) {
        guard items.count <= DailyAlarm.maxCount, file.count <= DailyAlarm.maxCount, (labels ?? []).count <= DailyAlarm.maxCount else {
            throw Snapshot.Invalid("alarms.items", "more than \(DailyAlarm.maxCount) alarms")
        }
        if let m = minute, !(0..<1440).contains(m) { throw Snapshot.Invalid("alarms.minute", "minute \(m) is not within a day") }
        do {
            for item in items { _ = try WallTime(checked: item.handled) }
            if let r = ringing { _ = try WallTime(checked: r) }
            if let u = snoozedUntil { _ = try WallTime(checked: u) }
        } catch { throw Snapshot.Invalid("alarms.items", error.description) }
        do {
            for item in items { _ = try DailyAlarm.parseLabel(item.label) }
            for label in labels ?? [] { _ = try DailyAlarm.parseLabel(label) }
        } catch { throw Snapshot.Invalid("alarms.labels", error.description) }
    }
}

extension DailyAlarm {
    /// One line that changes whenever the alarm does.
    var record: String { "\(timeText) \(daysText) \(enabled ? "on" : "off") \(label)" }
}

extension AlarmClock: Equatable {
    /// Equal in what is remembered; when it last looked at the clock is not state.
    public static func == (a: AlarmClock, b: AlarmClock) -> Bool {
        a.entries == b.entries && a.state == b.state && a.zone == b.zone && a.settings == b.settings
    }
}

extension WallTime {
    static let distantFuture = WallTime(nanoseconds: .max)
}

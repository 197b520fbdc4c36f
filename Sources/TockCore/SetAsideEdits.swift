/// Lists edited on the box (presets, daily alarms) that a change of the
/// configuration file's list replaced. The file's list wins, but the edits
/// are not thrown away: if the file's list comes back to the one they were
/// made over (a rewrite that ends as it started, a change undone), they
/// come back with it. A few lists are remembered, the newest first.
public struct SetAsideEdits: Equatable, Sendable {
    /// Presets edited over the file's list `file` (nanoseconds).
    public struct Presets: Equatable, Sendable {
        public var file: [Int64]
        public var presets: [Int64]
        public var index: Int
    }

    /// How many lists of each kind are remembered: an owner who undoes a
    /// change, or a rewrite caught mid-way, needs one; a few cost nothing.
    public static let depth = 4

    public private(set) var presets: [Presets] = []
    /// Alarms edited over the file's list `file` (`DailyAlarm.record`);
    /// without a ring or snooze, which belongs to the running alarms.
    public private(set) var alarms: [AlarmsSnapshot] = []

    public init() {}

    /// Keep the snapshot's presets if they were edited over its file's list.
    mutating func setAside(presets s: Snapshot) {
        guard let file = s.filePresets, !s.presets.isEmpty, s.presets != file else { return }
        presets.removeAll { $0.file == file }
        presets.insert(Presets(file: file, presets: s.presets, index: s.presetIndex), at: 0)
        presets = Array(presets.prefix(Self.depth))
    }

    /// The presets edited over `file`, if any were set aside (and no longer).
    mutating func takePresets(over file: [Int64]) -> Presets? {
        guard let i = presets.firstIndex(where: { $0.file == file }) else { return nil }
        return presets.remove(at: i)
    }

    /// Keep the alarms if they were edited over the file's list.
    mutating func setAside(alarms s: AlarmsSnapshot) {
        guard s.edited else { return }
        alarms.removeAll { $0.file == s.file }
        alarms.insert(AlarmsSnapshot(items: s.items, file: s.file), at: 0)
        alarms = Array(alarms.prefix(Self.depth))
    }

    /// The alarms edited over `file`, if any were set aside (and no
    /// longer). An occurrence that passed meanwhile is done with: it was
    /// not on the list then, and never rings late.
    mutating func takeAlarms(over file: [String], at now: Now) -> AlarmsSnapshot? {
        guard let i = alarms.firstIndex(where: { $0.file == file }) else { return nil }
        var s = alarms.remove(at: i)
        for j in s.items.indices { s.items[j].handled = max(s.items[j].handled, now.wall.nanoseconds) }
        return s
    }
}

extension AlarmsSnapshot {
    /// The list differs from the file's it was taken over: edited on the box.
    var edited: Bool {
        items.map { "\($0.at) \($0.days) \($0.enabled ? "on" : "off") \($0.label)" } != file
    }

    /// This list with `other`'s ring or snooze in progress.
    func ringing(as other: AlarmsSnapshot) -> AlarmsSnapshot {
        var s = self
        (s.minute, s.labels, s.ringing, s.snoozedUntil) = (other.minute, other.labels, other.ringing, other.snoozedUntil)
        return s
    }
}

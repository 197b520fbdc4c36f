/// Lists edited on the box (presets, daily alarms) that a change of the
/// configuration file's list replaced. The file's list wins, but the edits
/// are not thrown away: if the file's list comes back to the one they were
/// made over (a rewrite that ends as it started, a change undone), they
/// come back with it. One list of each kind is kept, the last edited one
/// the file replaced, in the state file too, so a restart in between loses
/// nothing.
public struct SetAsideEdits: Equatable, Sendable {
    /// Presets edited over the file's list `file` (nanoseconds).
    public struct Presets: Equatable, Sendable {
        public var file: [Int64]
        public var presets: [Int64]
        public var index: Int

        public init(file: [Int64], presets: [Int64], index: Int) {
            (self.file, self.presets, self.index) = (file, presets, index)
        }
    }

    /// How many lists of each kind are kept: an owner who undoes a change,
    /// or a rewrite caught mid-way, needs one. A list of ten alarms with
    /// long labels is 4.5 KiB of state file; the state file's limit is
    /// 16 KiB (`StateStore.maxFileSize`).
    public static let depth = 1

    public private(set) var presets: [Presets] = []
    /// Alarms edited over the file's list `file` (`DailyAlarm.record`);
    /// without a ring or snooze, which belongs to the running alarms.
    public private(set) var alarms: [AlarmsSnapshot] = []

    public init(presets: [Presets] = [], alarms: [AlarmsSnapshot] = []) {
        self.presets = presets
        self.alarms = alarms
    }

    public var isEmpty: Bool { presets.isEmpty && alarms.isEmpty }

    /// Read from outside: at most `depth` lists of each kind, each a list
    /// a file may hold, its index within it, the alarms as `AlarmsSnapshot`
    /// checks them.
    func check() throws(Snapshot.Invalid) {
        guard presets.count <= Self.depth, alarms.count <= Self.depth else {
            throw Snapshot.Invalid("setAside", "more than \(Self.depth) lists set aside")
        }
        let range = 1...Settings.longestPreset.nanoseconds
        for p in presets {
            guard !p.presets.isEmpty, p.presets.count <= Settings.maxPresets, p.file.count <= Settings.maxPresets,
                  (p.presets + p.file).allSatisfy(range.contains), p.presets.indices.contains(p.index) else {
                throw Snapshot.Invalid("setAside.presets", "not a list of at most \(Settings.maxPresets) presets with its index")
            }
        }
        for a in alarms { try a.check() }
    }

    /// Keep the snapshot's presets if they were edited over its file's list.
    mutating func setAside(presets s: Snapshot) {
        guard let file = s.filePresets, !s.count.presets.isEmpty, s.count.presets != file else { return }
        presets.removeAll { $0.file == file }
        presets.insert(Presets(file: file, presets: s.count.presets, index: s.count.presetIndex), at: 0)
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
    public var edited: Bool {
        items.map { "\($0.at) \($0.days) \($0.enabled ? "on" : "off") \($0.label)" } != file
    }

    /// This list with `other`'s ring or snooze in progress.
    func ringing(as other: AlarmsSnapshot) -> AlarmsSnapshot {
        var s = self
        (s.minute, s.labels, s.ringing, s.snoozedUntil) = (other.minute, other.labels, other.ringing, other.snoozedUntil)
        return s
    }
}

/// The configuration a machine runs under: the file's, or the one a count
/// in progress keeps until its reset, with the file's own waiting
/// (`pending`); and the edits made on the box over lists the file has
/// since replaced (`SetAsideEdits`).
extension Machine {
    @usableFromInline struct Setup: Sendable {
        @usableFromInline let settings: Settings
        /// The mode the configuration file asks for; `settings.mode` may
        /// differ after `tock mode` changed it at run time.
        @usableFromInline let fileMode: Settings.Mode
        /// A configuration (reloaded, or read at a restart) that waits for
        /// the count in progress to be reset: a change of file never cuts
        /// a count short, rings it early or loses it.
        @usableFromInline var pending: Settings? { didSet { waits = pending != nil } }
        var setAside: SetAsideEdits
        /// A configuration waits for the count's reset: kept beside
        /// `pending` and read on every wake-up, where a look at the
        /// optional copied the 600-byte settings first.
        private(set) var waits = false

        /// The settings to run under, from the file and the snapshot a
        /// restart (or a rebuild) continues from; `snapshot` loses the
        /// presets the file's list replaced (they are set aside).
        init(file: Settings, restoring snapshot: inout Snapshot?) {
            var fileMode = file.mode
            var settings = file
            setAside = snapshot?.setAside ?? SetAsideEdits()
            let presetsChanged = snapshot?.filePresets.map { $0 != file.presets.map(\.nanoseconds) } ?? false
            // A mode chosen at run time outlives a restart, unless the file's
            // own mode has changed since (the person edited it).
            if let snapshot, snapshot.fileMode == file.mode, snapshot.mode != .countdown || file.countdownUntil != nil {
                settings.mode = snapshot.mode
            }
            if let saved = snapshot, saved.holdsACount, saved.mode != settings.mode || presetsChanged {
                let m = saved.mode
                // The file changed under a count in progress: the count goes on
                // with the mode and presets it had, the file from its reset
                // (as after a reload: the count's mode stands for the file's
                // until then, so the file's wins at the reset).
                if m != settings.mode { fileMode = m }
                settings.mode = m
                if !saved.count.presets.isEmpty { settings.presets = saved.count.presets.map { .nanoseconds($0) } }
                pending = file
            } else if presetsChanged, let saved = snapshot {
                // The file's list wins over edits made on the box; they are set
                // aside, and come back if the file's list comes back to theirs.
                let kept = setAside.takePresets(over: file.presets.map(\.nanoseconds))
                setAside.setAside(presets: saved)
                snapshot?.count.presets = kept?.presets ?? []
                snapshot?.count.presetIndex = kept?.index ?? 0
            }
            self.settings = settings
            self.fileMode = fileMode
            waits = pending != nil  // (no didSet in an initialiser)
        }

        /// The daily alarms a snapshot kept, under the file's list: when
        /// the file's list changed, it wins and the box's edits are set
        /// aside (as the presets).
        mutating func alarms(_ saved: AlarmsSnapshot, at now: Now) -> AlarmsSnapshot {
            var saved = saved
            let file = settings.alarms.map(\.record)
            if saved.file != file {
                let kept = setAside.takeAlarms(over: file, at: now)
                setAside.setAside(alarms: saved)
                if let kept { saved = kept.ringing(as: saved) }
            }
            return saved
        }
    }
}

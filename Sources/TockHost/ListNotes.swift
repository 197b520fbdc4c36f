import TockCore

/// What a change of the configuration file's lists did to the presets and
/// alarms set on the box, for the log: the owner reads there whether an
/// edit was set aside, or came back.
enum ListNotes {
    /// From the state before (the saved one at start-up, the running one
    /// at a reload) to the state after; `name` is the file's.
    static func lines(before: Snapshot, after: Snapshot, name: String) -> [String] {
        var lines: [String] = []
        if let was = before.filePresets, let now = after.filePresets, was != now {
            let edited = !before.count.presets.isEmpty && before.count.presets != was
            if before.setAside?.presets.contains(where: { $0.file == now }) == true {
                lines.append("timer.presets in \(name) is back to the list the presets set on the box were made over: they are back")
            } else if edited {
                lines.append("timer.presets changed in \(name): the file's list is used; the presets set on the box are set aside, and come back if the file's list does")
            } else {
                lines.append("timer.presets changed in \(name): the file's list is used")
            }
        }
        if let was = before.alarms, let now = after.alarms, was.file != now.file {
            if before.setAside?.alarms.contains(where: { $0.file == now.file }) == true {
                lines.append("alarms in \(name) are back to the list the alarms set on the box were made over: they are back")
            } else if was.edited {
                lines.append("alarms changed in \(name): the file's list is used; the alarms set on the box are set aside, and come back if the file's list does")
            }
        }
        return lines
    }
}

import TockCore

/// The outputs, each failure logged once until the device works again.
extension Shell {
    /// `output("display")` for a frame, without a closure to build (a
    /// frame goes out on most wake-ups).
    func show(_ f: Frame) {
        do {
            try display.show(f)
            if !faulty.isEmpty, faulty.remove("display") != nil { log.notice("display works again") }
        } catch {
            if faulty.insert("display").inserted { log.error("display: \(error)") }
        }
    }

    /// A failing output is logged once and the appliance keeps running: a
    /// missing display must not stop the alarm from sounding.
    func output(_ device: String, _ write: () throws -> Void) {
        do {
            try write()
            if !faulty.isEmpty, faulty.remove(device) != nil { log.notice("\(device) works again") }
        } catch {
            if faulty.insert(device).inserted { log.error("\(device): \(error)") }
        }
    }
}

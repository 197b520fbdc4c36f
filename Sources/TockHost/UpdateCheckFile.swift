import Logging
import TockControl
import TockLinux

/// The daily update check's result file (`UpdateCheck`), beside the state
/// file: `/var/lib/tock/update-check.json`. Read at the start and on each
/// `update-checked` (the check's unit sends it once it has written the
/// file), never on a timer; a few hundred bytes on a local file system.
/// A file that is not the check's is refused with one log line per
/// distinct problem (an `update-checked` flood on MQTT repeats none).
final class UpdateCheckFile {
    let path: String
    private let log: Logger
    private var lastProblem: String?

    init(path: String, log: Logger) {
        self.path = path
        self.log = log
    }

    /// The file beside a state file (`<dir>/state.json` → `<dir>/update-check.json`).
    static func beside(statePath: String) -> String {
        let dir = statePath.lastIndex(of: "/").map { String(statePath[..<$0]) } ?? "."
        return "\(dir)/\(UpdateCheck.fileName)"
    }

    /// What the check found; nil when it has not run yet or wrote
    /// something else (logged).
    func read() -> UpdateCheck? {
        do {
            guard let bytes = try DurableFile.read(path, limit: UpdateCheck.maxBytes) else { return nil }
            let check = try UpdateCheck.parse(bytes)
            lastProblem = nil
            return check
        } catch let e as UpdateCheck.Invalid {
            problem("\(path): \(e.description.dropFirst(UpdateCheck.fileName.count + 2))")
        } catch {
            problem("\(error)")
        }
        return nil
    }

    private func problem(_ text: String) {
        guard text != lastProblem else { return }
        lastProblem = text
        log.warning("update check: \(text); the update entity and tock status say not checked (run systemctl start tock-update-check)")
    }
}

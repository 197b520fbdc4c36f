import TockConfig
import TockGPIOD
import TockHardware

extension Configuration {
    /// Every line name that the chips here do not have, as problems with
    /// file, line and key (`tock config check` on the board itself). Reads
    /// chip information only; no line is claimed.
    public func unknownLines(_ finder: LineFinder) -> [ConfigProblem] {
        hardware.lines.compactMap { use -> ConfigProblem? in
            let (key, line) = (use.key, use.line)
            do throws(HardwareError) {
                _ = try finder.find(line, for: key)
                return nil
            } catch {
                let message = error.message.hasPrefix("\(key): ") ? String(error.message.dropFirst(key.count + 2)) : error.message
                return ConfigProblem(file: file, line: keyLines[key] ?? 1, key: key, message: message)
            }
        }
    }
}

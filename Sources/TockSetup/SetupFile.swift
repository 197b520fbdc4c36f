/// tock-setup.txt: one `key = value` per line, `#` starts a comment line.
/// Read in one pass over the bytes (each line is looked at once, each
/// mistake appended once), within `SetupLimits`.
public struct SetupFile {
    public var name: String
    public var limits: SetupLimits
    /// Why a zone name is not one this box has, or nil when it has it.
    public var zone: (String) -> String?
    /// Monotonic nanoseconds, for the time limit.
    public var now: () -> UInt64

    public init(name: String = "tock-setup.txt", limits: SetupLimits = SetupLimits(), zone: @escaping (String) -> String?, now: @escaping () -> UInt64) {
        self.name = name
        self.limits = limits
        self.zone = zone
        self.now = now
    }

    public static let keys = ["hostname", "wifi_ssid", "wifi_passphrase", "wifi_country", "wifi_hidden", "timezone", "ssh_key", "address", "gateway", "dns"]

    public func read(_ bytes: [UInt8]) -> SetupReading {
        var r = SetupReading(limit: limits.problems)
        var fields = SetupFields(file: name, zone: zone)
        if bytes.count > limits.bytes {
            r.add(SetupProblem(file: name, line: nil, code: .er01, message: "the file is more than \(limits.bytes) bytes; a setup file is read up to that",
                               fix: "keep only the settings in it (a setup with a few SSH keys is a few KiB)"))
            return r
        }
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            r.add(SetupProblem(file: name, line: nil, code: .er01, message: "the file is saved as UTF-16 (\"Unicode\")",
                               fix: "save it as UTF-8 (Notepad: Save as, Encoding UTF-8)"))
            return r
        }
        var start = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            start = 3
            r.notes.append("\(name) starts with a byte order mark (U+FEFF, invisible in most editors): left out")
        }
        let began = now()
        var number = 0
        while start < bytes.count {
            number += 1
            if number % limits.linesPerClockRead == 0, now() &- began > limits.nanoseconds {
                r.add(SetupProblem(file: name, line: number, code: .er01,
                                   message: "reading took longer than \(limits.nanoseconds / 1_000_000_000) s; stopped here",
                                   fix: "keep only the settings in the file"))
                return r
            }
            var end = start
            while end < bytes.count && bytes[end] != 0x0A { end += 1 }
            var lineEnd = end
            if lineEnd > start && bytes[lineEnd - 1] == 0x0D { lineEnd -= 1 }  // CRLF from Windows
            fields.line(bytes[start..<lineEnd], number: number, into: &r)
            start = end + 1
        }
        fields.finish(into: &r)
        return r
    }
}

import Glibc
import Logging
import TockCore
import TockLinux

/// Log lines on standard error. Under systemd, where standard error is
/// journald's stream, each line carries the syslog priority prefix `<N>`
/// that journald reads (sd-daemon(3)), so `journalctl -p warning -u tock`
/// filters them; on a terminal or in a file the line is plain text, with
/// the level named when it is not `info`. No timestamps: journald adds its
/// own, and a terminal does not need them.
public struct JournalLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    private let label: String
    private let journal: Bool

    /// `journal` nil: decided from the environment (`JOURNAL_STREAM`).
    public init(label: String, journal: Bool? = nil) {
        self.label = label
        self.journal = journal ?? Self.standardErrorIsJournal()
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }

    public func log(event: LogEvent) {
        let message = Self.escaped(event.message.description)
        let text = journal ? Self.format(event.level, message) : Self.plain(event.level, message)
        StandardStream.error.write(text + "\n")
    }

    /// The longest message written (a configuration's problems fit).
    public static let maximumMessage = 16_384

    /// Every message as it is written, whatever wrote it: the lines that
    /// quote outside text escape it themselves (`LogLine`); this pass is
    /// what holds for a line that does not. An ESC, a CR or a C1 control
    /// cannot reach journald or a terminal; the line breaks a message has
    /// are kept, one journal entry each.
    public static func escaped(_ message: String) -> String {
        let bytes = Array(message.utf8)
        guard bytes.count > maximumMessage || !LogText.isPlain(bytes, keepNewlines: true, backslash: false) else { return message }
        return LogText.escape(bytes, limit: maximumMessage, keepNewlines: true, backslash: false)
    }

    /// Every line of a multi-line message gets the prefix, or journald
    /// would file the rest at the default priority.
    public static func format(_ level: Logger.Level, _ message: String) -> String {
        let prefix = "<\(priority(level))>"
        return message.split(separator: "\n", omittingEmptySubsequences: false)
            .map { prefix + $0 }.joined(separator: "\n")
    }

    /// The line as a person reads it on a terminal: `warning: ...`,
    /// `error: ...`; info lines as they are.
    public static func plain(_ level: Logger.Level, _ message: String) -> String {
        level == .info ? message : "\(level.rawValue): \(message)"
    }

    /// systemd sets `JOURNAL_STREAM=<device>:<inode>` for a service whose
    /// standard error is connected to journald (systemd.exec(5)); the
    /// variable is inherited by children whose stderr may be elsewhere, so
    /// it counts only when descriptor 2 is that very stream.
    public static func standardErrorIsJournal(
        environment: Environment.Variables = Environment.variables("JOURNAL_STREAM"), descriptor: Int32 = 2
    ) -> Bool {
        guard let value = environment["JOURNAL_STREAM"] else { return false }
        let parts = value.split(separator: ":")
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return false }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return false }
        return UInt64(info.st_dev) == device && UInt64(info.st_ino) == inode
    }
}

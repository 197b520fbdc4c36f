import Foundation
import Logging

/// Log lines on standard error with the syslog priority prefix `<N>` that
/// journald reads (sd-daemon(3)), so `journalctl -p warning -u tock`
/// filters them; no timestamps, journald adds its own.
public struct JournalLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    private let label: String

    public init(label: String) { self.label = label }

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
        FileHandle.standardError.write(Data((Self.format(event.level, event.message.description) + "\n").utf8))
    }

    /// Every line of a multi-line message gets the prefix, or journald
    /// would file the rest at the default priority.
    public static func format(_ level: Logger.Level, _ message: String) -> String {
        let prefix = "<\(priority(level))>"
        return message.split(separator: "\n", omittingEmptySubsequences: false)
            .map { prefix + $0 }.joined(separator: "\n")
    }
}

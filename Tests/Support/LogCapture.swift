import Logging

/// Log lines kept for a test to read.
public final class LogLines: @unchecked Sendable {
    public var messages: [String] = []
    public init() {}
}

/// A log handler that keeps every message in `lines`.
public struct LogCapture: LogHandler {
    public let lines: LogLines
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .trace

    public init(lines: LogLines) { self.lines = lines }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        lines.messages.append(event.message.description)
    }
}

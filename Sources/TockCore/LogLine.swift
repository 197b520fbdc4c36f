/// A log line whose own words are written as they are and whose every
/// interpolated value is escaped (`LogText`): `"mqtt: refused \(request)"`
/// can quote a name with a newline or an ESC from outside and still be one
/// plain line. There is no way to interpolate a value raw, so escaping is
/// not something a new log line can forget: the lines that outside input
/// can cause are written as a `LogLine` (`LimitedLog` takes nothing else).
///
///     let line: LogLine = "timer \(name) rang"   // name "A\nB" -> timer A\nB rang
public struct LogLine: ExpressibleByStringInterpolation, CustomStringConvertible, Sendable, Equatable {
    public private(set) var description: String

    public init(stringLiteral value: String) { description = value }

    public init(stringInterpolation: StringInterpolation) { description = stringInterpolation.text }

    /// The line with `more` appended (words of this program's own).
    public func appending(_ more: String) -> LogLine {
        var l = self
        l.description += more
        return l
    }

    public struct StringInterpolation: StringInterpolationProtocol {
        var text = ""

        public init(literalCapacity: Int, interpolationCount: Int) {
            text.reserveCapacity(literalCapacity + 16 * interpolationCount)
        }

        /// This program's own words.
        public mutating func appendLiteral(_ literal: String) { text += literal }

        /// Any value, as `String(describing:)` writes it, escaped and cut at
        /// `LogText.maximumLength` characters (or `limit`).
        public mutating func appendInterpolation<T>(_ value: T, limit: Int = LogText.maximumLength) {
            text += LogText(String(describing: value), limit: limit).description
        }

        /// Raw bytes from outside (a payload, a path): invalid UTF-8 is
        /// shown byte by byte, never replaced.
        public mutating func appendInterpolation(bytes: some Sequence<UInt8>, limit: Int = LogText.maximumLength) {
            text += LogText(bytes: bytes, limit: limit).description
        }

        /// A text of several lines this program put together (a
        /// configuration file's problems, one a line): its line breaks are
        /// kept, everything else is escaped, and it is cut at `limit`.
        public mutating func appendInterpolation<T>(lines value: T, limit: Int = 4096) {
            text += LogText.escape(Array(String(describing: value).utf8), limit: limit, keepNewlines: true)
        }
    }
}

#if canImport(TockCore)
import TockCore  // `make fuzz` compiles the few core files it needs into one module instead
#endif

/// Durations as people write them in the configuration file, on the
/// command line and in the control socket: `10s`, `5m`, `12m30s`, `1h`,
/// `1h30m`, `250ms`, `0.5s`, or clock style `1:30` (m:ss) and `1:00:00`
/// (h:mm:ss).
public enum DurationText {
    public struct Invalid: Error, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// The longest duration accepted, in seconds: `TimeBounds.longest`.
    static let longest: Int64 = TimeBounds.longest.nanoseconds / 1_000_000_000

    public static func parse(_ text: String) throws(Invalid) -> Duration {
        let s = text.trimmingSpaces
        guard !s.isEmpty else { throw Invalid(description: "empty duration") }
        if s.contains(":") { return try clock(s) }
        var total: Int64 = 0
        var rest = Substring(s)
        // Units come once each, largest first (`1h30m`, not `30m1h` or `5m5m`).
        var smallestSoFar = Int64.max
        while !rest.isEmpty {
            let number = rest.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
            guard !number.isEmpty else {
                throw Invalid(description: "\"\(text)\" is not a duration (write e.g. 90s, 5m, 12m30s, 1h, 250ms or 1:30)")
            }
            rest = rest.dropFirst(number.count)
            let unit = rest.prefix { $0.isLetter }
            rest = rest.dropFirst(unit.count)
            let scale: Int64
            switch unit {
            case "h": scale = 3_600_000_000_000
            case "m", "min": scale = 60_000_000_000
            case "s": scale = 1_000_000_000
            case "ms": scale = 1_000_000
            case "":
                throw Invalid(description: "\"\(text)\" needs a unit (write e.g. \(number)s or \(number)m)")
            default:
                throw Invalid(description: "\"\(text)\": unknown unit \"\(unit)\" (use h, m, s or ms)")
            }
            guard scale < smallestSoFar else {
                throw Invalid(description: "\"\(text)\": give each unit once, largest first (e.g. 1h30m)")
            }
            smallestSoFar = scale
            guard let value = decimal(number, scale: scale) else {
                throw Invalid(description: "\"\(text)\": \"\(number)\" is not a number, or too large")
            }
            let (sum, overflow) = total.addingReportingOverflow(value)
            guard !overflow else { throw Invalid(description: "\"\(text)\" is too long") }
            total = sum
        }
        guard total <= longest * 1_000_000_000 else { throw Invalid(description: "\"\(text)\" is too long") }
        return .nanoseconds(total)
    }

    /// A duration with an optional sign, for time added to a count or
    /// taken from it: `2m`, `+30s`, `-1m`.
    public static func parseSigned(_ text: String) throws(Invalid) -> Duration {
        let s = text.trimmingSpaces
        if s.hasPrefix("-") { return .zero - (try parse(String(s.dropFirst()))) }
        if s.hasPrefix("+") { return try parse(String(s.dropFirst())) }
        return try parse(s)
    }

    private static func clock(_ s: String) throws(Invalid) -> Duration {
        let parts = s.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3,
              parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let nums = Optional(parts.compactMap { Int64($0) }), nums.count == parts.count else {
            throw Invalid(description: "\"\(s)\" is not a duration (clock style is m:ss or h:mm:ss)")
        }
        for n in nums.dropFirst() where n >= 60 {
            throw Invalid(description: "\"\(s)\": minutes and seconds after a colon must be under 60")
        }
        // Each field is under 10^9 (Int64 parsed it), so this cannot overflow;
        // beyond about 30 years it is no duration anyone means, and the
        // nanosecond arithmetic elsewhere needs it to fit (292 years).
        guard nums[0] < 1_000_000_000 else { throw Invalid(description: "\"\(s)\" is too long") }
        let seconds = nums.reduce(0) { $0 * 60 + $1 }
        guard seconds <= Self.longest else { throw Invalid(description: "\"\(s)\" is too long") }
        return .seconds(seconds)
    }

    /// `12.5` scaled to an integer without going through floating point;
    /// nil when it is not a number or does not fit (no trap on overflow).
    private static func decimal(_ text: Substring, scale: Int64) -> Int64? {
        let pieces = text.split(separator: ".", omittingEmptySubsequences: false)
        guard pieces.count <= 2, pieces.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isWholeNumber } }),
              !(pieces[0].isEmpty && (pieces.count == 1 || pieces[1].isEmpty)),
              let whole = Int64(pieces[0].isEmpty ? "0" : pieces[0]) else { return nil }
        let (scaled, overflow) = whole.multipliedReportingOverflow(by: scale)
        guard !overflow else { return nil }
        var value = scaled
        if pieces.count == 2 {
            var unit = scale
            for digit in pieces[1] {
                guard digit.isASCII, let d = digit.wholeNumberValue else { return nil }
                unit /= 10
                let (sum, overflow) = value.addingReportingOverflow(Int64(d) * unit)
                guard !overflow else { return nil }
                value = sum
            }
        }
        return value
    }

    /// Text that parses back to exactly `d`: `12m30s`, `1h`, `250ms`, and
    /// decimal seconds for what is finer (`6.000000250s`).
    public static func format(_ d: Duration) -> String {
        var n = d.nanoseconds
        guard n > 0 else { return "0s" }
        var out = ""
        for (unit, size) in [("h", Int64(3_600_000_000_000)), ("m", 60_000_000_000)] where n >= size {
            out += "\(n / size)\(unit)"
            n %= size
        }
        if n == 0 { return out }
        if n % 1_000_000_000 == 0 { return out + "\(n / 1_000_000_000)s" }
        if n < 1_000_000_000, n % 1_000_000 == 0 { return out + "\(n / 1_000_000)ms" }
        var fraction = String(n % 1_000_000_000)
        fraction = String(repeating: "0", count: 9 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return out + "\(n / 1_000_000_000).\(fraction)s"
    }
}

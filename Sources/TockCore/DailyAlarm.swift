/// An alarm at a local time of day, on chosen days of the week, as the
/// configuration file (`alarms:`) and `tock alarm add` give it.
public struct DailyAlarm: Equatable, Sendable {
    /// Minutes after local midnight, 0 ..< 1440.
    public var minute: Int
    public var days: Set<Weekday>
    public var label: String
    public var enabled: Bool

    public static let maxCount = 10

    public init(minute: Int, days: Set<Weekday> = Set(Weekday.allCases), label: String = "", enabled: Bool = true) {
        precondition((0..<1440).contains(minute), "an alarm's minute is within a day")
        self.minute = minute
        self.days = days
        self.label = label
        self.enabled = enabled
    }

    /// `06:45`.
    public var timeText: String { Self.timeText(minute) }

    /// A minute of the day as `HH:MM`.
    public static func timeText(_ minute: Int) -> String {
        "\(minute / 60 < 10 ? "0" : "")\(minute / 60):\(minute % 60 < 10 ? "0" : "")\(minute % 60)"
    }

    /// The days as the configuration writes them: `daily`, `weekdays`,
    /// `weekends`, or runs such as `mon-wed,fri`.
    public var daysText: String {
        let all = Set(Weekday.allCases)
        if days == all { return "daily" }
        if days == Self.weekdays { return "weekdays" }
        if days == Self.weekends { return "weekends" }
        // Runs in Monday-first order, as people read a week.
        let week = Weekday.allCases.dropFirst() + [.sunday]
        var runs: [String] = []
        var run: [Weekday] = []
        func close() {
            guard let a = run.first, let b = run.last else { return }
            runs.append(run.count >= 3 ? "\(a.short)-\(b.short)" : run.map(\.short).joined(separator: ","))
            run = []
        }
        for d in week {
            if days.contains(d) { run.append(d) } else { close() }
        }
        close()
        return runs.joined(separator: ",")
    }

    static let weekdays: Set<Weekday> = [.monday, .tuesday, .wednesday, .thursday, .friday]
    static let weekends: Set<Weekday> = [.saturday, .sunday]

    // MARK: - Parsing

    public struct Invalid: Error, Equatable, CustomStringConvertible {
        public var description: String
        public init(_ d: String) { description = d }
    }

    /// `06:45` or `6:45` (24-hour).
    public static func parseTime(_ s: String) throws(Invalid) -> Int {
        let p = s.split(separator: ":", omittingEmptySubsequences: false)
        guard p.count == 2, (1...2).contains(p[0].count), p[1].count == 2,
              p.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isWholeNumber } }),
              let h = Int(p[0]), let m = Int(p[1]), (0...23).contains(h), (0...59).contains(m) else {
            throw Invalid("\"\(s)\" is not a time of day; write HH:MM (24-hour), e.g. 06:45")
        }
        return h * 60 + m
    }

    /// The longest label, in characters.
    public static let maxLabel = 32

    /// A label as it may be stored and printed: at most `maxLabel`
    /// characters, none of them a control or format character (an escape
    /// sequence, NUL, a newline or a bidirectional override would reach
    /// the terminal of whoever lists the alarms).
    public static func parseLabel(_ s: String) throws(Invalid) -> String {
        // Bytes too: one character can be any number of combining marks.
        guard s.count <= maxLabel, s.utf8.count <= 4 * maxLabel else { throw Invalid("a label is at most \(maxLabel) characters") }
        let unprintable: Set<Unicode.GeneralCategory> = [.control, .format, .lineSeparator, .paragraphSeparator,
                                                          .privateUse, .surrogate, .unassigned]
        if let bad = s.unicodeScalars.first(where: { unprintable.contains($0.properties.generalCategory) }) {
            throw Invalid("a label has printable characters only (U+\(String(bad.value, radix: 16, uppercase: true)) is not)")
        }
        return s
    }

    /// Day names (`mon`...`sun`), ranges (`mon-fri`, wrapping as in
    /// `fri-mon`), `daily`, `weekdays`, `weekends`; several joined by commas
    /// or given as a list.
    public static func parseDays(_ items: [String]) throws(Invalid) -> Set<Weekday> {
        var days: Set<Weekday> = []
        let words: [String] = items.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
            .map { String($0).trimmingCharacters(" ").lowercased() }
        guard !words.isEmpty, !words.contains(where: \.isEmpty) else {
            throw Invalid("no days given; use e.g. daily, weekdays, weekends, mon-fri or [sat, sun]")
        }
        for w in words {
            switch w {
            case "daily", "everyday": days.formUnion(Weekday.allCases)
            case "weekdays": days.formUnion(weekdays)
            case "weekends": days.formUnion(weekends)
            default:
                let ends = w.split(separator: "-", omittingEmptySubsequences: false)
                guard (1...2).contains(ends.count), let a = Weekday(short: ends[0]), let b = Weekday(short: ends.last!) else {
                    throw Invalid("\"\(w)\" is not a day; use mon, tue, wed, thu, fri, sat, sun, a range like mon-fri, daily, weekdays or weekends")
                }
                var d = a
                days.insert(d)
                while d != b {
                    d = Weekday(rawValue: (d.rawValue + 1) % 7)!
                    days.insert(d)
                }
            }
        }
        return days
    }
}

extension String {
    /// The string without leading and trailing `c` (no Foundation here).
    func trimmingCharacters(_ c: Character) -> String {
        String(drop { $0 == c }.reversed().drop { $0 == c }.reversed())
    }
}

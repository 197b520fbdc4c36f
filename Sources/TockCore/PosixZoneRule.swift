/// A POSIX `TZ` rule (the TZif footer, RFC 8536 section 3.3), such as
/// `CET-1CEST,M3.5.0,M10.5.0/3`: standard time, and optionally daylight
/// time between two yearly dates. POSIX writes offsets west-positive; here
/// they are stored east-positive, as TZif and `tm_gmtoff` have them.
struct PosixZoneRule: Equatable, Sendable {
    /// Seconds east of UTC.
    var standard: Int
    var daylight: Int?
    /// When daylight time starts and ends, each in the local time in force
    /// just before it.
    var start: Change?
    var end: Change?

    struct Change: Equatable, Sendable {
        enum Day: Equatable, Sendable {
            /// `Jn`: day 1...365, February 29 never counted.
            case julian(Int)
            /// `n`: day 0...365, February 29 counted.
            case zeroBased(Int)
            /// `Mm.w.d`: weekday d (0 Sunday) of week w (5: the last) of month m.
            case monthWeek(month: Int, week: Int, weekday: Int)
        }
        var day: Day
        /// Seconds after local midnight (may be negative or past 24 h).
        var time: Int

        /// The local date this change falls on in `year`, as days since 1970.
        func days(in year: Int) -> Int64 {
            let jan1 = CivilDate(year: year, month: 1, day: 1).days
            switch day {
            case .julian(let n):
                let leapShift = CivilDate.isLeap(year) && n >= 60 ? 1 : 0
                return jan1 + Int64(n - 1 + leapShift)
            case .zeroBased(let n):
                return jan1 + Int64(n)
            case .monthWeek(let m, let w, let d):
                let first = CivilDate(year: year, month: m, day: 1)
                var day = 1 + (d - first.weekday.rawValue + 7) % 7 + (w - 1) * 7
                while day > CivilDate.daysIn(month: m, year: year) { day -= 7 }
                return first.days + Int64(day - 1)
            }
        }
    }

    init(_ text: String) throws(ZoneRules.Invalid) {
        var p = Parser(chars: Array(text))
        func bad(_ what: String) -> ZoneRules.Invalid { ZoneRules.Invalid("TZ rule \"\(text)\": \(what)") }
        guard p.name() else { throw bad("expected a zone abbreviation first, like CET or <+03>") }
        guard let std = p.time(signed: true) else { throw bad("expected the offset after the name, like CET-1") }
        // POSIX: an offset's hours are 0 to 24 (only the transition times
        // may reach 167 hours, RFC 8536 section 3.3.1).
        func offset(_ west: Int) throws(ZoneRules.Invalid) -> Int {
            guard abs(west) <= 89_999 else { throw bad("an offset of more than 24:59:59 from UTC; POSIX allows hours 0 to 24") }
            return -west
        }
        standard = try offset(std)
        guard !p.atEnd else { return }
        guard p.name() else { throw bad("expected a daylight-time abbreviation") }
        if let dst = p.time(signed: true) { daylight = try offset(dst) } else { daylight = try offset(-standard - 3600) }
        if p.atEnd {
            // POSIX leaves the default to the implementation; US rules, as
            // the tz code assumes.
            start = Change(day: .monthWeek(month: 3, week: 2, weekday: 0), time: 7200)
            end = Change(day: .monthWeek(month: 11, week: 1, weekday: 0), time: 7200)
            return
        }
        guard p.eat(","), let s = p.change(), p.eat(","), let e = p.change(), p.atEnd else {
            throw bad("expected ,START[/TIME],END[/TIME] after the daylight name (e.g. ,M3.5.0,M10.5.0/3)")
        }
        start = s
        end = e
    }

    func offset(at utc: Int64) -> Int {
        changes(ofYears: year(of: utc)).filter { $0.at <= utc }.max { $0.at < $1.at }?.offset ?? standard
    }

    /// The instants in `range` at which daylight time starts or ends, ascending.
    func changes(in range: ClosedRange<Int64>) -> [Int64] {
        changes(ofYears: year(of: range.lowerBound)...year(of: range.upperBound)).map(\.at).filter(range.contains).sorted()
    }

    private func year(of utc: Int64) -> Int { CivilDate(days: utc.floorDivided(by: 86_400)).year }

    /// The changes of these years and of the neighbouring ones: a southern
    /// zone's daylight time spans the new year, and UTC and local years
    /// differ near it.
    private func changes(ofYears years: ClosedRange<Int>) -> [(at: Int64, offset: Int)] {
        guard let daylight, let start, let end else { return [] }
        var changes: [(at: Int64, offset: Int)] = []
        for year in (years.lowerBound - 1)...(years.upperBound + 1) {
            changes.append((start.days(in: year) * 86_400 + Int64(start.time - standard), daylight))
            changes.append((end.days(in: year) * 86_400 + Int64(end.time - daylight), standard))
        }
        return changes
    }

    private func changes(ofYears y: Int) -> [(at: Int64, offset: Int)] { changes(ofYears: y...y) }

    private struct Parser {
        let chars: [Character]
        var i = 0

        var atEnd: Bool { i == chars.count }

        mutating func eat(_ c: Character) -> Bool {
            guard i < chars.count, chars[i] == c else { return false }
            i += 1
            return true
        }

        /// `<...>` or three or more letters.
        mutating func name() -> Bool {
            if eat("<") {
                while i < chars.count, chars[i] != ">" { i += 1 }
                return eat(">")
            }
            let s = i
            while i < chars.count, chars[i].isLetter { i += 1 }
            return i - s >= 3
        }

        mutating func number() -> Int? {
            let s = i
            var n = 0
            while i < chars.count, chars[i].isASCII, let d = chars[i].wholeNumberValue, d < 10 {
                // Digits summed here: `Int(String(chars[s..<i]))` took the generic
                // String initialiser's slow path, a fifth of a million instructions at start-up.
                guard n < Int.max / 10 - 9 else { return nil }
                n = n * 10 + d
                i += 1
            }
            return i > s ? n : nil
        }

        /// `[+-]hh[:mm[:ss]]` in seconds.
        mutating func time(signed: Bool) -> Int? {
            var sign = 1
            if eat("-") { sign = -1 } else { _ = eat("+") }
            guard let h = number(), h <= 167 else { return nil }
            var s = h * 3600
            if eat(":") {
                guard let m = number(), m < 60 else { return nil }
                s += m * 60
                if eat(":") {
                    guard let sec = number(), sec < 60 else { return nil }
                    s += sec
                }
            }
            return sign * s
        }

        mutating func change() -> Change? {
            let day: Change.Day
            if eat("M") {
                guard let m = number(), eat("."), let w = number(), eat("."), let d = number(),
                      (1...12).contains(m), (1...5).contains(w), (0...6).contains(d) else { return nil }
                day = .monthWeek(month: m, week: w, weekday: d)
            } else if eat("J") {
                guard let n = number(), (1...365).contains(n) else { return nil }
                day = .julian(n)
            } else {
                guard let n = number(), (0...365).contains(n) else { return nil }
                day = .zeroBased(n)
            }
            var time = 7200
            if eat("/") {
                guard let t = self.time(signed: true) else { return nil }
                time = t
            }
            return Change(day: day, time: time)
        }
    }
}

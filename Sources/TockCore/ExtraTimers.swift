/// The extra timers beside the box's own count (docs/timers.md): pasta,
/// eggs and the oven at once, each an `ExtraTimer`.
///
/// Rings queue: one that ends while another rings (or while the box's own
/// count or a daily alarm rings) waits, and its ring time starts only once
/// it is on the display, so two ending in the same second ring one after
/// the other and neither is lost.
/// The extra timers, in the order they were added.
public struct ExtraTimers: Equatable, Sendable {
    /// At most this many beside the box's own count.
    public static let limit = 8
    /// What the display calls the box's own count when several show in
    /// turn; no extra timer may take this name.
    public static let mainLabel = "t1"

    public internal(set) var list: [ExtraTimer] = []

    public init() {}

    public var isEmpty: Bool { list.isEmpty }

    /// The same as `other` to someone outside the box: the same timers in
    /// the same states, ends and times left (a queued ring's turn on the
    /// display is the box's own business).
    public func looksLike(_ other: ExtraTimers) -> Bool {
        func outside(_ x: ExtraTimer) -> ExtraTimer {
            var x = x
            if case .ringing(let ended, _) = x.state { x.state = .ringing(ended: ended, since: nil) }
            return x
        }
        return list.count == other.list.count && zip(list, other.list).allSatisfy { outside($0) == outside($1) }
    }
    /// Any that runs, is paused or rings.
    public var anyActive: Bool { list.contains(where: \.isActive) }

    public func named(_ name: String) -> ExtraTimer? { list.first { $0.name == name } }

    // MARK: - Requests

    /// A request from outside the panel (`tock timer add|pause|resume|cancel`).
    public enum Request: Equatable, Sendable {
        case add(name: String, duration: Duration)
        case pause(String)
        case resume(String)
        case cancel(String)
    }

    /// Add a timer counting from `t`, or say why not. A done timer of the
    /// same name is replaced (started again); when all eight places are
    /// taken, the oldest done timer gives its place.
    mutating func add(_ name: String, _ duration: Duration, digits: Int, ringFor: Duration, at t: Instant) throws(Machine.Refusal) {
        guard !name.isEmpty else { throw .init("a timer needs a name the display can show (at most \(digits) characters, e.g. EGG)") }
        guard let label = NamedProgram.label(name) else {
            throw .init("\"\(name.prefix(32))\" cannot be drawn on 7 segments (k, m, q, w, x, z and most signs have no glyph)")
        }
        guard label.first != " ", label.last != " " else {
            throw .init("a timer's name neither starts nor ends with a space (it would look like another, or like none)")
        }
        guard label.count <= digits else { throw .init("\"\(name.prefix(32))\" is longer than the display's \(digits) digits") }
        guard label != Self.mainLabel else { throw .init("\(Self.mainLabel) is what the display calls the box's own count; choose another name") }
        guard duration >= .seconds(1) else { throw .init("a timer counts at least 1s") }
        guard duration <= Settings.longestPreset else { throw .init("\(Settings.longestPreset.hoursMinutes) is the longest a timer counts") }
        if let same = list.firstIndex(where: { $0.label == label }) {
            guard !list[same].isActive else {
                let how = list[same].name == name ? "a timer named \(name)" : "\(list[same].name), drawn \(label) as \(name) is,"
                throw .init("\(how) is \(list[same].stateName.rawValue); cancel it first (tock timer cancel \(list[same].name)) or choose another name")
            }
            list.remove(at: same)
        }
        if list.count >= Self.limit {
            guard let oldestDone = list.firstIndex(where: { !$0.isActive }) else {
                throw .init("\(Self.limit) timers are the most a box keeps beside its own count; cancel one first")
            }
            list.remove(at: oldestDone)
        }
        list.append(ExtraTimer(name: name, label: label, duration: duration, state: .running(ends: t + duration), ringFor: ringFor))
    }

    /// The first name of `t2`...`t9` no timer has (the gesture's names).
    var freeGestureName: String? {
        (2...(Self.limit + 1)).map { "t\($0)" }.first { n in !list.contains { $0.label == n && $0.isActive } }
    }

    mutating func pause(_ name: String, at t: Instant) throws(Machine.Refusal) {
        let i = try index(name)
        guard list[i].pause(at: t) else { throw .init("\(name) is \(list[i].stateName.rawValue); only a running timer pauses") }
    }

    mutating func resume(_ name: String, at t: Instant) throws(Machine.Refusal) {
        let i = try index(name)
        guard list[i].resume(at: t) else { throw .init("\(name) is \(list[i].stateName.rawValue); only a paused timer resumes") }
    }

    /// Cancel (remove) one, whatever its state: a ringing one is silenced.
    mutating func cancel(_ name: String) throws(Machine.Refusal) {
        list.remove(at: try index(name))
    }

    private func index(_ name: String) throws(Machine.Refusal) -> Int {
        if let i = list.firstIndex(where: { $0.name == name }) { return i }
        let names = list.map(\.name)
        throw .init("no timer named \(name)" + (names.isEmpty ? "; none is set (tock timer add NAME DURATION)" : " (timers: \(names.joined(separator: ", ")))"))
    }

    // MARK: - Time

    /// The ring on the display: the first of the ringing ones to end.
    var head: Int? {
        var best: Int?
        var bestEnd: Instant?
        for (i, x) in list.enumerated() {
            guard x.isActive, let e = x.ended else { continue }
            if let b = bestEnd, b <= e { continue }
            (best, bestEnd) = (i, e)
        }
        return best
    }

    /// The next instant something changes by itself: an end, or the ring
    /// on the display silencing itself after its `ringFor`.
    func deadline() -> Instant? {
        var d: Instant?
        for x in list { if let e = x.ends, d.map({ e < $0 }) ?? true { d = e } }
        if let h = head, let s = list[h].silenceDue { d = Instant.earliest(d, s) }
        return d
    }

    /// Apply what is due by `t`: ends (ringing, queued behind any ring in
    /// progress), and the ring on the display silencing itself. `shown`:
    /// nothing else rings on the display, so the first queued ring comes on
    /// (its ring time starts now); when something else took the display,
    /// the ring on it goes back to waiting and later rings whole. The names
    /// that rang, in order.
    mutating func advance(to t: Instant, shown: Bool) -> [String] {
        var rang: [String] = []
        for i in list.indices where list[i].reachEnd(by: t) { rang.append(list[i].name) }
        while let h = head {
            if list[h].life.ringingSince != nil {
                guard shown else {
                    // The box's own count or a daily alarm took the display:
                    // this ring starts again, whole, once it is back.
                    list[h].ringWaits()
                    break
                }
                guard list[h].silenceIfDue(at: t) else { break }
                continue
            }
            guard shown, let ended = list[h].ended else { break }
            list[h].ringShown(at: max(ended, t))
            break
        }
        return rang
    }

    /// A press or a flip while the head rings: silenced, done.
    @discardableResult
    mutating func silenceHead() -> String? {
        guard let h = head else { return nil }
        list[h].silence()
        return list[h].name
    }

    /// When the earliest ring began, for the buzzer.
    var ringingSince: Instant? {
        list.compactMap { x -> Instant? in x.isRinging ? x.life.ringingSince ?? x.ended : nil }.min()
    }

    var isRinging: Bool { head != nil }
}

extension Duration {
    /// `99h59m`-style, for refusals.
    var hoursMinutes: String {
        let m = nanoseconds / 60_000_000_000
        return m >= 60 ? "\(m / 60)h\(m % 60 == 0 ? "" : "\(m % 60)m")" : "\(m)m"
    }
}

/// An extra timer as a snapshot keeps it: instants on the wall clock.
public struct TimerRecord: Equatable, Sendable {
    public enum State: Equatable, Sendable {
        /// Reaches zero at this wall instant (nanoseconds).
        case running(ends: Int64)
        /// Paused with this much left (nanoseconds).
        case paused(left: Int64)
        /// Reached zero at `ended`; its ring came on the display at `since`
        /// (absent: it waits behind another ring).
        case ringing(ended: Int64, since: Int64?)
        case done
    }

    public var name: String
    /// Nanoseconds.
    public var duration: Int64
    public var state: State

    public init(name: String, duration: Int64, state: State) {
        (self.name, self.duration, self.state) = (name, duration, state)
    }

    /// Every value within bounds, the name one the display can draw.
    public func check() throws(Snapshot.Invalid) {
        guard let label = NamedProgram.label(name), !label.isEmpty, label.count <= 8 else {
            throw Snapshot.Invalid("name", "\"\(name.prefix(32))\" is not a name the display can draw")
        }
        guard (1_000_000_000...Settings.longestPreset.nanoseconds).contains(duration) else {
            throw Snapshot.Invalid("duration", "\(duration) ns is not 1 s to 99h59m")
        }
        if case .paused(let l) = state, !(0...duration).contains(l) {
            throw Snapshot.Invalid("left", "\(l) ns is not 0 to the duration")
        }
        do throws(TimeBounds.Violation) {
            switch state {
            case .running(let e): _ = try WallTime(checked: e)
            case .paused: break
            case .ringing(let e, let s):
                _ = try WallTime(checked: e)
                if let s { _ = try WallTime(checked: s) }
            case .done: break
            }
        } catch {
            throw Snapshot.Invalid("state", error.description)
        }
    }
}

extension ExtraTimers {
    /// As a snapshot keeps them.
    func records(at now: Now) -> [TimerRecord] {
        list.map { x in
            let state: TimerRecord.State = switch x.state {
            case .running(let e): .running(ends: now.wall(of: e))
            case .paused(let left, _): .paused(left: left.nanoseconds)
            case .ringing(let e, let s): .ringing(ended: now.wall(of: e), since: s.map(now.wall(of:)))
            case .done: .done
            }
            return TimerRecord(name: x.name, duration: x.duration.nanoseconds, state: state)
        }
    }

    /// Continued as if the box had stayed on: one whose end passed while
    /// off rings now (waiting its turn); a ring in progress keeps its
    /// time, at least half of `ringFor` from now (as the box's own count).
    init(restoring records: [TimerRecord], ringFor: Duration, at now: Now) {
        for r in records.prefix(Self.limit) {
            guard let label = NamedProgram.label(r.name), !list.contains(where: { $0.label == label }) else { continue }
            let state: ExtraTimer.State
            switch r.state {
            case .running(let e):
                let end = now.instant(ofWall: e)
                state = end <= now.monotonic ? .ringing(ended: end, since: nil) : .running(ends: end)
            case .paused(let l): state = .paused(left: .nanoseconds(l), at: now.monotonic)
            case .ringing(let e, let s):
                state = .ringing(ended: now.instant(ofWall: e), since: s.map { Snapshot.ringStart(now.instant(ofWall: $0), now: now, ringFor: ringFor) })
            case .done: state = .done
            }
            list.append(ExtraTimer(name: r.name, label: label, duration: .nanoseconds(r.duration), state: state, ringFor: ringFor))
        }
    }
}

/// An extra timer as the status tells it (`Shell.timers`).
public struct TimerView: Equatable, Sendable {
    public var timer: ExtraTimer
    public var left: Duration
    /// Its end on the wall clock, while it runs.
    public var ends: WallTime?
    /// The count on the display (the buttons act on it).
    public var shown: Bool

    public init(timer: ExtraTimer, left: Duration, ends: WallTime?, shown: Bool) {
        (self.timer, self.left, self.ends, self.shown) = (timer, left, ends, shown)
    }
}

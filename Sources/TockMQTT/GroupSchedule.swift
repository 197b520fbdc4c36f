#if canImport(TockCore)
import TockConfig  // `make fuzz-state` compiles the files it needs into one module instead
import TockCore
import TockJSON
import TockShell
#endif

/// Which of a fleet group's changes a member adopts, in what order, and
/// when: the rules that make every member end in the same state, whatever
/// order the broker delivers in and whatever any member's wall clock did,
/// and that keep a few well-formed messages from freezing or splitting the
/// group.
///
/// - Changes are ordered first by `seq`, a Lamport counter: a member
///   numbers its press one past the highest number it has seen, so a press
///   made after another reached it always comes after it, however wrong
///   either box's clock was. Presses made within the same lead (neither
///   saw the other) share a number and are ordered by (`at`, `from`, the
///   state's own text), so every member picks the same one.
/// - One not newer than the last applied is ignored, however late it comes.
/// - One numbered more than `maxSeqJump` past the highest seen is refused:
///   that many presses are not missed; such a number would only leave
///   every real press behind it.
/// - When: a change is adopted at its instant `at` on this box's clock,
///   unless that instant is further than `maxSkew` from when a live message
///   can be due (its lead ahead of now, or already past): then the two
///   clocks disagree (the sender's or this box's is wrong, as before NTP
///   answers) and the change is dated from its arrival instead, its lead
///   after it, every instant in its state moved by as much. A change kept
///   by the broker (delivered on subscribing) dated in the past is a count
///   that has been running: it counts from its `at`. Once scheduled, a
///   change waits on the monotonic clock, so a step of the wall clock
///   before its instant neither hastens nor delays it.
/// - At most `maxPerSender` changes of one sender, and `maxPending` in all,
///   wait for their instant; past that the latest waiting one is dropped,
///   never an earlier one, nor one of this box's own.
public struct GroupSchedule {
    /// One change as the group topic carries it.
    ///
    ///     {"v": 2, "from": "kitchen", "seq": 12, "at": 1795707628964897707,
    ///      "press": "start", "state": {"program": {"timer": {…}}, "presets": {…}}}
    ///
    /// Format 2's `state` is the count in the state file's version-4
    /// spelling (`CountJSON`). Format 1, which every version of tock with a
    /// group has read, has the flat shape of the state file's versions 1
    /// and 2 (`SnapshotJSON`; `v` absent or 1). Both are read; a box sends
    /// the format of the last message it took from its group, and format 2
    /// in a group that has none yet, so members still on format 1 keep
    /// following a group that speaks it (docs/mqtt.md, "Updating a fleet").
    /// A message of a later format is refused by name, so a box left behind
    /// says it must be updated rather than misreading its group.
    public struct Message: Decodable, Equatable {
        public var from: String
        /// The press's place in the group's order (absent: 0, as from a
        /// member older than the counter).
        public var seq: Int64
        public var at: Int64
        public var press: String
        public var state: Snapshot.Count
        /// The format it came in, or goes out in.
        public var format: Int

        /// The newest format this box reads, and sends to a group that
        /// has not spoken yet.
        public static let newest = 2
        static let presses = Set(GroupChange.Press.allCases.map(\.rawValue))

        /// The format a change goes out in: the group's, or format 2 when
        /// the state holds what format 1 cannot carry (a count's length
        /// once time was added to it): members still on format 1 then log
        /// that they need updating and act alone, rather than follow a
        /// count without its added time.
        public static func format(for state: Snapshot.Count, speaking: Int) -> Int {
            if case .count(let c) = state.program, c.length != nil { return max(speaking, 2) }
            return speaking
        }
        /// The highest `seq` a message may carry: far beyond any real
        /// group's presses, and far from overflowing when counted on.
        public static let maxSeq: Int64 = 1 << 62

        public init(from: String, seq: Int64, at: Int64, press: String, state: Snapshot.Count, format: Int = Message.newest) {
            self.from = from
            self.seq = seq
            self.at = at
            self.press = press
            self.state = state
            self.format = format
        }

        /// The message's text in its format, written once (`JSON`, style `.encoder`).
        public var bytes: [UInt8] {
            JSON.fields([("v", .int(Int64(format))), ("from", .string(from)), ("seq", .int(seq)), ("at", .int(at)),
                         ("press", .string(press)), ("state", format >= 2 ? CountJSON.value(state) : SnapshotJSON.value(state))]).bytes(.encoder)
        }

        /// A message of a format this box does not read.
        public struct NewerFormat: Error {
            public var format: Int
        }

        enum CodingKeys: String, CodingKey { case v, from, seq, at, press, state }

        /// Every field checked where it is decoded: a format this box
        /// reads, a sender that is a client id, a counter within `maxSeq`,
        /// an instant within `TimeBounds`, a known press, a snapshot the
        /// core accepts (so within bounds too).
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            format = try c.decodeIfPresent(Int.self, forKey: .v) ?? 1
            guard format <= Self.newest else { throw NewerFormat(format: format) }
            guard format >= 1 else { throw DecodingError.dataCorruptedError(forKey: .v, in: c, debugDescription: "not a format") }
            from = try c.decode(String.self, forKey: .from)
            guard TopicName.isValid(from) else {
                throw DecodingError.dataCorruptedError(forKey: .from, in: c, debugDescription: "not a client id")
            }
            seq = try c.decodeIfPresent(Int64.self, forKey: .seq) ?? 0
            guard (0...Self.maxSeq).contains(seq) else {
                throw DecodingError.dataCorruptedError(forKey: .seq, in: c, debugDescription: "not 0 to 2^62")
            }
            at = try c.decode(Int64.self, forKey: .at)
            do { _ = try WallTime(checked: at) } catch {
                throw DecodingError.dataCorruptedError(forKey: .at, in: c, debugDescription: error.description)
            }
            press = try c.decode(String.self, forKey: .press)
            guard Self.presses.contains(press) else {
                throw DecodingError.dataCorruptedError(forKey: .press, in: c, debugDescription: "unknown press")
            }
            state = format >= 2 ? try c.decode(CountJSON.Read.self, forKey: .state).count
                : try c.decode(SnapshotJSON.Read.self, forKey: .state).snapshot.count
        }

        public var key: Key { Key(seq: seq, at: at, from: from, state: String(decoding: SnapshotJSON.value(state).bytes(.encoder), as: UTF8.self)) }
    }

    /// The total order of changes.
    public struct Key: Comparable {
        public var seq: Int64
        public var at: Int64
        public var from: String
        /// The state as canonical JSON (sorted keys): the last tie-break.
        var state: String

        public static func < (a: Key, b: Key) -> Bool { (a.seq, a.at, a.from, a.state) < (b.seq, b.at, b.from, b.state) }
    }

    /// A payload longer than a change can be.
    public struct Oversized: Error {
        public init() {}
    }

    /// Why a change was not scheduled.
    public enum Refusal: Equatable {
        /// The group has applied this change, or a later one, already.
        case notNewer
        case alreadyWaiting
        /// Numbered more than `maxSeqJump` past the highest seen.
        case tooFarAhead
    }

    /// A change waiting for its instant.
    public struct Waiting {
        public var message: Message
        public var key: Key
        /// When it is due, on this box's monotonic clock.
        public var due: Instant
        /// Where `at` fell on this box's wall clock when it was scheduled
        /// (`at` itself unless the clocks disagree).
        public var localAt: WallTime
        /// The wall clock less the monotonic one then (nanoseconds): a
        /// step of the wall clock since changes it.
        var wallOffset: Int64

        /// Its state moved onto this box's wall clock as it reads at
        /// `now`: by the clocks' disagreement found when it was scheduled,
        /// and by any step of this box's clock since.
        func adopted(at now: Now) -> Due {
            // Each term is within the clocks' bounds; their sum is checked
            // all the same (a fuzzed clock reaches any value).
            let terms = [now.wall.nanoseconds, -now.monotonic.nanoseconds, -wallOffset, localAt.nanoseconds, -message.at]
            var sum: Int64 = 0, overflow = false
            for t in terms where !overflow { (sum, overflow) = sum.addingReportingOverflow(t) }
            guard !overflow else {
                return Due(message: message, state: .failure(TimeBounds.Violation("the clocks are too far apart to move \(message.from)'s change onto this one")), moved: .zero)
            }
            let moved: Duration = sum.magnitude < GroupSchedule.negligible.nanoseconds.magnitude ? .zero : .nanoseconds(sum)
            return Due(message: message, state: Result { () throws(TimeBounds.Violation) in try message.state.moved(by: moved) }, moved: moved)
        }
    }

    /// A change to adopt now: its state with every instant moved onto this
    /// box's wall clock (or why it cannot be), and by how much.
    public struct Due {
        public var message: Message
        public var state: Result<Snapshot.Count, TimeBounds.Violation>
        public var moved: Duration
    }

    static let maxPending = 16
    static let maxPerSender = 4
    /// How far from the expected instant a change's `at` may be before the
    /// clocks are taken to disagree: the longest lead a group may set (5 s)
    /// and as much again for clocks that differ or a slow link.
    public static let maxSkew: Duration = .seconds(10)
    public static let maxSeqJump: Int64 = 1_000_000
    /// Moves smaller than this are the two clock reads, not a disagreement.
    static let negligible: Duration = .milliseconds(100)

    public private(set) var pending: [Waiting] = []
    public private(set) var applied: Key?
    /// The highest `seq` seen on the group (nil before the first message).
    public private(set) var highest: Int64?

    public init() {}

    /// The number this box gives its next press.
    public var nextSeq: Int64 { min((highest ?? 0) + 1, Message.maxSeq) }

    /// When the next change is due, on the monotonic clock.
    public var next: Instant? { pending.map(\.due).min() }

    /// Take a change to adopt at its instant (or at once, if that passed).
    /// `retained`: the broker kept it from before (sent on subscribing).
    /// `lead`: this box's lead, how far ahead a live press is dated. `own`
    /// is this box's client id: its own presses are never the ones dropped
    /// to make room.
    public mutating func offer(_ m: Message, now: Now, retained: Bool = false, lead: Duration = .zero, own: String) -> Refusal? {
        if let highest, m.seq > highest + Self.maxSeqJump { return .tooFarAhead }
        highest = max(highest ?? m.seq, m.seq)
        let key = m.key
        if let applied, !(applied < key) { return .notNewer }
        guard !pending.contains(where: { $0.key == key }) else { return .alreadyWaiting }
        let at = WallTime(nanoseconds: m.at)
        let localAt = Self.localInstant(of: at, now: now.wall, retained: retained, lead: lead)
        let waiting = Waiting(message: m, key: key, due: now.monotonic(at: max(localAt, now.wall)), localAt: localAt,
                              wallOffset: now.wall.nanoseconds - now.monotonic.nanoseconds)
        let index = pending.firstIndex { key < $0.key } ?? pending.endIndex
        pending.insert(waiting, at: index)
        // Over a bound: drop the latest waiting change of whoever is over
        // it (the whole list for `maxPending`), sparing this box's own.
        let sender = pending.filter { $0.message.from == m.from }
        if sender.count > Self.maxPerSender, let last = pending.lastIndex(where: { $0.message.from == m.from }) {
            pending.remove(at: last)
        }
        if pending.count > Self.maxPending, let last = pending.lastIndex(where: { $0.message.from != own }) ?? pending.indices.last {
            pending.remove(at: last)
        }
        return nil
    }

    /// Where a change dated `at` by its sender falls on this box's clock.
    /// A live press is dated its lead ahead (a slow link makes it later);
    /// further off than `maxSkew` either way, the clocks disagree and it is
    /// dated from its arrival. A retained one may be long past (a count
    /// running since); one dated ahead of it is dated from now.
    static func localInstant(of at: WallTime, now: WallTime, retained: Bool, lead: Duration) -> WallTime {
        if retained { return at > now + maxSkew ? now : at }
        let expected = now + lead
        return (at - expected > maxSkew || expected - at > maxSkew) ? expected : at
    }

    /// The changes due at `now`, in order; each becomes the last applied.
    /// One waiting later in the order may be due before an earlier one
    /// (its sender's clock disagreed and it was dated from its arrival):
    /// it is adopted then, and the earlier one, now not newer, never is.
    public mutating func due(at now: Now) -> [Due] {
        var out: [Due] = []
        for w in pending where w.due <= now.monotonic {
            if let applied, !(applied < w.key) { continue }
            applied = w.key
            out.append(w.adopted(at: now))
        }
        pending.removeAll { w in w.due <= now.monotonic || applied.map { !($0 < w.key) } ?? false }
        return out
    }
}

import Foundation
#if canImport(TockCore)
import TockConfig  // `make fuzz-state` compiles the files it needs into one module instead
import TockCore
#endif

/// Which of a fleet group's changes a member adopts, and in what order:
/// the rules that make every member end in the same state, whatever order
/// the broker delivers in, and that keep a few well-formed messages from
/// freezing or splitting the group.
///
/// - Changes are totally ordered by (`at`, `from`, the state's own text):
///   two messages with the same instant and sender but different states
///   are still ordered, so every member applies the same last one.
/// - One not newer than the last applied is ignored, however late it comes.
/// - One dated more than `maxAhead` past this box's wall clock is refused:
///   a press is dated its instant plus the lead (at most 5 s), so anything
///   further off is not a press.
/// - At most `maxPerSender` changes of one sender, and `maxPending` in all,
///   wait for their instant; past that the latest waiting one is dropped,
///   never an earlier one (an earlier one is due first, and a real press is
///   dated only its lead ahead).
public struct GroupSchedule {
    /// One change as the group topic carries it.
    public struct Message: Codable, Equatable {
        public var from: String
        public var at: Int64
        public var press: String
        public var state: Snapshot

        static let presses: Set<String> = ["start", "stop", "reset", "set", "mode", "program"]

        public init(from: String, at: Int64, press: String, state: Snapshot) {
            self.from = from
            self.at = at
            self.press = press
            self.state = state
        }

        /// Every field checked where it is decoded: a sender that is a
        /// client id, an instant within `TimeBounds`, a known press, a
        /// snapshot that decodes (and so is within bounds too).
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            from = try c.decode(String.self, forKey: .from)
            guard TopicName.isValid(from) else {
                throw DecodingError.dataCorruptedError(forKey: .from, in: c, debugDescription: "not a client id")
            }
            at = try c.decode(Int64.self, forKey: .at)
            do { _ = try WallTime(checked: at) } catch {
                throw DecodingError.dataCorruptedError(forKey: .at, in: c, debugDescription: error.description)
            }
            press = try c.decode(String.self, forKey: .press)
            guard Self.presses.contains(press) else {
                throw DecodingError.dataCorruptedError(forKey: .press, in: c, debugDescription: "unknown press")
            }
            state = try c.decode(Snapshot.self, forKey: .state)
        }

        public var key: Key { Key(at: at, from: from, state: Self.canonical(state)) }

        private static func canonical(_ s: Snapshot) -> String {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            return (try? encoder.encode(s)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        }
    }

    /// The total order of changes.
    public struct Key: Comparable {
        public var at: Int64
        public var from: String
        /// The state as canonical JSON (sorted keys): the last tie-break.
        var state: String

        public static func < (a: Key, b: Key) -> Bool { (a.at, a.from, a.state) < (b.at, b.from, b.state) }
    }

    /// A payload longer than a change can be.
    public struct Oversized: Error {
        public init() {}
    }

    /// Why a change was not scheduled.
    public enum Refusal: Equatable {
        case notNewer, alreadyWaiting, tooFarAhead
    }

    static let maxPending = 16
    static let maxPerSender = 4
    /// How far past this box's clock a change may be dated: the longest
    /// lead a group may set (5 s) and as much again for clocks that differ.
    public static let maxAhead: Duration = .seconds(10)

    public private(set) var pending: [(message: Message, key: Key)] = []
    public private(set) var applied: Key?

    public init() {}

    /// The instant of the next change due.
    public var next: WallTime? { pending.first.map { WallTime(nanoseconds: $0.message.at) } }

    /// Take a change to adopt at its instant (or at once, if that passed).
    /// `own` is this box's client id: its own presses are never the ones
    /// dropped to make room.
    public mutating func offer(_ m: Message, now: WallTime, own: String) -> Refusal? {
        let key = m.key
        if let applied, !(applied < key) { return .notNewer }
        guard m.at <= now.nanoseconds + Self.maxAhead.nanoseconds else { return .tooFarAhead }
        guard !pending.contains(where: { $0.key == key }) else { return .alreadyWaiting }
        let index = pending.firstIndex { key < $0.key } ?? pending.endIndex
        pending.insert((m, key), at: index)
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

    /// The changes due at `now`, in order; each becomes the last applied.
    public mutating func due(at now: WallTime) -> [Message] {
        var out: [Message] = []
        while let first = pending.first, first.message.at <= now.nanoseconds {
            pending.removeFirst()
            if let applied, !(applied < first.key) { continue }
            applied = first.key
            out.append(first.message)
        }
        return out
    }
}

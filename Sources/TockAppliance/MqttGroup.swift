import Foundation
import Logging
import TockCore

/// A fleet group over MQTT: every member subscribes to one retained topic,
/// `tock/groups/<name>`, which holds the latest press as
/// `{"from","at","press","state"}`. A member that presses publishes there
/// and schedules the change for itself; every member adopts each change
/// at its instant `at` (wall clock, nanoseconds), counting on from it.
///
/// Rules that make every member end the same:
/// - changes are ordered by (`at`, `from`); one that is not newer than the
///   last applied is ignored, however late it comes;
/// - one whose instant has passed (a member that joins, or a message later
///   than the lead) is adopted at once, still counted from its `at`;
/// - a member whose link is down acts alone; on reconnecting it takes the
///   group's retained state if that is newer than what it last applied.
final class MqttGroup {
    /// What orders changes: the agreed instant, then the member.
    typealias Key = (at: Int64, from: String)

    struct Message: Codable, Equatable {
        var from: String
        var at: Int64
        var press: String
        var state: Snapshot

        var key: Key { (at, from) }

        func isNewer(than o: Key?) -> Bool {
            guard let o else { return true }
            return (at, from) > (o.at, o.from)
        }
    }

    /// At most this many changes wait for their instant.
    static let maxPending = 16

    private let topic: String
    private let config: MqttConfig
    private let client: MqttClient
    private let driver: ApplianceDriver
    private let log: Logger
    private let clock: () -> Now
    private var pending: [Message] = []
    private var applied: Key?
    private var lastRefusal = ""
    private var junkReport = RateLimitedReport()
    /// The last change this box sent, and the last one the broker relayed
    /// (what it now retains: the last to arrive, not the newest).
    private var mine: Message?
    private var retained: Key?
    /// `mine` has come back from the broker since it was last sent.
    private var mineRelayed = false

    init(topic: String, config: MqttConfig, client: MqttClient, driver: ApplianceDriver, log: Logger, clock: @escaping () -> Now) {
        self.topic = topic
        self.config = config
        self.client = client
        self.driver = driver
        self.log = log
        self.clock = clock
    }

    /// The wall-clock instant of the next change to adopt.
    var wallDeadline: WallTime? { pending.first.map { WallTime(nanoseconds: $0.at) } }

    var status: [String: Any] {
        var s: [String: Any] = ["name": config.group ?? "", "pending": pending.count]
        if let applied {
            s["at"] = applied.at
            s["from"] = applied.from
        }
        return s
    }

    func linked(_ up: Bool) {
        if up { client.subscribe(topic) }
        driver.groupLinked = up
    }

    /// A press here: tell the group, and schedule it here too (without
    /// waiting for the broker to echo it back).
    func send(_ change: GroupChange) {
        let m = Message(from: config.clientID, at: change.at.nanoseconds, press: change.press, state: change.state)
        guard let data = try? JSONEncoder().encode(m) else { return }
        client.publish(topic, [UInt8](data))
        mine = m
        mineRelayed = false
        log.info("group \(config.group ?? ""): \(change.press) on every member in \((m.at - clock().wall.nanoseconds) / 1_000_000) ms")
        schedule(m)
    }

    func received(_ payload: UnsafeRawBufferPointer) {
        guard payload.count > 0 else { return }  // the retained message was cleared
        guard payload.count <= 16_384, let m = try? JSONDecoder().decode(Message.self, from: Data(payload)) else {
            if let more = junkReport.due(at: clock().monotonic) {
                log.warning("group \(config.group ?? ""): ignored a message on \(topic) that is not a group change\(more); at most one such line a minute")
            }
            return
        }
        retained = m.key
        if let mine, m == mine { mineRelayed = true }
        schedule(m)
        repairRetained()
    }

    /// Two presses within the lead reach the broker in either order, and it
    /// keeps the last to arrive, which may be the loser: a member joining
    /// then would take it. The winner, seeing that, sends its change again.
    private func repairRetained() {
        guard let mine, mineRelayed, let applied, applied == mine.key, let retained, mine.isNewer(than: retained),
              let data = try? JSONEncoder().encode(mine) else { return }
        mineRelayed = false
        log.info("group \(config.group ?? ""): the broker kept an older change; sending \(mine.press) at \(mine.at) again")
        client.publish(topic, [UInt8](data))
    }

    private func schedule(_ m: Message) {
        guard m.isNewer(than: applied), !pending.contains(m) else { return }
        pending.append(m)
        pending.sort { ($0.at, $0.from) < ($1.at, $1.from) }
        if pending.count > Self.maxPending { pending.removeFirst(pending.count - Self.maxPending) }
        expire()
    }

    /// Adopt every change whose instant has come, in order.
    func expire() {
        let wall = clock().wall.nanoseconds
        while let m = pending.first, m.at <= wall {
            pending.removeFirst()
            guard m.isNewer(than: applied) else { continue }
            applied = m.key
            repairRetained()
            do {
                try driver.adoptGroup(m.state)
                lastRefusal = ""
            } catch {
                if error.description != lastRefusal { log.error("group \(config.group ?? ""): cannot follow \(m.from)'s \(m.press): \(error)") }
                lastRefusal = error.description
            }
        }
    }
}

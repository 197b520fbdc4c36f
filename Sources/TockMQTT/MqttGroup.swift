import Foundation
import Logging
import TockConfig
import TockCore
import TockLoop
import TockShell

/// A fleet group over MQTT: every member subscribes to one retained topic,
/// `tock/groups/<name>`, which holds the latest press as
/// `{"from","at","press","state"}`. A member that presses publishes there
/// and schedules the change for itself; every member adopts each change
/// at its instant `at` (wall clock, nanoseconds), counting on from it.
/// Which changes are adopted, and in what order, is `GroupSchedule`'s;
/// one whose instant has passed (a member that joins, or a message later
/// than the lead) is adopted at once, still counted from its `at`; a
/// member whose link is down acts alone, and on reconnecting takes the
/// group's retained state if that is newer than what it last applied.
final class MqttGroup {
    typealias Message = GroupSchedule.Message

    private let topic: String
    private let config: MqttConfig
    private let client: any MqttTransport
    private let shell: Shell
    private let log: Logger
    private let loop: any EventLoop
    /// The wall-clock instant of the next change to adopt.
    private var adopt: LoopTimer!
    private var schedule = GroupSchedule()
    private var lastRefusal = ""
    private var junkReport = RateLimitedReport()
    private var refusedReport = RateLimitedReport()
    /// The last change this box sent, and the last one the broker relayed
    /// (what it now retains: the last to arrive, not the newest).
    private var mine: Message?
    private var retained: GroupSchedule.Key?
    /// `mine` has come back from the broker since it was last sent.
    private var mineRelayed = false

    init(topic: String, config: MqttConfig, client: any MqttTransport, loop: any EventLoop, shell: Shell, log: Logger) {
        self.topic = topic
        self.config = config
        self.client = client
        self.shell = shell
        self.log = log
        self.loop = loop
        adopt = loop.makeTimer { [weak self] in self?.expire() }
    }

    private func clock() -> Now { loop.now() }

    func close() { adopt.cancel() }

    var status: [String: Any] {
        var s: [String: Any] = ["name": config.group ?? "", "pending": schedule.pending.count]
        if let applied = schedule.applied {
            s["at"] = applied.at
            s["from"] = applied.from
        }
        return s
    }

    func linked(_ up: Bool) {
        if up { client.subscribe(topic) }
        shell.groupLinked = up
    }

    /// A press here: tell the group, and schedule it here too (without
    /// waiting for the broker to echo it back).
    func send(_ change: GroupChange) {
        let m = Message(from: config.clientID, at: change.at.nanoseconds, press: change.press.rawValue, state: change.state)
        guard let data = try? JSONEncoder().encode(m) else { return }
        client.publish(topic, [UInt8](data))
        mine = m
        mineRelayed = false
        log.info("group \(config.group ?? ""): \(change.press) on every member in \((m.at - clock().wall.nanoseconds) / 1_000_000) ms")
        offer(m)
    }

    /// A message on the group topic, decoded and range-checked whole
    /// before anything of it is used; one that is not a change is never
    /// adopted, however often it is delivered.
    func received(_ payload: UnsafeRawBufferPointer) {
        guard payload.count > 0 else { return }  // the retained message was cleared
        let m: Message
        do {
            guard payload.count <= 16_384 else { throw GroupSchedule.Oversized() }
            m = try JSONDecoder().decode(Message.self, from: Data(payload))
        } catch {
            if let more = junkReport.due(at: clock().monotonic) {
                log.warning("group \(config.group ?? ""): ignored a message on \(topic) that is not a group change (\(Self.reason(error)))\(more); at most one such line a minute")
            }
            return
        }
        retained = m.key
        if let mine, m == mine { mineRelayed = true }
        offer(m)
        repairRetained()
    }

    /// Why a message did not decode, in a few words (never its content).
    private static func reason(_ error: any Error) -> String {
        switch error {
        case is GroupSchedule.Oversized: "longer than 16384 bytes"
        case DecodingError.dataCorrupted(let c): "\(c.codingPath.map(\.stringValue).joined(separator: ".")): \(c.debugDescription.prefix(120))"
        case DecodingError.keyNotFound(let k, _): "no \(k.stringValue)"
        case DecodingError.typeMismatch(_, let c), DecodingError.valueNotFound(_, let c): "\(c.codingPath.map(\.stringValue).joined(separator: ".")): wrong type"
        default: "not JSON"
        }
    }

    /// Two presses within the lead reach the broker in either order, and it
    /// keeps the last to arrive, which may be the loser: a member joining
    /// then would take it. The winner, seeing that, sends its change again.
    private func repairRetained() {
        guard let mine, mineRelayed, let applied = schedule.applied, applied == mine.key, let retained, retained < mine.key,
              let data = try? JSONEncoder().encode(mine) else { return }
        mineRelayed = false
        log.info("group \(config.group ?? ""): the broker kept an older change; sending \(mine.press) at \(mine.at) again")
        client.publish(topic, [UInt8](data))
    }

    private func offer(_ m: Message) {
        if let refusal = schedule.offer(m, now: clock().wall, own: config.clientID), refusal == .tooFarAhead,
           let more = refusedReport.due(at: clock().monotonic) {
            log.warning("group \(config.group ?? ""): ignored \(m.from)'s \(m.press) dated more than \(DurationText.format(GroupSchedule.maxAhead)) ahead of this box's clock\(more); at most one such line a minute")
        }
        expire()
    }

    /// Adopt every change whose instant has come, in order.
    private func expire() {
        defer { adopt.schedule(atWall: schedule.next) }
        for m in schedule.due(at: clock().wall) {
            repairRetained()
            do {
                try shell.adoptGroup(m.state)
                lastRefusal = ""
            } catch {
                if error.description != lastRefusal { log.error("group \(config.group ?? ""): cannot follow \(m.from)'s \(m.press): \(error)") }
                lastRefusal = error.description
            }
        }
    }
}

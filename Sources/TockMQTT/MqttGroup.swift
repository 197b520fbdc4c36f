import Logging
import TockConfig
import TockCore
import TockJSON
import TockLoop
import TockShell

/// A fleet group over MQTT: every member subscribes to one retained topic,
/// `tock/groups/<name>`, which holds the latest press as
/// `{"from","seq","at","press","state"}`. A member that presses publishes
/// there and schedules the change for itself; every member adopts each
/// change at its instant `at` (wall clock, nanoseconds), counting on from
/// it. Which changes are adopted, in what order and when, is
/// `GroupSchedule`'s: presses are ordered by a counter, not by the clocks,
/// so a member whose clock was wrong (before NTP) neither loses its own
/// presses nor freezes the others'. One whose instant has passed (a member
/// that joins) is adopted at once, still counted from its `at`; a member
/// whose link is down acts alone, and on reconnecting takes the group's
/// retained state if that is newer than what it last applied. Every change
/// refused is logged (at most one line a minute of each kind).
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
    /// Every line a group message or a press can cause, each kind at most
    /// once a minute (`Lines`).
    private let lines: Lines
    /// The last change this box sent, when (monotonic), and the last one
    /// the broker relayed (what it now retains: the last to arrive, not
    /// the newest).
    private var mine: Message?
    private var mineSent: Instant?
    private var retained: GroupSchedule.Key?
    /// The format this box's presses go out in: that of the last message
    /// taken from the group (a member still on format 1 keeps following),
    /// the newest in a group that has not spoken.
    private var speaks = GroupSchedule.Message.newest
    /// `mine` has come back from the broker since it was last sent.
    private var mineRelayed = false

    init(topic: String, config: MqttConfig, client: any MqttTransport, loop: any EventLoop, shell: Shell, log: Logger) {
        self.topic = topic
        self.config = config
        self.client = client
        self.shell = shell
        self.log = log
        self.loop = loop
        lines = Lines(log: log, loop: loop)
        adopt = loop.makeTimer { [weak self] in self?.expire() }
    }

    private func clock() -> Now { loop.now() }

    func close() {
        adopt.cancel()
        lines.close()
    }

    var status: JSONObject {
        var s: JSONObject = ["name": .string(config.group ?? ""), "pending": schedule.pending.count.json]
        if let applied = schedule.applied {
            s["at"] = .int(applied.at)
            s["from"] = .string(applied.from)
            s["seq"] = .int(applied.seq)
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
        let m = Message(from: config.clientID, seq: schedule.nextSeq, at: change.at.nanoseconds, press: change.press.rawValue, state: change.state,
                        format: Message.format(for: change.state, speaking: speaks))
        client.publish(topic, m.bytes)
        mine = m
        mineSent = clock().monotonic
        mineRelayed = false
        lines.sent(.info, "group \(config.group ?? ""): \(change.press) (press \(m.seq)) on every member in \((m.at - clock().wall.nanoseconds) / 1_000_000) ms")
        offer(m, retained: false)
    }

    /// A message on the group topic, decoded and range-checked whole
    /// before anything of it is used; one that is not a change is never
    /// adopted, however often it is delivered.
    func received(_ payload: UnsafeRawBufferPointer, retained isRetained: Bool = false) {
        guard payload.count > 0 else { return }  // the retained message was cleared
        let m: Message
        do {
            guard payload.count <= 16_384 else { throw GroupSchedule.Oversized() }
            m = try JSON.decode(Message.self, from: Array(payload))
        } catch {
            lines.junk(.warning, "group \(config.group ?? ""): ignored a message on \(topic) that is not a group change (\(Self.reason(error)))")
            return
        }
        retained = m.key
        speaks = m.format
        if let mine, m == mine { mineRelayed = true }
        offer(m, retained: isRetained)
        repairRetained()
    }

    /// Why a message did not decode, in a few words (never its content).
    private static func reason(_ error: any Error) -> String {
        switch error {
        case is GroupSchedule.Oversized: "longer than 16384 bytes"
        case let e as GroupSchedule.Message.NewerFormat:
            "a group message of format \(e.format), newer than the \(GroupSchedule.Message.newest) this tock reads: update this box"
        case DecodingError.dataCorrupted(let c): "\(c.codingPath.map(\.stringValue).joined(separator: ".")): \(c.debugDescription.prefix(120))"
        case DecodingError.keyNotFound(let k, _): "no \(k.stringValue)"
        case DecodingError.typeMismatch(_, let c), DecodingError.valueNotFound(_, let c): "\(c.codingPath.map(\.stringValue).joined(separator: ".")): wrong type"
        default: "not JSON"
        }
    }

    /// Two presses within the lead reach the broker in either order, and it
    /// keeps the last to arrive, which may be the loser: a member joining
    /// then would take it. The winner, seeing that, sends its change again,
    /// unchanged and only while it is that recent: an older press is never
    /// sent again.
    private func repairRetained() {
        guard let mine, mineRelayed, let sent = mineSent, clock().monotonic - sent <= GroupSchedule.maxSkew,
              let applied = schedule.applied, applied == mine.key, let retained, retained < mine.key else { return }
        mineRelayed = false
        lines.repaired(.info, "group \(config.group ?? ""): the broker kept an older change; sending \(mine.press) at \(mine.at) again")
        client.publish(topic, mine.bytes)
    }

    private func offer(_ m: Message, retained: Bool) {
        let now = clock()
        let lead = shell.core.settings.group?.lead ?? .zero
        let name = config.group ?? ""
        switch schedule.offer(m, now: now, retained: retained, lead: lead, own: config.clientID) {
        case .tooFarAhead?:
            lines.tooFar(.warning, "group \(name): ignored \(m.from)'s \(m.press) numbered \(m.seq), more than \(GroupSchedule.maxSeqJump) past the group's last press (\(schedule.highest ?? 0))")
        case .notNewer?:
            // The broker echoing a change, or delivering it again, is not a
            // refusal; an older press arriving after a newer one is.
            if let applied = schedule.applied, applied != m.key {
                lines.older(.notice, "group \(name): ignored \(m.from)'s \(m.press) (press \(m.seq)): the group has applied a later press, \(applied.from)'s press \(applied.seq)")
            }
        case .alreadyWaiting?: break
        case nil:
            if let w = schedule.pending.first(where: { $0.key == m.key }), w.localAt.nanoseconds != m.at {
                let off = DurationText.format(.seconds((abs(m.at - w.localAt.nanoseconds) + 500_000_000) / 1_000_000_000))
                lines.skew(.warning, "group \(name): \(m.from)'s \(m.press) is dated \(off) \(m.at > w.localAt.nanoseconds ? "ahead of" : "behind") this box's clock: one of the two clocks is wrong (is NTP reachable?); it counts from its arrival here")
            }
        }
        expire()
    }

    /// Adopt every change whose instant has come, in order.
    private func expire() {
        defer { adopt.schedule(at: schedule.next) }
        for due in schedule.due(at: clock()) {
            repairRetained()
            let m = due.message
            do {
                try shell.adoptGroup(try due.state.get())
            } catch {
                lines.cannotFollow(.error, "group \(config.group ?? ""): cannot follow \(m.from)'s \(m.press): \(error)")
            }
        }
    }
}

import Logging
import SystemPackage
import TockConfig
import TockCore
import TockLinux
import TockLoop

/// The state file under the service's StateDirectory: written on every
/// state transition (never on a tick, and not at all while nothing
/// changes: SD cards wear), read once at start. It is a `SlotFile`: each
/// change is one block written in place and synced, alternating between
/// two slots, so a power cut mid-write leaves the state before it.
public final class StateStore {
    /// The largest state file read, and written: one limit for both, so the
    /// writer never leaves a file the reader refuses. The largest state the
    /// lists' limits allow (20 presets, 10 alarms with 128-byte labels, all
    /// ringing, as many set aside, and 8 extra timers) is under 12 KiB (`StateStoreTests`).
    static let maxFileSize = 16 * 1024

    /// Writes are paced by a bucket of `burst` credits, one coming back
    /// every `refill`. A write is a block written in place and synced
    /// (on an SD card a few milliseconds and a flash page): the
    /// changes a person makes, even quickly, are written at once, so a
    /// crash or a power cut right after them loses nothing; a flood of
    /// commands is written once a second, with whatever the state is then,
    /// so it wears the card no faster than that.
    static let burst = 10
    static let refill: Duration = .seconds(1)

    public let path: String
    private let log: Logger
    private var written: [UInt8]?
    private var file: SlotWriter
    private var credit = burst
    /// When the last credit came back (or the bucket was last full).
    private var creditAt: Instant?
    /// A state waiting for a credit.
    private var waiting: Snapshot?
    /// Why the last state was not written (said once for each reason).
    private var refusedWhy: String?
    /// Writes made (for the status and the tests).
    public private(set) var writes = 0
    /// On a loop: writes the waiting state when its credit comes back.
    private var flushTimer: LoopTimer?
    /// A card that refuses writes refuses every save, and a flood of
    /// commands makes one a second: the line is written at most once a minute.
    private var writeFailedLog: LimitedLog?

    public init(path: String, log: Logger, loop: (any EventLoop)? = nil) {
        self.path = path
        self.log = log
        file = SlotWriter(path: path)
        writeFailedLog = loop.map { LimitedLog(log: log, loop: $0) }
        flushTimer = loop.map { loop in
            loop.makeTimer { [weak self] in self?.flush(at: loop.now().monotonic) }
        }
    }

    /// The remembered state; a missing file is a first start, and a
    /// truncated, corrupt or foreign one is logged and ignored (the next
    /// save replaces it), never a crash loop.
    public func load(at now: Now) -> Snapshot? {
        guard let snapshot = load() else { return nil }
        if snapshot.isFromTheFuture(at: now.wall) {
            log.warning("state file \(path) was saved at a later time than the wall clock now reads (\(CalendarText.format(now.wall))): the clock is behind (no real-time clock, or NTP has not answered yet); a running count continues from where it was saved, as if no time passed while off")
        }
        return snapshot
    }

    func load() -> Snapshot? {
        let read: (bytes: [UInt8], identity: SlotFile.Identity)?
        do {
            read = try SlotFile.read(path)
        } catch {
            if case .kind = error.reason {
                // Not waited on, not followed: the next save puts a regular file in its place.
                log.error("state file \(error); ignored, starting from ready (the next save replaces it)")
            } else {
                log.error("state file \(path): cannot read it (\(error)); starting from ready")
            }
            return nil
        }
        guard let read else {
            log.info("no state file at \(path): first start")
            return nil
        }
        let bytes: [UInt8]
        switch SlotFile.parse(read.bytes) {
        case .slot(let payload, let sequence):
            bytes = payload
            file.read(sequence: sequence, identity: read.identity)
        case .plain(let payload):
            // Written whole by an earlier version (or by hand): read, and
            // replaced by a slot file at the next save.
            guard payload.count <= Self.maxFileSize else {
                log.error("state file \(path): cannot read it (\(payload.count) bytes, more than the \(Self.maxFileSize) a state file may be); starting from ready")
                return nil
            }
            bytes = payload
        case .damaged(let why):
            log.error("state file \(path) is damaged (\(why)); starting from ready")
            return nil
        }
        do {
            let (snapshot, version) = try StateFile.decode(bytes)
            if version < StateFile.version {
                log.info("state file \(path) has format version \(version); read, and written as version \(StateFile.version) at the next save")
            } else {
                written = bytes
            }
            return snapshot
        } catch let e as StateFile.UnknownVersion {
            let which = e.version > StateFile.version ? "newer than" : "not one"
            log.warning("state file \(path) has format version \(e.version), \(which) this tock reads (\(StateFile.readable)); starting from ready")
            return nil
        } catch {
            log.error("state file \(path) is damaged (\(bytes.count) bytes, \(error)); starting from ready")
            return nil
        }
    }

    /// Write the state if it changed: at once while there is credit, else
    /// when the next credit comes back (`deadline`, then `flush`).
    public func save(_ snapshot: Snapshot, at now: Instant) {
        if let t = creditAt {
            let back = Int((now - t) / Self.refill)
            if back > 0 {
                credit = min(Self.burst, credit + back)
                creditAt = t + Self.refill * back
            }
        }
        if credit == Self.burst { creditAt = now }
        guard credit > 0 else {
            waiting = snapshot
            flushTimer?.schedule(at: deadline)
            return
        }
        let before = writes
        save(snapshot)
        if writes > before { credit -= 1 }
    }

    /// When a waiting state is due to be written.
    var deadline: Instant? { waiting != nil ? creditAt.map { $0 + Self.refill } : nil }

    /// Write a waiting state whose time has come.
    func flush(at now: Instant) {
        guard let w = waiting, let due = deadline, due <= now else { return }
        save(w, at: now)
    }

    /// Write the state if it differs from what is on disk, at once (at a
    /// stop). Errors are logged: a full or read-only card must not stop
    /// the timer.
    public func save(_ snapshot: Snapshot) {
        waiting = nil
        flushTimer?.cancel()
        // The reader's own check, before writing: nothing is written that
        // the next start would refuse (and so lose everything with it).
        do { try snapshot.check() } catch {
            // Once for each reason: the state changes at most a few times a second.
            if refusedWhy != error.description {
                refusedWhy = error.description
                log.error("state file \(path): the state holds a value the next start would refuse (\(error)); not written, the file on disk is kept")
            }
            return
        }
        let bytes = StateFile.encode(snapshot) + [0x0A]
        guard bytes != written else { return }
        guard bytes.count <= Self.maxFileSize else {
            writeFailed("state file \(path): the state is \(bytes.count) bytes, more than the \(Self.maxFileSize) a state file may be; not written")
            return
        }
        do {
            try file.write(bytes)
            written = bytes
            writes += 1
        } catch {
            writeFailed("state file \(path): cannot write it (\(error)); the state will not survive a restart")
        }
    }

    private func writeFailed(_ line: LogLine) {
        if let writeFailedLog { writeFailedLog(.error, line) } else { log.error("\(line.description)") }
    }
}

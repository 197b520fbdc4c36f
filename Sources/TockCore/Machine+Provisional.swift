/// A count restored from the state file while the wall clock is unverified.
///
/// The state file anchors a running count, a ring and each extra timer to
/// the wall clock (the monotonic clock restarts at boot). A Pi without a
/// battery-backed clock boots after a power cut with the time it saved
/// last (fake-hwclock, up to an hour old) or a build date: the restore
/// reads the file against a clock known to be possibly wrong, so a count
/// restored then is behind (or ahead) by the clock's error. Later steps
/// leave counts alone (they run on the monotonic clock), so without more
/// the error would last: a pasta 3¾ minutes late.
///
/// So a restore under an unverified clock is provisional: the snapshot it
/// was made from and both clocks at that moment are kept, and at the first
/// moment the clock is trusted (the kernel reports it synchronised: NTP's
/// first setting, usually with its step) the wall clock's whole movement
/// against the monotonic one since the restore is its error at the
/// restore. The count and the extra timers are then restored again from
/// the same snapshot, read as the corrected clock would have read it, and
/// every count ends when it would have ended had the box stayed on.
///
/// Only a snapshot written while the clock was synchronised is corrected
/// (the state file says `"clock": "unverified"` otherwise): a count started
/// on a clock that NTP never set is off by an error no step can tell, and
/// goes on as restored. Only what nobody has touched since is corrected: a count paused,
/// reset, edited or ended since the restore, or a timer added, paused or
/// cancelled, is the owner's now, and stays as it is. Daily alarms follow
/// their own rules for steps (docs/clock.md); a countdown to a date
/// follows the clock by itself.
struct ProvisionalRestore: Sendable {
    /// The snapshot restored from, as the machine read it.
    var snapshot: Snapshot
    /// Both clocks at the restore.
    var at: Now
    /// The count as restored (seen from `at`), or nil when the snapshot's
    /// count was not restored (another mode); and the extra timers.
    var program: Snapshot.Count?
    var timers: [TimerRecord]

    /// A wall clock that moved less than this against the monotonic one
    /// since the restore was right: nothing to correct (the step rule of
    /// `ClockTrust`).
    static let tolerance: Duration = .seconds(1)
}

extension Machine {
    /// After a restore at `now`: keep what a trusted clock will correct.
    mutating func keepProvisional(_ snapshot: Snapshot?, restoredProgram: Bool, at now: Now) {
        // Only instants a trusted clock wrote have a known error: one
        // written by an unverified clock (a count started before NTP ever
        // answered) was off by an error the step cannot tell.
        guard !now.wallSynchronised, let snapshot, !snapshot.wallUnverified else { return }
        let anchored = snapshot.count.program.isAnchoredToTheWall || (snapshot.timers ?? []).contains { $0.isAnchoredToTheWall }
        guard anchored else { return }
        counts.provisional = ProvisionalRestore(snapshot: snapshot, at: now, program: restoredProgram ? program.saved(at: now) : nil,
                                         timers: timers.records(at: now))
    }

    /// The first look at a trusted clock after a provisional restore:
    /// restore again what nobody touched, with the clock's error taken out.
    mutating func settleProvisional(at now: Now) {
        guard let p = counts.provisional, now.wallSynchronised else { return }
        counts.provisional = nil
        let error = (now.wall - p.at.wall) - (now.monotonic - p.at.monotonic)
        guard error > ProvisionalRestore.tolerance || error < .zero - ProvisionalRestore.tolerance else { return }
        // The snapshot's instants as the clock at the restore read them.
        // (An instant that would leave `TimeBounds` is left uncorrected.)
        if let restored = p.program, program.saved(at: p.at) == restored, let moved = try? p.snapshot.count.moved(by: .zero - error) {
            program.restore(moved, at: p.at)
            reported.persistAgain()
        }
        if let saved = p.snapshot.timers, timers.records(at: p.at) == p.timers,
           let moved = try? saved.map({ r throws(TimeBounds.Violation) in try r.moved(by: .zero - error) }) {
            timers = ExtraTimers(restoring: moved, ringFor: settings.alarm.ringFor, at: p.at)
            reported.persistTimersAgain()
        }
    }
}

extension TimerRecord {
    var isAnchoredToTheWall: Bool {
        switch state {
        case .running, .ringing: true
        case .paused, .done: false
        }
    }

    /// The same timer with its wall instants moved by `d`, within bounds.
    func moved(by d: Duration) throws(TimeBounds.Violation) -> TimerRecord {
        func move(_ t: Int64) throws(TimeBounds.Violation) -> Int64 { try WallTime.moved(t, by: d) }
        var r = self
        switch state {
        case .running(let e): r.state = .running(ends: try move(e))
        case .ringing(let e, let s): r.state = .ringing(ended: try move(e), since: try s.map { t throws(TimeBounds.Violation) in try move(t) })
        case .paused, .done: break
        }
        return r
    }
}

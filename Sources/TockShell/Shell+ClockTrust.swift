import TockConfig
import TockCore

/// The wall clock's health in the log: whether the kernel reports it
/// synchronised, each step and what it moved (`ClockTrust`). Looked at on
/// every event the shell hands the core, and when a status is asked for.
extension Shell {
    /// Look at the clock now, outside an event (a status request): a box
    /// with nothing to wake for still reports the verdict of the moment.
    public func lookAtClock() {
        let now = clock()
        let seen = look(at: now)
        guard !seen.isEmpty else { return }
        // What the core shows and says follows the verdict: a turn of its own.
        report(seen, at: now)
        handle(.wake, clockChanged: true)
    }

    /// How often a clock that is not synchronised is looked at when
    /// nothing else wakes the box (the idle clock looks as often).
    public static let unsynchronisedLook: Duration = .seconds(60)

    /// Look at the clock; while it is not synchronised, look again within
    /// `unsynchronisedLook` even if nothing else happens, so the status
    /// topics and the idle clock follow the kernel's verdict. A
    /// synchronised clock costs no wake-up.
    func look(at now: Now) -> [ClockTrust.Change] {
        let seen = clockTrust.look(at: now)
        if clockTrust.synchronised {
            if clockWatch.deadline != nil { clockWatch.cancel() }
        } else if clockWatch.deadline == nil {
            clockWatch.schedule(at: now.monotonic + Self.unsynchronisedLook)
        }
        return seen
    }

    /// Log what changed, after the core has applied it (so what moved is
    /// what the core now holds).
    func report(_ changes: [ClockTrust.Change], at now: Now) {
        for change in changes {
            switch change {
            case .unsynchronised(let atStart):
                let shows = core.settings.clock.requireSync ? "the idle clock shows --:--, and " : ""
                log.warning(atStart
                    ? "the wall clock is not synchronised (adjtimex(2): no NTP client has set it yet; it reads \(CalendarText.format(now.wall))): \(shows)daily alarms and the countdown to a date are unverified until it is"
                    : "the wall clock is no longer synchronised (adjtimex(2) reports STA_UNSYNC: the NTP client stopped correcting it): \(shows)daily alarms and the countdown to a date are unverified again")
            case .synchronised:
                log.notice("the wall clock is synchronised (adjtimex(2)), \(CalendarText.format(now.wall)): daily alarms and the countdown to a date are verified from now")
            case .stepped(let by):
                log.notice("the wall clock was stepped \(Self.stepText(by)) (it reads \(CalendarText.format(now.wall)))\(moved(at: now))")
            }
        }
    }

    /// Both clocks now, as the core is given them.
    public func now() -> Now { clock() }

    /// `forward by 2h1m5s`, `back by 300ms`.
    public static func stepText(_ d: Duration) -> String {
        d < .zero ? "back by \(DurationText.format(.zero - d))" : "forward by \(DurationText.format(d))"
    }

    /// What a step moved: the next alarm and the countdown's end, as far
    /// off as they are now.
    private func moved(at now: Now) -> String {
        var parts: [String] = []
        let zone = core.alarms.zone
        if let next = core.alarms.wallDeadline {
            parts.append("the next alarm, \(AlarmText.local(next, zone)), is \(DurationText.format(.seconds(max(0, (next - now.wall).nanoseconds / 1_000_000_000)))) away")
        }
        if case .calendar(let c) = core.program, c.stateName == .running {
            parts.append("the countdown to \(AlarmText.local(c.target, zone)) has \(DurationText.format(.seconds(max(0, (c.target - now.wall).nanoseconds / 1_000_000_000)))) left")
        }
        return parts.isEmpty ? "" : "; " + parts.joined(separator: "; ")
    }
}

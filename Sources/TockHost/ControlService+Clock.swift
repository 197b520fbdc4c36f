import TockConfig
import TockControl
import TockCore
import TockShell

extension ControlService {
    /// The wall clock's health in the status, looked at now (a box with
    /// nothing to wake for has not looked since its last event), and
    /// whether the alarms' and the countdown's times are unverified.
    func clockHealth(into s: inout BoxStatus) {
        shell.lookAtClock()
        let trust = shell.clockTrust
        let now = shell.now()
        var c = BoxStatus.Clock(synchronised: trust.synchronised)
        c.since = trust.since(at: now).map(CalendarText.format)
        c.sinceStart = trust.sinceStart && trust.synchronised
        c.steps = trust.steps
        if let step = trust.lastStep {
            c.lastStep = Shell.stepText(step.by)
            c.lastStepAt = CalendarText.format(now.wall - (now.monotonic - step.at))
        }
        s.clock = c
        let core = shell.core
        let onTheWallClock = core.alarms.entries.contains { $0.alarm.enabled } || core.alarms.state != .quiet || core.settings.mode == .countdown
        s.timeUnverified = !trust.synchronised && onTheWallClock
    }
}

import TockConfig
import TockControl
import TockCore
import TockShell

/// What a control request does and what it answers, whichever way it came
/// (the control socket, MQTT): one set of rules, one reply shape.
public final class ControlService: ControlResponder {
    let shell: Shell
    private let now: () -> Instant
    /// Further status fields (the MQTT link, the fleet group, the state writes).
    public var statusExtras: [(inout BoxStatus) -> Void] = []

    /// What the daily update check found (docs/updates.md), read again
    /// by `readUpdateCheck` on `update-checked`; told to `onUpdateCheck`.
    public private(set) var updateCheck: UpdateCheck?
    public var readUpdateCheck: (() -> UpdateCheck?)?
    public var onUpdateCheck: [(UpdateCheck?) -> Void] = []

    /// Read the check's file again (at the start, and on `update-checked`).
    public func reloadUpdateCheck() {
        guard let read = readUpdateCheck else { return }
        let check = read()
        guard check != updateCheck else { return }
        updateCheck = check
        for f in onUpdateCheck { f(check) }
    }

    public func addStatusFields(_ fields: @escaping (inout BoxStatus) -> Void) { statusExtras.append(fields) }

    public init(shell: Shell, now: @escaping () -> Instant) {
        self.shell = shell
        self.now = now
    }

    /// Carry out `request` and say how it went. `watch` only answers the
    /// status here; following changes is the transport's business.
    public func reply(to request: ControlRequest) -> ControlReply {
        func refused(_ e: Machine.Refusal) -> ControlReply { .refused(e.description) }
        switch request {
        case .status, .watch:
            break
        case .notice(let text, let seconds):
            do { try shell.showNotice(text, for: .seconds(seconds)) } catch { return .refused(error.description) }
        case .prompt(let prompt, let within, let text, let seconds):
            do { try shell.showPrompt(prompt, within: .seconds(within), then: text, for: .seconds(seconds)) } catch { return .refused(error.description) }
        case .noticeEnd:
            shell.endNotice()
        case .updateChecked:
            reloadUpdateCheck()
        case .start, .stop, .reset:
            let b: Button = request == .start ? .start : request == .stop ? .stop : .reset
            let changes = shell.pressChanges(b)
            shell.action(.pressed(b))  // a press that changes nothing chirps, as on the panel
            if !changes { return .refused(shell.core.idlePress(b), status: status()) }
        case .silence:
            // Start is what silences on the box, whatever rings; anything
            // else it would do (start, resume) is not a silence's to do.
            guard shell.rings else {
                return .refused("nothing rings; silence acts only on a ring (the count, an extra timer, a daily alarm)", status: status())
            }
            shell.action(.pressed(.start))
        case .set(let d):
            do { try shell.setPreset(d) } catch { return refused(error) }
        case .mode(let m):
            do { try shell.setMode(m) } catch { return refused(error) }
        case .program(let name):
            do { try shell.selectProgram(name) } catch { return refused(error) }
        case .flip(let p):
            shell.setSwitch(p)
        case .brightness(let level):
            guard let level else { break }
            var d = shell.core.dimming
            d.brightness = level
            do { try shell.setDimming(d) } catch { return refused(error) }
        case .night(let night):
            guard let night else { break }
            var d = shell.core.dimming
            switch night {
            case .off: d.night = nil
            case .on(let from, let to, let b): d.night = NightSchedule(from: from, to: to, brightness: b)
            case .change(let from, let to, let b):
                guard var n = d.night else {
                    return .refused(#"there is no night schedule to change; set one with "from", "to" and "brightness" together"#)
                }
                n.from = from ?? n.from
                n.to = to ?? n.to
                n.brightness = b ?? n.brightness
                d.night = n
            }
            do { try shell.setDimming(d) } catch { return refused(error) }
        case .alarm(let op):
            do {
                switch op {
                case .list: break
                case .add(let a): try shell.editAlarms(.add(a))
                case .remove(let n): try shell.editAlarms(.remove(n))
                case .on(let n): try shell.editAlarms(.enable(n, true))
                case .off(let n): try shell.editAlarms(.enable(n, false))
                case .skipNext(let n): try shell.editAlarms(.skipNext(n))
                }
            } catch { return refused(error) }
        case .timer(let op):
            do {
                switch op {
                case .list: break
                case .add(let name, let d): try shell.timer(.add(name: name, duration: d))
                case .pause(let name): try shell.timer(.pause(name))
                case .resume(let name): try shell.timer(.resume(name))
                case .cancel(let name): try shell.timer(.cancel(name))
                }
            } catch { return refused(error) }
        case .add(let d, let name):
            do { try shell.addTime(d, to: Machine.countRef(named: name)) } catch { return refused(error) }
        }
        return ControlReply(status: status())
    }

    public var switchPosition: SwitchPosition { shell.core.input.switchPosition }

    public func status() -> BoxStatus {
        let core = shell.core
        var s = BoxStatus(state: shell.state, display: shell.displayed?.text ?? "", buzzer: shell.tone != nil, mode: core.settings.mode)
        // A changed configuration file waits for the count in progress.
        s.configWaitsForReset = core.pendingSettings != nil
        if let f = shell.displayed {
            s.show(f)
            s.brightnessNow = f.brightness
        }
        s.notice = shell.showingNotice
        s.noticeConfirmed = shell.noticeConfirmed
        s.update = updateCheck
        s.switchPosition = switchPosition
        let dim = core.dimming
        s.brightness = dim.brightness
        s.night = dim.night.map { BoxStatus.Night(from: ControlRequest.clock($0.from), to: ControlRequest.clock($0.to), brightness: $0.brightness) }
        let zone = core.alarms.zone
        s.alarms = core.alarms.entries.enumerated().map { i, e in
            BoxStatus.Alarm(n: i + 1, at: e.alarm.timeText, days: e.alarm.daysText, enabled: e.alarm.enabled, label: e.alarm.label,
                            line: AlarmText.line(e, number: i + 1, zone: zone), next: e.next.map { AlarmText.local($0, zone) })
        }
        s.timers = shell.timers().map { v in
            BoxStatus.Timer(name: v.timer.name, label: v.timer.label, state: v.timer.stateName, duration: DurationText.format(v.timer.duration),
                            remainingMs: v.left.nanoseconds / 1_000_000, ends: v.ends.map(CalendarText.format), shown: v.shown)
        }
        switch core.alarms.state {
        case .quiet: break
        case .ringing(let r, _): s.alarm = "ringing \(AlarmText.clock(r.minute))"
        case .snoozed(let r, let until):
            s.alarm = "snoozed \(AlarmText.clock(r.minute)), rings again in \(DurationText.format(.seconds((until - now()).nanoseconds / 1_000_000_000)))"
        }
        if let presets = core.presets {
            s.preset = DurationText.format(presets.current)
            s.presets = presets.all.map(DurationText.format)
            s.direction = presets.direction
        }
        let progress = shell.progress()
        func ms(_ d: Duration?) -> Int64? { d.map { $0.nanoseconds / 1_000_000 } }
        s.elapsedMs = ms(progress.elapsed)
        s.remainingMs = ms(progress.remaining)
        s.leadInMs = ms(progress.leadIn)
        s.overrunMs = ms(progress.overrun)
        s.round = progress.round?.round
        s.set = progress.round?.set
        if let name = progress.program {
            s.program = name
            s.programs = core.settings.interval.programs.map(\.name)
        }
        s.finishMs = ms(progress.finish)
        clockHealth(into: &s)
        for extra in statusExtras { extra(&s) }
        return s
    }
}

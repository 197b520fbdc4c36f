import TockConfig
import TockControl
import TockCore
import TockShell

/// What a control request does and what it answers, whichever way it came
/// (the control socket, MQTT): one set of rules, one reply shape.
public final class ControlService: ControlResponder {
    private let shell: Shell
    private let now: () -> Instant
    /// Further status fields (the MQTT link, the fleet group, the state writes).
    public var statusExtras: [(inout [String: Any]) -> Void] = []

    public func addStatusFields(_ fields: @escaping (inout [String: Any]) -> Void) { statusExtras.append(fields) }

    public init(shell: Shell, now: @escaping () -> Instant) {
        self.shell = shell
        self.now = now
    }

    /// Carry out `request` and say how it went. `watch` only answers the
    /// status here; following changes is the transport's business.
    public func reply(to request: ControlRequest) -> [String: Any] {
        func refused(_ e: Machine.Refusal) -> [String: Any] { ["ok": false, "error": e.description] }
        switch request {
        case .status, .watch:
            break
        case .notice(let text, let seconds):
            do { try shell.showNotice(text, for: .seconds(seconds)) } catch { return ["ok": false, "error": error.description] }
        case .noticeEnd:
            shell.endNotice()
        case .start, .stop, .reset:
            let b: Button = request == .start ? .start : request == .stop ? .stop : .reset
            let changes = shell.pressChanges(b)
            shell.action(.pressed(b))  // a press that changes nothing chirps, as on the panel
            if !changes {
                var s = status()
                s["ok"] = false
                s["error"] = shell.core.idlePress(b)
                return s
            }
        case .set(let d):
            do { try shell.setPreset(d) } catch { return refused(error) }
        case .mode(let m):
            do { try shell.setMode(Settings.Mode(rawValue: m)!) } catch { return refused(error) }
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
                    return ["ok": false, "error": #"there is no night schedule to change; set one with "from", "to" and "brightness" together"#]
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
        }
        return status()
    }

    public var switchPosition: SwitchPosition { shell.core.input.switchPosition }

    public func status() -> [String: Any] {
        let core = shell.core
        var s: [String: Any] = [
            "ok": true,
            "state": shell.state?.rawValue ?? "starting",
            "display": shell.displayed?.text ?? "",
            "buzzer": shell.tone != nil,
            "mode": core.settings.mode.rawValue,
        ]
        // A changed configuration file waits for the count in progress.
        if core.pendingSettings != nil { s["config_waits_for_reset"] = true }
        if let f = shell.displayed { ControlStatus.segments(f, into: &s) }
        if shell.showingNotice { s["notice"] = true }
        s["switch"] = switchPosition.rawValue
        let dim = core.dimming
        s["brightness"] = dim.brightness
        if let n = dim.night {
            s["night"] = ["from": ControlRequest.clock(n.from), "to": ControlRequest.clock(n.to), "brightness": n.brightness] as [String: Any]
        }
        if let f = shell.displayed { s["brightness_now"] = f.brightness }
        let zone = core.alarms.zone
        s["alarms"] = core.alarms.entries.enumerated().map { i, e -> [String: Any] in
            var a: [String: Any] = ["n": i + 1, "at": e.alarm.timeText, "days": e.alarm.daysText, "enabled": e.alarm.enabled,
                                    "label": e.alarm.label, "line": AlarmText.line(e, number: i + 1, zone: zone)]
            if let next = e.next { a["next"] = AlarmText.local(next, zone) }
            return a
        }
        switch core.alarms.state {
        case .quiet: break
        case .ringing(let r, _): s["alarm"] = "ringing \(AlarmText.clock(r.minute))"
        case .snoozed(let r, let until):
            s["alarm"] = "snoozed \(AlarmText.clock(r.minute)), rings again in \(DurationText.format(.seconds((until - now()).nanoseconds / 1_000_000_000)))"
        }
        if let presets = core.presets {
            s["preset"] = DurationText.format(presets.current)
            s["presets"] = presets.all.map(DurationText.format)
            s["direction"] = presets.direction.rawValue
        }
        let progress = shell.progress()
        if let e = progress.elapsed { s["elapsed_ms"] = e.nanoseconds / 1_000_000 }
        if let r = progress.remaining { s["remaining_ms"] = r.nanoseconds / 1_000_000 }
        if let l = progress.leadIn { s["lead_in_ms"] = l.nanoseconds / 1_000_000 }
        if let o = progress.overrun { s["overrun_ms"] = o.nanoseconds / 1_000_000 }
        if let r = progress.round {
            s["round"] = r.round
            if let set = r.set { s["set"] = set }
        }
        if let name = progress.program {
            s["program"] = name
            s["programs"] = core.settings.interval.programs.map(\.name)
        }
        if let f = progress.finish { s["finish_ms"] = f.nanoseconds / 1_000_000 }
        for extra in statusExtras { extra(&s) }
        return s
    }
}

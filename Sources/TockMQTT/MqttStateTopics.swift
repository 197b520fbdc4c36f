import TockConfig
import TockControl
import TockCore
import TockJSON
import TockShell

/// The state topics' values, computed from the box (`<prefix>/<key>`),
/// and what a batch of outputs says happened (the device triggers' events).
enum MqttStateTopics {
    /// The topics that follow the count's time: what can change when
    /// nothing but the display did (`BoxChange.displayOnly`).
    static let clockKeys = ["display", "display_attributes", "elapsed_ms", "remaining_ms", "overrun_ms"]

    /// The values of `clockKeys`, in their order. A count's times are
    /// whole seconds (rounded as the display rounds them), so they change
    /// at most once a second; the display is what it means, without blinks.
    static func clockValues(of shell: Shell) -> [String] {
        let progress = shell.progress()
        let meaning = shell.displayMeaning()
        return [
            meaning.text,
            meaning.blinking ? #"{"blinking":true}"# : #"{"blinking":false}"#,
            // `None` (Home Assistant's unknown) where the program has none.
            milliseconds(progress.elapsed, up: false),
            milliseconds(progress.remaining, up: true),
            milliseconds(progress.overrun, up: false),
        ]
    }

    static func milliseconds(_ d: Duration?, up: Bool) -> String {
        guard let d else { return "None" }
        return String(wholeSeconds(d, up: up) * 1000)
    }

    /// Every retained state topic and its value now.
    static func values(of shell: Shell) -> [(String, String)] {
        let progress = shell.progress()
        let clock = clockValues(of: shell)
        var values: [(String, String)] = [
            ("state", shell.state?.rawValue ?? "starting"),
            (clockKeys[0], clock[0]),
            (clockKeys[1], clock[1]),
            (clockKeys[2], clock[2]),
            (clockKeys[3], clock[3]),
            // The same instant all through a count (changed by a start, a
            // resume or a new preset, not by the seconds going by): to the
            // nearest second, so that the two clocks' jitter cannot flip it.
            ("finishes_at", shell.finishesAt().map { timestamp($0 + .milliseconds(500)) } ?? "None"),
            ("mode", shell.core.settings.mode.rawValue),
            ("direction", (shell.core.presets?.direction ?? .down).rawValue),
            ("switch", shell.core.input.switchPosition.rawValue),
            // On while something rings (not each beep of its pattern), and
            // for a lone beep or chirp.
            ("buzzer", shell.tone != nil || shell.state == .ringing || shell.core.alarms.isRinging ? "on" : "off"),
            // `ON` while a ring waits to be silenced (the count, an extra
            // timer, a daily alarm): Home Assistant's Silence is offered then.
            ("ringing", shell.rings ? "ON" : "OFF"),
            ("alarm", alarmState(shell.core.alarms.state)),
            ("next_alarm", shell.core.alarms.wallDeadline.map(timestamp) ?? "None"),
            // Whether the kernel reports the wall clock synchronised: until
            // it does, the alarms' times (and a countdown to a date) are
            // unverified (docs/clock.md).
            ("next_alarm_attributes", #"{"unverified":\#(!shell.clockTrust.synchronised)}"#),
            ("clock_synchronised", shell.clockTrust.synchronised ? "ON" : "OFF"),
        ]
        // The brightness by day and the night schedule; while there is none
        // the night's entities are unavailable and their topics keep the
        // last schedule.
        let dimming = shell.core.dimming
        values.append(("brightness", "\(dimming.brightness)"))
        values.append(("night", dimming.night == nil ? "OFF" : "ON"))
        if let n = dimming.night {
            values.append(("night_from", ControlRequest.clock(n.from)))
            values.append(("night_to", ControlRequest.clock(n.to)))
            values.append(("night_brightness", "\(n.brightness)"))
        }
        // Outside the timer and stopwatch modes the preset entity is
        // unavailable and the topic keeps the last preset: never empty.
        if let presets = shell.core.presets { values.append(("preset", DurationText.format(presets.current))) }
        // A named program's name and round; a count-down's overrun in whole
        // seconds (and once more, "None", when it ends).
        if let name = progress.program { values.append(("program", name)) }
        if let r = progress.round {
            values.append(("round", "\(r.round)"))
            values.append(("phase", shell.resting() ? "rest" : "work"))
        }
        values.append((clockKeys[4], clock[4]))
        for (i, e) in shell.core.alarms.entries.enumerated() {
            values.append(("alarm_\(i + 1)", e.alarm.enabled ? "ON" : "OFF"))
        }
        values += timerValues(shell.timers())
        return values
    }

    /// The extra timers' topics: `timers`, the list (a JSON array in the
    /// order they were added), and `next_timer`, the earliest end of those
    /// running (`None` when none runs) with `next_timer_attributes`
    /// (`{"name":"EGG"}`, or `{}`). Neither follows the seconds: a running
    /// timer says when it ends (to the nearest second, as `finishes_at`),
    /// a paused one what it has left, so the values change only when a
    /// timer is added, paused, resumed, cancelled, rings or is silenced.
    static func timerValues(_ timers: [TimerView]) -> [(String, String)] {
        let list: [JSON] = timers.map { v in
            var o: JSONObject = ["name": .string(v.timer.name), "state": .string(v.timer.stateName.rawValue),
                                 "duration": .string(DurationText.format(v.timer.duration))]
            if let ends = v.ends { o["ends"] = .string(timestamp(ends + .milliseconds(500))) } else { o["remaining_ms"] = (wholeSeconds(v.left, up: true) * 1000).json }
            return .object(o)
        }
        let next = timers.filter { $0.ends != nil }.min { $0.ends! < $1.ends! }
        return [
            ("timers", JSON.array(list).text()),
            ("next_timer", next?.ends.map { timestamp($0 + .milliseconds(500)) } ?? "None"),
            ("next_timer_attributes", JSON.object(next.map { ["name": .string($0.timer.name)] } ?? JSONObject()).text()),
        ]
    }

    /// The payload on `<prefix>/timer_event` when extra timer `name` has
    /// reached zero: Home Assistant's event entity takes `event_type`, and
    /// the rest as the event's attributes.
    static func timerFinished(_ name: String, duration: Duration?) -> String {
        var o: JSONObject = ["event_type": "timer_finished", "name": .string(name)]
        o.set("duration", duration.map(DurationText.format))
        return JSON.object(o).text()
    }

    /// The daily alarms' switch names, in `tock alarm list`'s order.
    static func alarmNames(of shell: Shell) -> [String] {
        shell.core.alarms.entries.enumerated().map { i, e in
            let label = e.alarm.label.isEmpty ? "" : " \(e.alarm.label)"
            return "Alarm \(i + 1) \(e.alarm.timeText) \(e.alarm.daysText)\(label)"
        }
    }

    /// The device triggers' payloads a batch of outputs fires (one per row
    /// of `HomeAssistant.triggers`; an interval program's phase change is
    /// a case here with its `phase_changed` row there).
    /// A named program's phase, for the `phase_changed` trigger.
    static func phase(of shell: Shell) -> String? {
        shell.progress().round == nil ? nil : shell.resting() ? "rest" : "work"
    }

    static func events(in output: Machine.Output) -> [String] {
        var events: [String] = []
        for r in output.reports {
            switch r {
            case .stateChanged(.ringing): events.append("count_finished")
            case .alarm(.rang): events.append("alarm_ringing")
            case .alarm(.dismissed): events.append("alarm_dismissed")
            default: break
            }
        }
        return events
    }

    static func alarmState(_ s: AlarmClock.State) -> String {
        switch s {
        case .quiet: "quiet"
        case .ringing: "ringing"
        case .snoozed: "snoozed"
        }
    }

    static func wholeSeconds(_ d: Duration, up: Bool) -> Int64 {
        let n = max(d.nanoseconds, 0)
        return up ? (n + 999_999_999) / 1_000_000_000 : n / 1_000_000_000
    }

    /// ISO 8601 in UTC, as Home Assistant's timestamp sensors take it.
    static func timestamp(_ w: WallTime) -> String {
        let s = w.nanoseconds >= 0 ? w.nanoseconds / 1_000_000_000 : (w.nanoseconds - 999_999_999) / 1_000_000_000
        let days = s >= 0 ? s / 86_400 : (s - 86_399) / 86_400
        let d = CivilDate(days: days)
        let r = s - days * 86_400
        func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(d.year)-\(two(Int64(d.month)))-\(two(Int64(d.day)))T\(two(r / 3600)):\(two(r / 60 % 60)):\(two(r % 60))+00:00"
    }
}

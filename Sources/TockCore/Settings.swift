/// Everything the core needs to know from the configuration file, already
/// validated and in typed form (parsing lives outside the core).
public struct Settings: Equatable, Sendable {
    public enum Mode: String, CaseIterable, Sendable {
        case timer, stopwatch, countdown, interval
    }

    public var mode: Mode = .timer
    /// Presets for count-down (and the target for count-up in `timer` mode).
    public var presets: [Duration] = [.seconds(300), .seconds(600), .seconds(60)]
    /// The instant a `countdown` counts to.
    public var countdownUntil: WallTime? = nil
    public var interval = IntervalSettings()
    public var alarm = AlarmSettings()
    public var input = InputSettings()
    public var display = DisplaySettings()
    public var clock = ClockSettings()
    /// Daily alarms from the configuration file (`alarms:`).
    public var alarms: [DailyAlarm] = []
    /// A fleet group (`mqtt.group`): presses act on every member at one
    /// agreed instant instead of at once.
    public var group: GroupSettings? = nil
    /// A get-ready count before a timer's count starts (`timer.lead_in`;
    /// zero: none).
    public var leadIn: Duration = .zero
    /// After a count-down rings, count up how long it is over
    /// (`timer.overrun`).
    public var overrun = false
    /// The room's light sets the brightness (`light:`): nil without a sensor.
    public var light: LightSettings? = nil

    public init() {}

    /// The longest lead-in a configuration may ask for.
    public static let longestLeadIn: Duration = .seconds(60)
    /// The longest an interval program may take (its rounds, rests and
    /// sets): with the longest lead-in, exactly the longest duration a
    /// state file or a fleet group's message carries (`TimeBounds.longest`),
    /// so a program the configuration accepts is never refused when it is
    /// remembered across a restart or shared with a group, however far it
    /// has run.
    public static let longestProgram: Duration = TimeBounds.longest - longestLeadIn

    /// The most presets a configuration file (and so the state file) holds.
    public static let maxPresets = 20
    /// The longest value a 4-digit `HH:MM` display can show.
    public static let longestPreset: Duration = .seconds(99 * 3600 + 59 * 60)
    /// The shortest preset edit mode steps down to (one edit step; the
    /// configuration file may give shorter ones).
    public static let shortestPreset: Duration = .seconds(10)
}

public struct GroupSettings: Equatable, Sendable {
    /// How far ahead of a press its agreed instant lies: room for the
    /// message to reach every member first.
    public var lead: Duration
    public static let defaultLead: Duration = .milliseconds(250)
    public init(lead: Duration = defaultLead) { self.lead = lead }
}

public struct IntervalSettings: Equatable, Sendable {
    public var work: Duration = .seconds(30)
    public var rest: Duration = .seconds(10)
    public var rounds: Int = 8
    /// A get-ready count before the first round (`interval.lead_in`).
    public var leadIn: Duration = .zero
    /// Named programs (`interval.programs`), cycled with Reset in ready;
    /// empty: the one program above.
    public var programs: [NamedProgram] = []
    public init() {}
}

public struct AlarmSettings: Equatable, Sendable {
    /// Auto-silence after this long ringing (SPEC default 60 s).
    public var ringFor: Duration = .seconds(60)
    /// The alarm pattern escalates after ringing this long.
    public var escalateAfter: Duration = .seconds(20)
    /// Short warning beeps at each of the last N seconds of a count-down
    /// (0: none).
    public var warnLast: Int = 0
    /// A low "no" chirp when a button does nothing in the current state.
    public var chirp: Bool = true
    /// Stop on a ringing daily alarm rings it again after this long.
    public var snooze: Duration = .seconds(9 * 60)
    /// 1-100: a passive buzzer's loudness (PWM duty cycle); an active
    /// buzzer ignores it.
    public var volume = 100
    /// A melody the alarm plays instead of its double beep (`alarm.tune`).
    public var tune: [RTTTL.Note]? = nil
    /// Phase sounds given in the configuration (`alarm.sounds`), in place
    /// of the built-in patterns.
    public var sounds: [Buzzer.Signal: BuzzerPattern] = [:]
    public init() {}

    /// What `signal` plays.
    public func pattern(_ signal: Buzzer.Signal) -> BuzzerPattern { sounds[signal] ?? signal.pattern }
}

public struct InputSettings: Equatable, Sendable {
    /// A level must hold this long to count; shorter pulses are noise.
    public var debounce: Duration = .milliseconds(20)
    /// Holding Reset this long in ready enters edit.
    public var longPress: Duration = .seconds(1)
    /// Holding Start/Stop in edit repeats after this delay...
    public var repeatDelay: Duration = .milliseconds(500)
    /// ...every `repeatInterval`, halving down to `repeatFastest` as the
    /// hold goes on.
    public var repeatInterval: Duration = .milliseconds(200)
    public var repeatFastest: Duration = .milliseconds(50)
    public init() {}
}

public struct DisplaySettings: Equatable, Sendable {
    /// 4 (with a colon) or 8 digits.
    public var digits: Int = 4
    /// 0 (dimmest lit) ... 7 (brightest).
    public var brightness: Int = 7
    /// Dimmer at night, by the local clock.
    public var night: NightSchedule? = nil
    /// Show the time of day after `idleAfter` in ready or done.
    public var idleClock = false
    public var idleAfter: Duration = .seconds(30)
    public init() {}
}

/// The time of day: the idle clock and the daily alarms.
public struct ClockSettings: Equatable, Sendable {
    public enum Format: String, Sendable, CaseIterable {
        case h24 = "24h", h12 = "12h"
    }
    /// The zone local time is read in (the system's unless configured).
    public var zone: ZoneRules = .utc
    public var format: Format = .h24
    /// The colon blinks at 1 Hz (the display changes twice a second) or
    /// stays lit (once a minute).
    public var blinkColon = true
    /// Show `--:--` until the kernel says the clock is synchronised (NTP);
    /// off for a box whose battery-backed RTC is trusted.
    public var requireSync = true
    public init() {}
}

/// A daily period (local time) with its own brightness, e.g. 22:00-07:00.
public struct NightSchedule: Equatable, Sendable {
    /// Seconds after local midnight; `from` after `to` spans midnight.
    public var from: Int
    public var to: Int
    public var brightness: Int

    public init(from: Int, to: Int, brightness: Int) {
        self.from = from
        self.to = to
        self.brightness = brightness
    }

    public func isNight(at w: WallTime, zone: ZoneRules) -> Bool {
        let t = zone.local(at: w).second
        return from <= to ? (t >= from && t < to) : (t >= from || t < to)
    }

    /// The next wall instant the schedule switches, at most a day ahead.
    ///
    /// Between two changes of the zone's offset the local time runs with the
    /// wall clock, so the next boundary (`from` or `to` on the local clock)
    /// is the current local time plus the time to it; a night that changes
    /// the clocks still ends at 07:00 on the wall. A change of offset on
    /// the way switches the schedule if the clocks jump over a boundary,
    /// and is the answer then; otherwise the walk goes on from it. Any zone
    /// within `ZoneRules.offsets`, however far its clocks jump, has an answer.
    public func nextChange(after w: WallTime, zone: ZoneRules) -> WallTime {
        var t = w.nanoseconds.floorDivided(by: 1_000_000_000)
        // A zone changes its offset a few times a year; a crafted one may
        // change it every second, and then this is a wake-up at the last
        // change looked at, which costs one more look.
        for _ in 0..<64 {
            let local = t + Int64(zone.offset(at: t))
            let second = local - local.floorDivided(by: 86_400) * 86_400
            let boundary = [from, to].map { b -> Int64 in
                let ahead = (Int64(b) - second + 86_400) % 86_400
                return t + (ahead == 0 ? 86_400 : ahead)
            }.min() ?? t + 86_400
            guard let change = zone.nextOffsetChange(after: t, within: boundary - t), change < boundary else {
                return WallTime(secondsSince1970: boundary)
            }
            if isNight(at: WallTime(secondsSince1970: change), zone: zone) != isNight(at: WallTime(secondsSince1970: change - 1), zone: zone) {
                return WallTime(secondsSince1970: change)
            }
            t = change
        }
        return WallTime(secondsSince1970: t)
    }
}

extension Int64 {
    /// Division rounding toward minus infinity.
    public func floorDivided(by d: Int64) -> Int64 {
        let q = self / d
        return (self % d != 0 && (self < 0) != (d < 0)) ? q - 1 : q
    }
}

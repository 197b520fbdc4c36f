import TockCore
import TockJSON

/// The appliance's status, one type for everyone who makes or reads it:
/// the box makes it (TockHost's `ControlService`), the control socket and
/// MQTT's reply topic send it, `tock` and `tock-web` read it back. Written
/// as JSON in one place (`json`), read from JSON in one place
/// (`init(_:)`); the keys are the protocol's (docs/install.md). The state,
/// the mode, the switch and the direction are the core's own enums: a case
/// added there reaches the wire by its raw value (a status naming a state
/// this build does not know is not read as one; a mode or a position it
/// does not know reads as nil).
public struct BoxStatus: Sendable, Equatable {
    /// nil while the box is starting (written `"starting"`).
    public var state: StateName?
    /// The display's text, its segment bits (one number per digit: bit 0 is
    /// segment a ... bit 6 g, bit 7 the point) and the colon.
    public var display: String
    public var segments: [Int]?
    public var colon: Bool?
    public var buzzer: Bool
    /// nil in a status that names no mode this build knows (the box
    /// always names its own).
    public var mode: Settings.Mode?
    /// A changed configuration file waits for the count in progress.
    public var configWaitsForReset = false
    /// Settings of the configuration file that apply at the next restart
    /// (the wiring, the display's digits): read by a reload, not yet in use.
    public var configWaitsForRestart: [String] = []
    /// A notice (the pairing code) is shown over the count.
    public var notice = false
    /// The notice up was revealed by Start held on the box (a pairing code
    /// someone standing there asked to see).
    public var noticeConfirmed = false
    public var switchPosition: SwitchPosition?
    public var brightness: Int?
    public var night: Night?
    /// The brightness the display has now (the night schedule's, at night).
    public var brightnessNow: Int?
    public var alarms: [Alarm] = []
    /// The extra timers, in the order they were added.
    public var timers: [Timer] = []
    /// A daily alarm ringing or snoozed, said for a person.
    public var alarm: String?
    /// The timer's and the stopwatch's preset, presets and direction.
    public var preset: String?
    public var presets: [String]?
    public var direction: SwitchPosition?
    public var elapsedMs: Int64?
    public var remainingMs: Int64?
    public var leadInMs: Int64?
    public var overrunMs: Int64?
    public var round: Int?
    public var set: Int?
    public var program: String?
    public var programs: [String]?
    /// A For Time program's finishing time, from its start.
    public var finishMs: Int64?
    /// Durable writes of the state file so far.
    public var stateWrites: Int?
    /// The MQTT link and the fleet group, as their clients report them.
    public var mqtt: JSONObject?
    public var group: JSONObject?
    /// The wall clock's health: synchronised or not, since when, its steps.
    public var clock: Clock?
    /// The daily alarms and the countdown to a date are on a wall clock
    /// that is not synchronised: their times are unverified.
    public var timeUnverified = false

    /// The ambient light sensor: its last reading, the level it asks for,
    /// and why it does not answer (docs/display.md).
    public var light: Light?
    /// What the daily update check found (docs/updates.md), once it ran.
    public var update: UpdateCheck?
    /// The box's host name (`kitchen`: the page's title and header) and
    /// its IPv4 addresses (loopback and link-local left out), when known.
    public var host: String?
    public var addresses: [String]?

    public struct Light: Sendable, Equatable {
        public var lux: Int?
        public var level: Int?
        public var problem: String?

        public init(lux: Int?, level: Int?, problem: String?) {
            self.lux = lux
            self.level = level
            self.problem = problem
        }

        var json: JSONObject {
            var o = JSONObject()
            o.set("lux", lux)
            o.set("level", level)
            o.set("problem", problem)
            return o
        }

        init(_ o: JSONObject) {
            self.init(lux: o["lux"]?.int, level: o["level"]?.int, problem: o["problem"]?.string)
        }
    }

    /// The wall clock as the box judges it (docs/clock.md).
    public struct Clock: Sendable, Equatable {
        /// The kernel reports it synchronised (adjtimex(2)).
        public var synchronised: Bool
        /// When it became synchronised (ISO 8601, UTC), or when the box
        /// started if it already was (`sinceStart`).
        public var since: String?
        public var sinceStart = false
        /// Steps seen since the start, and the last one (`forward by 2h1m5s`) and when.
        public var steps = 0
        public var lastStep: String?
        public var lastStepAt: String?
        /// The battery-backed RTC (`/dev/rtc0`), when there is one: its
        /// driver, how far it is from the system clock (whole seconds,
        /// positive: ahead), and why it cannot be read.
        public var rtc: RTC?

        public struct RTC: Sendable, Equatable {
            public var name: String
            public var driftS: Int?
            public var problem: String?
            public init(name: String, driftS: Int?, problem: String?) {
                self.name = name
                self.driftS = driftS
                self.problem = problem
            }
        }

        public init(synchronised: Bool) { self.synchronised = synchronised }

        var json: JSONObject {
            var o: JSONObject = ["synchronised": .bool(synchronised), "steps": steps.json]
            o.set("since", since)
            if sinceStart { o["since_start"] = true }
            o.set("last_step", lastStep)
            o.set("last_step_at", lastStepAt)
            if let rtc {
                var r: JSONObject = ["name": .string(rtc.name)]
                r.set("drift_s", rtc.driftS)
                r.set("problem", rtc.problem)
                o["rtc"] = .object(r)
            }
            return o
        }

        init?(_ o: JSONObject) {
            guard let synchronised = o["synchronised"]?.bool else { return nil }
            self.synchronised = synchronised
            since = o["since"]?.string
            sinceStart = o["since_start"]?.bool ?? false
            steps = o["steps"]?.int ?? 0
            lastStep = o["last_step"]?.string
            lastStepAt = o["last_step_at"]?.string
            if let r = o["rtc"]?.object, let name = r["name"]?.string {
                rtc = RTC(name: name, driftS: r["drift_s"]?.int, problem: r["problem"]?.string)
            }
        }
    }

    public struct Night: Sendable, Equatable {
        public var from: String
        public var to: String
        public var brightness: Int

        public init(from: String, to: String, brightness: Int) {
            self.from = from
            self.to = to
            self.brightness = brightness
        }
    }

    /// An extra timer: `{"name": "EGG", "label": " E99", "state": "running",
    /// "duration": "6m", "remaining_ms": 359000, "ends": "2026-…Z", "shown": true}`.
    public struct Timer: Sendable, Equatable {
        public var name: String
        /// As the display draws it.
        public var label: String
        /// running, paused, ringing or done.
        public var state: StateName
        public var duration: String
        public var remainingMs: Int64
        /// Its end (ISO 8601, UTC) while it runs.
        public var ends: String?
        /// The count on the display: the buttons act on it.
        public var shown: Bool

        public init(name: String, label: String, state: StateName, duration: String, remainingMs: Int64, ends: String?, shown: Bool) {
            (self.name, self.label, self.state, self.duration, self.remainingMs, self.ends, self.shown) = (name, label, state, duration, remainingMs, ends, shown)
        }

        var json: JSON {
            var o: JSONObject = ["name": .string(name), "label": .string(label), "state": .string(state.rawValue), "duration": .string(duration),
                                 "remaining_ms": .int(remainingMs), "shown": .bool(shown)]
            o.set("ends", ends)
            return .object(o)
        }

        init?(_ v: JSON) {
            guard let o = v.object, let name = o["name"]?.string, let state = o["state"]?.string.flatMap(StateName.init(rawValue:)) else { return nil }
            self.init(name: name, label: o["label"]?.string ?? name, state: state, duration: o["duration"]?.string ?? "",
                      remainingMs: o["remaining_ms"]?.int64 ?? 0, ends: o["ends"]?.string, shown: o["shown"]?.bool ?? false)
        }
    }

    public struct Alarm: Sendable, Equatable {
        public var n: Int
        public var at: String
        public var days: String
        public var enabled: Bool
        public var label: String
        /// The alarm as `tock alarm list` prints it.
        public var line: String
        public var next: String?

        public init(n: Int, at: String, days: String, enabled: Bool, label: String, line: String, next: String?) {
            self.n = n
            self.at = at
            self.days = days
            self.enabled = enabled
            self.label = label
            self.line = line
            self.next = next
        }
    }
}

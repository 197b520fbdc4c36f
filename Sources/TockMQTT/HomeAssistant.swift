import TockConfig
import TockControl
import TockCore
import TockJSON

/// Home Assistant's MQTT discovery (https://www.home-assistant.io/integrations/mqtt/):
/// one retained config per entity at
/// `<discovery_prefix>/<component>/<node>/<object>/config`, all under one
/// device, all unavailable when the box's `availability` says `offline`.
/// An empty retained payload on the same topic removes the entity.
///
/// The entities are a table (`entities`): a new one is a row. Topics in a
/// row are relative to the box's prefix (`Entity.topicKeys` says which
/// fields hold one). The device triggers are a table too (`triggers`).
public enum HomeAssistant {
    /// One entity: its platform, its object (the last part of its entity
    /// id, `sensor.tock_<node>_<object>`), its name and its own fields.
    public struct Entity {
        public var component: String
        public var object: String
        public var name: String
        public var fields: JSONObject
        /// Shown only while `<prefix>/<topic>`'s value is one of `values`
        /// (as well as while the box is online).
        public var onlyWhile: (topic: String, values: [String])?
        /// Shown only while `<prefix>/<topic>`'s value is none of `values`.
        public var onlyUnless: (topic: String, values: [String])?
        /// Whether Home Assistant enables the entity when it discovers it.
        /// A disabled one has no state, so the recorder writes no row for
        /// it; a person can enable it (Settings → Entities).
        public var enabledByDefault: Bool

        public init(_ component: String, _ object: String, _ name: String, _ fields: JSONObject,
                    onlyWhile: (topic: String, values: [String])? = nil, onlyUnless: (topic: String, values: [String])? = nil,
                    enabledByDefault: Bool = true) {
            self.component = component
            self.object = object
            self.name = name
            self.fields = fields
            self.onlyWhile = onlyWhile
            self.onlyUnless = onlyUnless
            self.enabledByDefault = enabledByDefault
        }

        /// The fields whose value is a topic under the box's prefix.
        static let topicKeys = ["state_topic", "command_topic", "json_attributes_topic"]
    }

    /// An MQTT device trigger: `payload` on `<prefix>/<topic>` (not
    /// retained), `<prefix>/event` unless said; with `valueTemplate`, the
    /// payload that template renders from the message (the message itself
    /// reaches the automation as `trigger.payload_json`).
    public struct Trigger {
        public var type: String
        public var subtype: String
        public var payload: String
        public var topic: String
        public var valueTemplate: String?
        public init(_ type: String, _ subtype: String, payload: String, topic: String = "event", valueTemplate: String? = nil) {
            self.type = type
            self.subtype = subtype
            self.payload = payload
            self.topic = topic
            self.valueTemplate = valueTemplate
        }
    }

    /// The QoS of every subscription and command, as the README's topics say.
    public static let qos = 1

    /// The switch's positions, in name order (`down`, `up`) as Home
    /// Assistant has always been given them.
    static var switchOptions: JSON { SwitchPosition.allCases.map(\.rawValue).sorted().json }

    static func press(_ cmd: String) -> JSON { #"{"cmd":"\#(cmd)"}"# }

    /// The entities every box has. Home Assistant's recorder writes a row
    /// for each state change: Display and Remaining change every second of
    /// a count, so they are disabled until a person enables them; Finishes
    /// at says the same once per start.
    public static var entities: [Entity] { [
        Entity("sensor", "state", "State", ["state_topic": "state", "icon": "mdi:timer-outline", "device_class": "enum",
                                            "options": BoxStatus.stateWords.json]),
        Entity("sensor", "finishes_at", "Finishes at", ["state_topic": "finishes_at", "device_class": "timestamp",
                                                        "icon": "mdi:timer-check-outline"]),
        Entity("sensor", "display", "Display", ["state_topic": "display", "icon": "mdi:numeric",
                                                "json_attributes_topic": "display_attributes"],
               enabledByDefault: false),
        Entity("sensor", "remaining", "Remaining", ["state_topic": "remaining_ms", "device_class": "duration",
                                                    "unit_of_measurement": "ms", "state_class": "measurement"],
               enabledByDefault: false),
        Entity("button", "start", "Start", ["command_topic": "cmd", "payload_press": press("start"), "icon": "mdi:play"]),
        Entity("button", "stop", "Stop", ["command_topic": "cmd", "payload_press": press("stop"), "icon": "mdi:pause"]),
        Entity("button", "reset", "Reset", ["command_topic": "cmd", "payload_press": press("reset"), "icon": "mdi:restore"]),
        // A minute more on the box's own count (docs/timers.md, "Adding
        // time"). Available as Start, Stop and Reset are: the state topic
        // cannot tell a count down from a stopwatch, an interval round or
        // a countdown, which the box refuses on `reply`, saying why.
        Entity("button", "add_minute", "+1 min", ["command_topic": "cmd", "payload_press": .string(addMinute),
                                                  "icon": "mdi:timer-plus-outline"]),
        // Any amount, to the box's own count ("2m", "-30s") or an extra
        // timer by its name ("EGG 30s"): the voice scripts' way to add
        // what a button cannot (an entity action every user may call, where
        // mqtt.publish is an administrator's). No state topic, as Add timer.
        Entity("text", "add_time", "Add time", ["command_topic": "cmd", "icon": "mdi:clock-plus-outline",
                                                "command_template": .string(addTimeTemplate),
                                                "pattern": .string(addTimePattern), "min": 1, "max": 40]),
        Entity("select", "mode", "Mode", ["command_topic": "cmd", "state_topic": "mode",
                                          "command_template": #"{"cmd":"mode","mode":"{{ value }}"}"#,
                                          "options": ControlRequest.modes.json]),
        // A preset applies in the timer and stopwatch modes only: elsewhere
        // the entity is unavailable (the topic keeps the last preset).
        Entity("text", "preset", "Preset", ["command_topic": "cmd", "state_topic": "preset",
                                            "command_template": #"{"cmd":"set","duration":"{{ value }}"}"#,
                                            "pattern": "^[0-9][0-9hms:.]*$", "min": 1, "max": 16],
               onlyWhile: ("mode", Program.countModes.map(\.rawValue))),
        Entity("sensor", "direction", "Direction", ["state_topic": "direction", "device_class": "enum",
                                                    "options": switchOptions, "icon": "mdi:swap-vertical"]),
        Entity("sensor", "switch", "Switch", ["state_topic": "switch", "device_class": "enum",
                                              "options": switchOptions, "icon": "mdi:toggle-switch-outline"]),
        // The switch set as `tock switch down` sets it (the lever's next
        // move wins again): what a count down needs in the timer mode, as
        // an entity action any user may call (the Switch sensor above stays
        // for what reads it).
        Entity("select", "up_down", "Up/Down switch", ["command_topic": "cmd", "state_topic": "switch",
                                                       "command_template": #"{"cmd":"switch","position":"{{ value }}"}"#,
                                                       "options": switchOptions, "icon": "mdi:swap-vertical"]),
        Entity("sensor", "next_alarm", "Next alarm", ["state_topic": "next_alarm", "device_class": "timestamp",
                                                      "json_attributes_topic": "next_alarm_attributes", "icon": "mdi:alarm"]),
        // Off until the kernel reports the wall clock synchronised: the
        // alarms' and a countdown's times are unverified until then.
        Entity("binary_sensor", "clock_synchronised", "Clock synchronised",
               ["state_topic": "clock_synchronised", "payload_on": "ON", "payload_off": "OFF",
                "entity_category": "diagnostic", "icon": "mdi:clock-check-outline"]),
        Entity("button", "snooze", "Snooze", ["command_topic": "cmd", "payload_press": press("stop"), "icon": "mdi:alarm-snooze"],
               onlyWhile: ("alarm", ["ringing"])),
        Entity("button", "dismiss", "Dismiss", ["command_topic": "cmd", "payload_press": press("reset"), "icon": "mdi:alarm-off"],
               onlyWhile: ("alarm", ["ringing", "snoozed"])),
        // Whatever rings: the count, an extra timer, a daily alarm. A
        // request of its own, refused when nothing rings, so a press that
        // comes late never starts or pauses a count as Start or Stop would.
        Entity("button", "silence", "Silence", ["command_topic": "cmd", "payload_press": press("silence"), "icon": "mdi:bell-off-outline"],
               onlyWhile: ("ringing", ["ON"])),
        // The device triggers' events as one event entity too: its state is
        // when the last one happened and its `event_type` which one, for
        // the logbook, a dashboard and a state trigger. The topic carries
        // the bare name; the template makes it the JSON the platform reads.
        Entity("event", "events", "Events", ["state_topic": "event", "event_types": triggers.filter { $0.topic == "event" }.map(\.payload).json,
                                             "value_template": "{{ {'event_type': value} | tojson }}",
                                             "icon": "mdi:bell-ring-outline"]),
    ] + timerEntities + [updateEntity] }

    /// The extra timers (docs/timers.md): the list, the next end, the ring
    /// of each as an event, and a text that adds one ("EGG 6m"). The list
    /// and the next end change when a timer is added, paused, resumed,
    /// cancelled or rings, never with the seconds going by.
    public static var timerEntities: [Entity] { [
        // How many run, are paused or ring; the list as the attribute
        // `timers` (the topic carries a JSON list; attributes need an object).
        Entity("sensor", "timers", "Timers", ["state_topic": "timers", "icon": "mdi:timer-sand",
                                              "value_template": "{{ value_json | rejectattr('state', 'eq', 'done') | list | count }}",
                                              "json_attributes_topic": "timers",
                                              "json_attributes_template": "{{ {'timers': value_json} | tojson }}"]),
        Entity("sensor", "next_timer", "Next timer ends", ["state_topic": "next_timer", "device_class": "timestamp",
                                                           "json_attributes_topic": "next_timer_attributes",
                                                           "icon": "mdi:timer-sand-complete"]),
        // Each ring as `{"event_type":"timer_finished","name":"EGG",...}`:
        // the name and duration become the event's attributes.
        Entity("event", "timer_finished", "Timer finished", ["state_topic": .string(timerEventTopic), "event_types": ["timer_finished"],
                                                             "icon": "mdi:timer-check-outline"]),
        // "EGG 6m" adds a timer. No state topic: the box has no "last
        // added" to show, and a text's state must match its pattern, so
        // Home Assistant shows what was typed last (assumed state).
        Entity("text", "add_timer", "Add timer", ["command_topic": "cmd", "icon": "mdi:timer-plus-outline",
                                                  "command_template": .string(addTimerTemplate),
                                                  "pattern": .string(addTimerPattern), "min": 3, "max": 40]),
    ] }

    /// The *Timer* select, whose options are the extra timers in progress
    /// (`TimerPicker`), and the buttons that act on the one it selects.
    /// One select and four buttons of fixed ids, rather than buttons per
    /// timer: a dashboard card and a script name them once, whatever the
    /// timers are called (a name is any signs the display can draw, which
    /// an entity id cannot carry), and no entity is made or removed per
    /// timer. Unavailable while no timer is in progress. The select's
    /// config is announced again when the names change.
    public static func timerPickerEntities(_ inProgress: [String]) -> [Entity] {
        let none = (topic: timerSelectedTopic, values: ["None"])
        func button(_ op: String, _ name: String, _ icon: String, payload: String? = nil) -> Entity {
            Entity("button", "timer_\(op)", name, ["command_topic": .string(timerCommandTopic),
                                                   "payload_press": .string(payload ?? #"{"op":"\#(op)"}"#), "icon": .string(icon)],
                   onlyUnless: none)
        }
        return [
            Entity("select", "timer", "Timer", ["command_topic": .string(timerCommandTopic), "state_topic": .string(timerSelectedTopic),
                                                "command_template": "{{ {'op': 'select', 'name': value} | tojson }}",
                                                "options": inProgress.json, "icon": "mdi:timer-sand"],
                   onlyUnless: none),
            button("pause", "Pause timer", "mdi:pause"),
            button("resume", "Resume timer", "mdi:play"),
            button("cancel", "Cancel timer", "mdi:timer-off-outline"),
            button("add_minute", "+1 min timer", "mdi:timer-plus-outline", payload: #"{"op":"add","duration":"1m"}"#),
        ]
    }

    /// Where the select and its buttons send (`TimerPicker`), and where the
    /// selected name is (`None` while no timer is in progress).
    public static let timerCommandTopic = "timer_cmd"
    public static let timerSelectedTopic = "timer_selected"
    /// The select's discovery topic (announced again as the names change).
    public static func timerSelectConfigTopic(_ c: MqttConfig) -> String {
        "\(c.discoveryPrefix)/select/\(c.clientID)/timer/config"
    }

    /// Where the extra timers' rings are told (not retained).
    public static let timerEventTopic = "timer_event"
    /// A name (the box says whether it can draw it), spaces, a duration.
    public static let addTimerPattern = #"^\S{1,16} +[0-9][0-9hms:.]*$"#
    /// The add request, made by Home Assistant's own JSON encoder, so a
    /// name with quotes or other signs still makes valid JSON (and the box
    /// refuses the name, saying why).
    public static let addTimerTemplate =
        "{% set p = value.split(' ', 1) %}{{ {'cmd': 'timer', 'op': 'add', 'name': p[0], 'duration': p[1] | trim} | tojson }}"

    /// What *+1 min* sends.
    public static let addMinute = #"{"cmd":"add","duration":"1m"}"#
    /// An amount (`1m`, `-30s`, `+1h`), after a timer's name for an extra
    /// timer (`EGG 2m`; `t1` is the box's own count).
    public static let addTimePattern = #"^(\S{1,16} +)?[-+]?[0-9][0-9hms:.]*$"#
    /// The control socket's add request, made by Home Assistant's JSON
    /// encoder, so a name with quotes still makes valid JSON.
    public static let addTimeTemplate =
        "{% set p = value.split() %}{{ ({'cmd': 'add', 'duration': p[-1]} if p | count == 1 else {'cmd': 'add', 'name': p[0], 'duration': p[-1]}) | tojson }}"

    /// The brightness by day and the night schedule, on the device's
    /// Configuration card: each sends the control socket's `brightness` or
    /// `night` request, so the same checks and the same rule apply (an
    /// edit lasts until the file's `display.brightness` or `display.night`
    /// changes). The night's from, to and brightness each change only
    /// themselves in the schedule set, and are unavailable while there is
    /// none; the switch turns on `night` (the file's schedule, or
    /// `defaultNight` when the file has none).
    public static func dimmingEntities(night: NightSchedule?) -> [Entity] {
        let on = night ?? defaultNight
        let config: JSON = "config"
        let level: JSONObject = ["min": Dimming.levels.lowerBound.json, "max": Dimming.levels.upperBound.json, "step": 1, "mode": "slider"]
        return [
            Entity("number", "brightness", "Brightness", level.adding(
                ["command_topic": "cmd", "state_topic": "brightness", "entity_category": config, "icon": "mdi:brightness-6",
                 "command_template": #"{"cmd":"brightness","level":{{ value | int }}}"#])),
            Entity("switch", "night", "Night schedule", ["command_topic": "cmd", "state_topic": "night",
                                                        "payload_on": .string(ControlRequest.night(.on(from: on.from, to: on.to, brightness: on.brightness)).line),
                                                        "payload_off": .string(ControlRequest.night(.off).line),
                                                        "state_on": "ON", "state_off": "OFF", "entity_category": config,
                                                        "icon": "mdi:weather-night"]),
            // Home Assistant's time entity sends a `datetime.time`.
            Entity("time", "night_from", "Night from", ["command_topic": "cmd", "state_topic": "night_from", "entity_category": config,
                                                        "command_template": #"{"cmd":"night","from":"{{ value.strftime('%H:%M') }}"}"#,
                                                        "icon": "mdi:weather-sunset-down"],
                   onlyWhile: ("night", ["ON"])),
            Entity("time", "night_to", "Night to", ["command_topic": "cmd", "state_topic": "night_to", "entity_category": config,
                                                    "command_template": #"{"cmd":"night","to":"{{ value.strftime('%H:%M') }}"}"#,
                                                    "icon": "mdi:weather-sunset-up"],
                   onlyWhile: ("night", ["ON"])),
            Entity("number", "night_brightness", "Night brightness", level.adding(
                ["command_topic": "cmd", "state_topic": "night_brightness", "entity_category": config, "icon": "mdi:brightness-4",
                 "command_template": #"{"cmd":"night","brightness":{{ value | int }}}"#]),
                   onlyWhile: ("night", ["ON"])),
        ]
    }

    /// The night schedule the switch turns on when the file has none: the
    /// one docs/configuration.md shows.
    public static let defaultNight = NightSchedule(from: 22 * 3600, to: 7 * 3600, brightness: 1)

    /// The rows an `interval.programs` list adds: the program select (its
    /// names) and the round sensor.
    public static func programEntities(_ programs: [String]) -> [Entity] {
        guard !programs.isEmpty else { return [] }
        return [
            Entity("select", "program", "Program", ["command_topic": "cmd", "state_topic": "program",
                                                    "command_template": #"{"cmd":"program","name":"{{ value }}"}"#,
                                                    "options": programs.json]),
            Entity("sensor", "round", "Round", ["state_topic": "round", "icon": "mdi:counter", "state_class": "measurement"]),
        ]
    }

    /// Daily alarm `n`'s on/off switch (`<prefix>/alarm_<n>`: `ON`/`OFF`).
    public static func alarmSwitch(_ n: Int, name: String) -> Entity {
        Entity("switch", "alarm_\(n)", name, ["command_topic": "cmd", "state_topic": "alarm_\(n)",
                                              "payload_on": #"{"cmd":"alarm","op":"on","n":\#(n)}"#,
                                              "payload_off": #"{"cmd":"alarm","op":"off","n":\#(n)}"#,
                                              "state_on": "ON", "state_off": "OFF", "icon": "mdi:alarm"])
    }

    /// The device triggers, published on `<prefix>/event`.
    public static var triggers: [Trigger] { [
        Trigger("count_finished", "timer", payload: "count_finished"),
        Trigger("alarm_ringing", "alarm", payload: "alarm_ringing"),
        Trigger("alarm_dismissed", "alarm", payload: "alarm_dismissed"),
        // A named interval program going from work to rest or back.
        Trigger("phase_changed", "program", payload: "phase_changed"),
        // An extra timer reaching zero, whichever: the automation reads its
        // name as `trigger.payload_json.name`.
        Trigger("timer_finished", "timers", payload: "timer_finished", topic: timerEventTopic,
                valueTemplate: "{{ value_json.event_type }}"),
    ] }

    /// The configs, as (topic, payload): the entities, the brightness and
    /// night schedule (`night`: the file's), the program select and round
    /// sensor with `programs` (the names of `interval.programs`), `alarms`
    /// switches (named as given) and the device triggers.
    public static func configs(_ c: MqttConfig, version: String, alarms: [String] = [],
                               programs: [String] = [], night: NightSchedule? = nil,
                               timers: [String] = []) -> [(topic: String, payload: JSONObject)] {
        let node = c.clientID
        let p = c.topicPrefix
        let device: JSONObject = [
            "identifiers": ["tock_\(node)"],
            "name": "Tock \(node)",
            "manufacturer": "Tock",
            "model": "Tock timer",
            "sw_version": .string(version),
        ]
        // Who published the configs: Home Assistant names it in its log
        // beside a config it cannot use. The device triggers' schema has
        // no origin, so only the entities carry it.
        let origin: JSONObject = ["name": "Tock", "sw_version": .string(version)]
        let all = entities + timerPickerEntities(timers) + dimmingEntities(night: night) + programEntities(programs)
            + alarms.enumerated().map { alarmSwitch($0.offset + 1, name: $0.element) }
        var out = all.map { e -> (topic: String, payload: JSONObject) in
            var payload: JSONObject = [
                "name": .string(e.name),
                "unique_id": "\(node)_\(e.object)",
                "default_entity_id": "\(e.component).tock_\(node)_\(e.object)",
                "device": .object(device),
                "origin": .object(origin),
                "qos": qos.json,
            ]
            if !e.enabledByDefault { payload["enabled_by_default"] = false }
            if let only = e.onlyWhile ?? e.onlyUnless {
                let values = only.values.map { "'\($0)'" }.joined(separator: ", ")
                let (yes, no) = e.onlyWhile != nil ? ("online", "offline") : ("offline", "online")
                payload["availability"] = [
                    ["topic": "\(p)/availability", "payload_available": "online", "payload_not_available": "offline"],
                    ["topic": "\(p)/\(only.topic)",
                     "value_template": "{{ '\(yes)' if value in [\(values)] else '\(no)' }}"],
                ]
                payload["availability_mode"] = "all"
            } else {
                payload["availability_topic"] = "\(p)/availability"
                payload["payload_available"] = "online"
                payload["payload_not_available"] = "offline"
            }
            for (key, value) in e.fields {
                payload[key] = Entity.topicKeys.contains(key) ? "\(p)/\(value.string ?? "")" : value
            }
            return ("\(c.discoveryPrefix)/\(e.component)/\(node)/\(e.object)/config", payload)
        }
        for t in triggers {
            var trigger: JSONObject = [
                "automation_type": "trigger",
                "topic": "\(p)/\(t.topic)",
                "type": .string(t.type),
                "subtype": .string(t.subtype),
                "payload": .string(t.payload),
                "qos": qos.json,
                "device": .object(device),
            ]
            trigger.set("value_template", t.valueTemplate)
            out.append(("\(c.discoveryPrefix)/device_automation/\(node)/\(t.type)/config", trigger))
        }
        return out
    }

    /// The topics of alarm switches beyond `count` (removed by an empty config).
    public static func alarmConfigTopic(_ c: MqttConfig, _ n: Int) -> String {
        "\(c.discoveryPrefix)/switch/\(c.clientID)/alarm_\(n)/config"
    }
}

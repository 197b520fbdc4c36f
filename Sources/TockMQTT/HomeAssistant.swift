import Foundation
import TockConfig
import TockControl

/// Home Assistant's MQTT discovery (https://www.home-assistant.io/integrations/mqtt/):
/// one retained config per entity at
/// `<discovery_prefix>/<component>/<node>/<object>/config`, all under one
/// device, all unavailable when the box's `availability` says `offline`.
/// An empty retained payload on the same topic removes the entity.
public enum HomeAssistant {
    /// The entities, as (topic, payload). The payloads' shape is written
    /// down in Tests/mqtt/ha-discovery.schema.json and checked against it.
    /// With `programs` (the names of `interval.programs`), a select for the
    /// program and a sensor for the round too.
    public static func configs(_ c: MqttConfig, version: String, programs: [String] = []) -> [(topic: String, payload: [String: Any])] {
        let node = c.clientID
        let p = c.topicPrefix
        let device: [String: Any] = [
            "identifiers": ["tock_\(node)"],
            "name": "Tock \(node)",
            "manufacturer": "Tock",
            "model": "Tock timer",
            "sw_version": version,
        ]
        func entity(_ component: String, _ object: String, _ name: String, _ fields: [String: Any]) -> (String, [String: Any]) {
            var payload: [String: Any] = [
                "name": name,
                "unique_id": "\(node)_\(object)",
                "object_id": "tock_\(node)_\(object)",
                "device": device,
                "availability_topic": "\(p)/availability",
                "payload_available": "online",
                "payload_not_available": "offline",
            ]
            payload.merge(fields) { _, new in new }
            return ("\(c.discoveryPrefix)/\(component)/\(node)/\(object)/config", payload)
        }
        func press(_ cmd: String) -> String { #"{"cmd":"\#(cmd)"}"# }
        let gym = programs.isEmpty ? [] : [
            entity("select", "program", "Program", ["command_topic": "\(p)/cmd", "state_topic": "\(p)/program",
                                                    "command_template": #"{"cmd":"program","name":"{{ value }}"}"#, "options": programs]),
            entity("sensor", "round", "Round", ["state_topic": "\(p)/round", "icon": "mdi:counter", "state_class": "measurement"]),
        ]
        return [
            entity("sensor", "state", "State", ["state_topic": "\(p)/state", "icon": "mdi:timer-outline"]),
            entity("sensor", "display", "Display", ["state_topic": "\(p)/display", "icon": "mdi:numeric"]),
            entity("sensor", "remaining", "Remaining", ["state_topic": "\(p)/remaining_ms", "device_class": "duration",
                                                         "unit_of_measurement": "ms", "state_class": "measurement"]),
            entity("button", "start", "Start", ["command_topic": "\(p)/cmd", "payload_press": press("start"), "icon": "mdi:play"]),
            entity("button", "stop", "Stop", ["command_topic": "\(p)/cmd", "payload_press": press("stop"), "icon": "mdi:pause"]),
            entity("button", "reset", "Reset", ["command_topic": "\(p)/cmd", "payload_press": press("reset"), "icon": "mdi:restore"]),
            entity("select", "mode", "Mode", ["command_topic": "\(p)/cmd", "state_topic": "\(p)/mode",
                                              "command_template": #"{"cmd":"mode","mode":"{{ value }}"}"#,
                                              "options": ControlRequest.modes]),
            entity("text", "preset", "Preset", ["command_topic": "\(p)/cmd", "state_topic": "\(p)/preset",
                                                "command_template": #"{"cmd":"set","duration":"{{ value }}"}"#,
                                                "pattern": "^[0-9][0-9hms:.]*$",
                                                "min": 0, "max": 16]),
        ] + gym
    }
}

import TockCore
import TockLinux

/// The `mqtt:` section: where the broker is, who this box is on it, and
/// the fleet group it belongs to. Absent, no network code runs at all.
public struct MqttConfig: Equatable, Sendable {
    public struct TLS: Equatable, Sendable {
        public var caFile: String
        public var certFile: String?
        public var keyFile: String?
    }

    public var host = ""
    public var port = 1883
    public var clientID = ""
    public var username: String?
    /// Read from `password_file` when the configuration is loaded.
    public var password: String?
    public var tls: TLS?
    public var topicPrefix = ""
    public var keepalive: Duration = .seconds(60)
    /// Publish Home Assistant discovery configs (false: remove them).
    public var discovery = true
    public var discoveryPrefix = "homeassistant"
    /// The fleet group's name (`mqtt.group`).
    public var group: String?
    public var groupLead: Duration = GroupSettings.defaultLead

    /// The retained topic a group agrees on.
    public var groupTopic: String? { group.map { "tock/groups/\($0)" } }

    static let keys = ["host", "port", "client_id", "username", "password_file", "tls", "topic_prefix", "keepalive",
                       "discovery", "discovery_prefix", "group"]
}

extension Configuration {
    /// `mqtt:`; every problem is named with its key.
    mutating func readMqtt(_ node: Node, _ r: ConfigReader, hostname: String = FileSystem.hostName()) {
        let m = r.mapping(node, "mqtt", allowed: MqttConfig.keys)
        var c = MqttConfig()
        if let v = m["host"], let s = r.string(v, "mqtt.host") { c.host = s } else if m["host"] == nil {
            r.problem(node, "mqtt.host", "needed: the broker's address, e.g. 192.168.1.10 or homeassistant.local")
        }
        if let v = m["tls"] {
            let t = r.mapping(v, "mqtt.tls", allowed: ["ca_file", "cert_file", "key_file"])
            func file(_ key: String) -> String? {
                guard let n = t[key], let path = r.string(n, "mqtt.tls.\(key)") else { return nil }
                guard FileSystem.isReadable(path) else {
                    r.problem(n, "mqtt.tls.\(key)", "cannot read \(path) (does it exist, and may the tock user read it?)")
                    return nil
                }
                return path
            }
            let ca = file("ca_file"), cert = file("cert_file"), key = file("key_file")
            if t["ca_file"] == nil { r.problem(v, "mqtt.tls.ca_file", "needed: the certificate authority that signed the broker's certificate") }
            if (t["cert_file"] == nil) != (t["key_file"] == nil) {
                r.problem(v, "mqtt.tls", "cert_file and key_file go together (a client certificate and its key)")
            }
            if let ca { c.tls = .init(caFile: ca, certFile: cert, keyFile: key) }
            c.port = 8883
        }
        if let v = m["port"], let p = r.int(v, "mqtt.port", 1...65535) { c.port = p }
        if let v = m["client_id"], let s = r.string(v, "mqtt.client_id") {
            if TopicName.isValid(s) { c.clientID = s } else { r.problem(v, "mqtt.client_id", "\"\(s)\" must be \(TopicName.rule)") }
        } else {
            let h = String(String(hostname.split(separator: ".").first ?? "tock").map { TopicName.characters.contains($0) ? $0 : "-" })
            c.clientID = TopicName.isValid(h) ? h : "tock"
        }
        if let v = m["username"], let s = r.string(v, "mqtt.username") { c.username = s }
        if let v = m["password_file"], let path = r.string(v, "mqtt.password_file") {
            if let data = FileSystem.contents(path), let text = String(validating: data, as: UTF8.self) {
                c.password = text.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
            } else {
                r.problem(v, "mqtt.password_file", "cannot read \(path) (does it exist, and may the tock user read it?)")
            }
            if m["username"] == nil { r.problem(v, "mqtt.password_file", "a password needs mqtt.username") }
        }
        c.topicPrefix = "tock/\(c.clientID)"
        if let v = m["topic_prefix"], let s = r.string(v, "mqtt.topic_prefix") {
            if Self.validTopic(s) { c.topicPrefix = s } else {
                r.problem(v, "mqtt.topic_prefix", "\"\(s)\" is not a topic prefix: no +, #, empty levels, or / at either end")
            }
        }
        if let v = m["keepalive"], let d = r.duration(v, "mqtt.keepalive", min: .seconds(5), max: .seconds(3600)) { c.keepalive = d }
        if let v = m["discovery"], let b = r.bool(v, "mqtt.discovery") { c.discovery = b }
        if let v = m["discovery_prefix"], let s = r.string(v, "mqtt.discovery_prefix") {
            if Self.validTopic(s) { c.discoveryPrefix = s } else { r.problem(v, "mqtt.discovery_prefix", "\"\(s)\" is not a topic prefix") }
        }
        if let v = m["group"] { readGroup(v, r, into: &c) }
        mqtt = c
        if c.group != nil { settings.group = GroupSettings(lead: c.groupLead) }
    }

    /// `group: gym`, or `group: {name: gym, lead: 250ms}`.
    private func readGroup(_ v: Node, _ r: ConfigReader, into c: inout MqttConfig) {
        var nameNode = v
        if case .mapping = v.value {
            let g = r.mapping(v, "mqtt.group", allowed: ["name", "lead"])
            if let d = g["lead"], let lead = r.duration(d, "mqtt.group.lead", min: .milliseconds(50), max: .seconds(5)) { c.groupLead = lead }
            guard let n = g["name"] else {
                r.problem(v, "mqtt.group.name", "needed: the group's name, e.g. gym")
                return
            }
            nameNode = n
        }
        guard let s = r.string(nameNode, "mqtt.group") else { return }
        guard TopicName.isValid(s) else {
            r.problem(nameNode, "mqtt.group", "\"\(s)\" must be \(TopicName.rule)")
            return
        }
        c.group = s
    }

    static func validTopic(_ s: String) -> Bool {
        !s.isEmpty && !s.hasPrefix("/") && !s.hasSuffix("/") && !s.contains("+") && !s.contains("#")
            && !s.split(separator: "/", omittingEmptySubsequences: false).contains("") && s.utf8.count <= 200
    }
}

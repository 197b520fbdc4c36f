/// rpi-preseed.toml, the settings Raspberry Pi Imager (2.x) writes on the
/// boot partition when Tock is chosen in it: `[system] hostname`, `[ssh]
/// authorized_keys`, `[wlan] ssid, password, country, hidden`, `[locale]
/// timezone`. Each reaches the same typed check as tock-setup.txt's line
/// of the same meaning; what Tock has no use for (a user and password, a
/// keyboard layout) is named in the log as not used.
public struct PreseedFile {
    public var name: String
    public var limits: SetupLimits
    public var zone: (String) -> String?

    public init(name: String = "rpi-preseed.toml", limits: SetupLimits = SetupLimits(), zone: @escaping (String) -> String?) {
        self.name = name
        self.limits = limits
        self.zone = zone
    }

    /// Imager's [table] key, and the tock-setup.txt setting it stands for.
    static let map: [String: String] = [
        "system.hostname": "hostname", "ssh.authorized_keys": "ssh_key", "ssh.authorized_key": "ssh_key",
        "wlan.ssid": "wifi_ssid", "wlan.password": "wifi_passphrase", "wlan.country": "wifi_country",
        "wlan.hidden": "wifi_hidden", "locale.timezone": "timezone",
    ]

    public func read(_ bytes: [UInt8]) -> SetupReading {
        var r = SetupReading(limit: limits.problems)
        var fields = SetupFields(file: name, zone: zone)
        guard bytes.count <= limits.bytes else {
            r.add(SetupProblem(file: name, line: nil, code: .er01, message: "the file is more than \(limits.bytes) bytes; it is read up to that",
                               fix: "write the settings again with Raspberry Pi Imager, or delete the file"))
            return r
        }
        let entries: [PreseedReader.Entry]
        switch PreseedReader.entries(bytes) {
        case .success(let e): entries = e
        case .failure(let f):
            r.add(SetupProblem(file: name, line: f.line, code: .er01, message: f.message,
                               fix: "write the settings again with Raspberry Pi Imager, or correct the line (TOML: key = \"value\")"))
            return r
        }
        var unused: [String] = []
        for e in entries {
            let path = "\(e.table).\(e.key)"
            let at = SetupSource(file: name, line: e.line)
            guard let key = Self.map[path] else {
                if path != "wlan.password_encrypted" && path != "wlan.hidden" { unused.append(path) }
                continue
            }
            switch e.value {
            case .string(let s) where key == "ssh_key":
                // One string may hold several keys, a line each.
                for k in s.split(separator: 0x0A) where !k.allSatisfy({ $0 == 0x0D || $0 == 0x20 }) {
                    fields.set(key, k.last == 0x0D ? k.dropLast() : k, at, into: &r)
                }
            case .string(let s): fields.set(key, s[...], at, into: &r)
            case .bool(let v) where key == "wifi_hidden": fields.set(key, Array((v ? "yes" : "no").utf8)[...], at, into: &r)
            case .array(let items) where key == "ssh_key":
                for item in items {
                    guard case .string(let s) = item else {
                        r.add(SetupProblem(file: name, line: e.line, code: .sshKey, message: "authorized_keys holds something other than strings",
                                           fix: "authorized_keys = [\"ssh-ed25519 AAAA... you@laptop\"]"))
                        continue
                    }
                    fields.set(key, s[...], at, into: &r)
                }
            default:
                r.add(SetupProblem(file: name, line: e.line, code: fields.code(of: key), message: "[\(e.table)] \(e.key) is not a string",
                                   fix: "\(e.key) = \"...\""))
            }
        }
        if !unused.isEmpty { r.notes.append("\(name): not used by Tock: \(unused.joined(separator: ", "))") }
        fields.finish(into: &r)
        return r
    }
}

/// The settings of one file as its lines give them: each value checked by
/// its type as it is read, the settings that need one another checked at
/// the end. tock-setup.txt's lines and rpi-preseed.toml's keys both end here.
struct SetupFields {
    let file: String
    let zone: (String) -> String?
    private var seen: [String: Int] = [:]
    private var ssid: Sourced<[UInt8]>?
    private var wifiKey: Sourced<WifiNetwork.Key>?
    private var country: Sourced<CountryCode>?
    private var hidden: Sourced<Bool>?

    init(file: String, zone: @escaping (String) -> String?) {
        self.file = file
        self.zone = zone
    }

    static let space: Set<UInt8> = [0x20, 0x09]

    /// One line of tock-setup.txt.
    mutating func line(_ raw: ArraySlice<UInt8>, number: Int, into r: inout SetupReading) {
        var line = raw
        while let f = line.first, Self.space.contains(f) { line.removeFirst() }
        while let l = line.last, Self.space.contains(l) { line.removeLast() }
        if line.isEmpty || line.first == UInt8(ascii: "#") { return }
        func problem(_ message: @autoclosure () -> String, _ fix: @autoclosure () -> String) {
            r.add(SetupProblem(file: file, line: number, code: .er01, message: message(), fix: fix()))
        }
        if line.contains(0) {
            return problem("the line holds a NUL byte: \(VisibleText.quoted(line))", "save the file as plain UTF-8 text (the line's setting written again)")
        }
        guard String(validating: line, as: UTF8.self) != nil else {
            return problem("the line is not UTF-8 text: \(VisibleText.quoted(line))", "save the file as UTF-8 (Notepad: Save as, Encoding UTF-8)")
        }
        guard let eq = line.firstIndex(of: UInt8(ascii: "=")) else {
            return problem("\(VisibleText.quoted(line)) is not a setting",
                           "write it as key = value (see the comments in the file), or start the line with # to leave it out")
        }
        var k = line[..<eq], v = line[(eq + 1)...]
        while let l = k.last, Self.space.contains(l) { k.removeLast() }
        while let f = v.first, Self.space.contains(f) { v.removeFirst() }
        // A value may be quoted, to keep spaces at its ends.
        if v.count >= 2, v.first == UInt8(ascii: "\""), v.last == UInt8(ascii: "\"") { v = v.dropFirst().dropLast() }
        set(String(decoding: k, as: UTF8.self), v, SetupSource(file: file, line: number), into: &r)
    }

    /// One setting, by its tock-setup.txt name.
    mutating func set(_ key: String, _ v: ArraySlice<UInt8>, _ at: SetupSource, into r: inout SetupReading) {
        func problem(_ code: SetupCode, _ message: @autoclosure () -> String, _ fix: @autoclosure () -> String) {
            r.add(SetupProblem(file: file, line: at.line, code: code, message: message(), fix: fix()))
        }
        guard SetupFile.keys.contains(key) else {
            return problem(.er01, "unknown setting \(VisibleText.quoted(key.utf8))", "the settings are \(SetupFile.keys.joined(separator: ", "))")
        }
        if key != "ssh_key" {
            if let first = seen[key] {
                return problem(code(of: key), "\(key) is set twice (line \(first) and line \(at.line))", "keep one of the two lines (start the other with #)")
            }
            seen[key] = at.line
        }
        let q = VisibleText.quoted(v)
        switch key {
        case "hostname":
            guard let h = HostName(v) else {
                return problem(.hostname, "hostname \(q) is not a host name",
                               "use letters, digits and hyphens (at most 63, not starting or ending with a hyphen), e.g. hostname = kitchen-timer")
            }
            r.settings.hostname = Sourced(h, at)
        case "wifi_ssid":
            switch WifiNetwork.ssid(v) {
            case .success(let s): ssid = Sourced(s, at)
            case .failure: problem(.wifi, "wifi_ssid \(q) is \(v.count) bytes; a network name is 1 to 32 bytes",
                                   "write the network's name as your phone shows it, e.g. wifi_ssid = Home")
            }
        case "wifi_passphrase":
            switch WifiNetwork.key(v) {
            case .success(let k): wifiKey = Sourced(k, at)
            case .failure(.notHex): problem(.wifi, "wifi_passphrase is 64 characters but not 64 hex digits (a passphrase is 8 to 63)",
                                            "write the Wi-Fi password exactly (8 to 63 characters), or its 64-hex-digit key")
            case .failure(.keyControl): problem(.wifi, "wifi_passphrase holds a control character: \(q)",
                                                "write the Wi-Fi password exactly, with no tab or other invisible character in it")
            case .failure: problem(.wifi, "wifi_passphrase must be 8 to 63 characters (it has \(v.count) bytes)",
                                   "write the Wi-Fi password exactly; leave the line out for an open network")
            }
        case "wifi_country":
            guard let c = CountryCode(v) else {
                return problem(.wifi, "wifi_country \(q) is not a two-letter country code", "use the ISO 3166 code in capitals, e.g. wifi_country = GB, DE or US")
            }
            country = Sourced(c, at)
        case "wifi_hidden":
            switch String(decoding: v, as: UTF8.self) {
            case "yes", "true": hidden = Sourced(true, at)
            case "no", "false": hidden = Sourced(false, at)
            default: problem(.wifi, "wifi_hidden \(q) is neither yes nor no", "write wifi_hidden = yes for a network that does not show its name")
            }
        case "timezone":
            let name = String(decoding: v, as: UTF8.self)
            let fine = !v.isEmpty && v.allSatisfy { HostName.allowed($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "/") }
                && !name.split(separator: "/").contains("..") && v.first != UInt8(ascii: "/")
            if let why = fine ? zone(name) : "not a tz database name" {
                return problem(.timezone, "timezone \(q) is not a zone this box knows (\(why))",
                               "use a name of the tz database, e.g. timezone = Europe/London or America/New_York")
            }
            r.settings.timezone = Sourced(name, at)
        case "ssh_key":
            switch SSHKey.parse(v) {
            case .success(let k): r.settings.sshKeys.append(Sourced(k, at))
            case .failure(let e):
                let why = switch e {
                case .type(let t): "\(VisibleText.quoted(t.utf8, limit: 40)) is not an SSH key type (\(SSHKey.types.joined(separator: ", ")))"
                case .base64: "the key after the type is not whole base64 (cut short, or a line break in it?)"
                case .blob: "the key's base64 does not hold a key of the type written before it"
                case .control: "it holds a line break or another control character: \(q)"
                }
                problem(.sshKey, "ssh_key is not an SSH public key: \(why)",
                        "paste the one line of your ~/.ssh/id_ed25519.pub (it starts with ssh-ed25519), e.g. ssh_key = ssh-ed25519 AAAA... you@laptop")
            }
        case "address":
            switch IPv4Interface.parse(v) {
            case .success(let i): r.settings.address = Sourced(i, at)
            case .failure(let e):
                let why = switch e {
                case .form: "not an IPv4 address (four numbers 0 to 255, no leading zeros) with a prefix length"
                case .prefix: "the prefix length after / must be 1 to 32, no leading zero"
                case .notUnicast(let w): w
                case .network: "that is the network's own address (all host bits 0)"
                case .broadcast: "that is the network's broadcast address (all host bits 1)"
                }
                problem(.address, "address \(q): \(why)", "write it as address = 192.168.1.50/24, or leave the line out for DHCP")
            }
        case "gateway":
            guard let g = IPv4Address(v), g.notUnicast == nil else {
                return problem(.address, "gateway \(q) is not an IPv4 address a router can have", "write it as gateway = 192.168.1.1")
            }
            r.settings.gateway = Sourced(g, at)
        default: // dns
            var list: [IPv4Address] = []
            for item in v.split(whereSeparator: { $0 == 0x20 || $0 == UInt8(ascii: ",") }) {
                guard let a = IPv4Address(item), a.notUnicast == nil else {
                    return problem(.address, "dns \(VisibleText.quoted(item)) is not an IPv4 address", "write it as dns = 192.168.1.1 (several separated by spaces)")
                }
                list.append(a)
            }
            guard !list.isEmpty else { return problem(.address, "dns is empty", "write it as dns = 192.168.1.1, or leave the line out") }
            r.settings.dns = Sourced(list, at)
        }
    }

    func code(of key: String) -> SetupCode {
        switch key {
        case "hostname": .hostname
        case "timezone": .timezone
        case "ssh_key": .sshKey
        case "address", "gateway", "dns": .address
        default: key.hasPrefix("wifi_") ? .wifi : .er01
        }
    }

    /// The checks that need several settings.
    mutating func finish(into r: inout SetupReading) {
        func problem(_ code: SetupCode, _ line: Int?, _ message: String, _ fix: String) {
            r.add(SetupProblem(file: file, line: line, code: code, message: message, fix: fix))
        }
        if let s = ssid {
            if let c = country {
                r.settings.wifi = Sourced(WifiNetwork(ssid: s.value, key: wifiKey?.value, country: c.value, hidden: hidden?.value ?? false), s.source)
            } else {
                problem(.wifi, nil, "wifi_ssid is set but wifi_country is not",
                        "add wifi_country = XX (your country's two-letter code); the radio may only use the channels allowed there")
            }
        } else if let k = wifiKey {
            problem(.wifi, k.source.line, "wifi_passphrase is set but wifi_ssid is not", "add wifi_ssid = the network's name")
        }
        let s = r.settings
        if s.address == nil, let other = s.gateway?.source ?? s.dns?.source {
            problem(.address, other.line, "gateway or dns is set without address", "add address = A.B.C.D/NN, or remove gateway and dns for DHCP")
        }
        if let a = s.address, let g = s.gateway {
            if g.value == a.value.address {
                problem(.address, g.source.line, "gateway \(g.value) is the box's own address", "write the router's address, e.g. gateway = 192.168.1.1")
            } else if !a.value.contains(g.value) {
                problem(.address, g.source.line, "gateway \(g.value) is not in the box's network \(a.value)",
                        "write a router on the same network as address (line \(a.source.line)), or correct the prefix length")
            }
        }
        r.problems.sort { ($0.line ?? Int.max) < ($1.line ?? Int.max) }
    }
}

/// A value of the setup with the line it came from.
public struct Sourced<Value: Equatable & Sendable>: Equatable, Sendable {
    public var value: Value
    public var source: SetupSource
    public init(_ value: Value, _ source: SetupSource) {
        self.value = value
        self.source = source
    }
}

/// What the boot partition's files ask for, typed; nil where they are
/// silent (the box's defaults then: host name tock, Ethernet by DHCP, UTC,
/// no Wi-Fi, no SSH key).
public struct SetupSettings: Equatable, Sendable {
    public var hostname: Sourced<HostName>?
    public var wifi: Sourced<WifiNetwork>?
    public var timezone: Sourced<String>?
    public var sshKeys: [Sourced<SSHKey>] = []
    public var address: Sourced<IPv4Interface>?
    public var gateway: Sourced<IPv4Address>?
    public var dns: Sourced<[IPv4Address]>?

    public init() {}

    /// The one line `/run/tock-image/applied` holds.
    public var summary: String { summary(wifi: nil) }

    /// The summary with `wifi=` saying `wifi` instead of the network's
    /// name (the log's last line: what became of the Wi-Fi setting).
    public func summary(wifi said: String?) -> String {
        let wifi = said ?? self.wifi.map { VisibleText.visible($0.value.ssid, limit: 32) } ?? "none"
        return "hostname=\(hostname?.value ?? .tock) timezone=\(timezone?.value ?? "UTC") wifi=\(wifi) "
            + "address=\(address.map { "\($0.value)" } ?? "dhcp") ssh_keys=\(sshKeys.count)"
    }

    /// This file's settings over `other`'s (the rule when tock-setup.txt
    /// and rpi-preseed.toml both say something): setting by setting, the
    /// Wi-Fi network as one (a name from one file and a password from the
    /// other would join nothing), the static address with its gateway and
    /// DNS as one; SSH keys from both are kept (adding a key never locks
    /// one out). Returns what of `other` was not used, for the log.
    public func over(_ other: SetupSettings) -> (SetupSettings, overridden: [String]) {
        var out = self
        var overridden: [String] = []
        func pick<V>(_ mine: Sourced<V>?, _ theirs: Sourced<V>?, _ what: String) -> Sourced<V>? {
            if let m = mine, let t = theirs {
                overridden.append("\(what) of \(t.source) not used: \(m.source) sets it")
                return m
            }
            return mine ?? theirs
        }
        out.hostname = pick(hostname, other.hostname, "hostname")
        out.wifi = pick(wifi, other.wifi, "Wi-Fi")
        out.timezone = pick(timezone, other.timezone, "timezone")
        if address == nil && gateway == nil && dns == nil {
            (out.address, out.gateway, out.dns) = (other.address, other.gateway, other.dns)
        } else if let t = other.address {
            overridden.append("address of \(t.source) not used: \(address?.source.file ?? "the other file") sets the address")
        }
        let mine = Set(sshKeys.map(\.value.base64))
        out.sshKeys = sshKeys + other.sshKeys.filter { !mine.contains($0.value.base64) }
        return (out, overridden)
    }
}

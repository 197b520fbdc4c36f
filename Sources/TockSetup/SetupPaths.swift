/// Where the setup reads and writes: the image's paths, or a directory
/// tree in a test.
public struct SetupPaths: Sendable {
    public var boot = "/boot/firmware"
    public var keep = "/data/setup"
    public var run = "/run/tock-image"
    public var imageNetwork = "/etc/systemd/network"
    public var runNetwork = "/run/systemd/network"
    public var zoneinfo = "/usr/share/zoneinfo"
    /// The kernel's network devices: a Wi-Fi one has `wireless/` (cfg80211).
    public var sysNet = "/sys/class/net"
    /// Directories the services need on /data, made at each boot.
    public var dataDirectories = ["/data/state/tock", "/data/state/tock-web", "/data/state/timesync", "/data/ssh"]

    public init() {}

    /// Every path under `root` (a test's directory).
    public init(root: String) {
        boot = root + boot
        keep = root + keep
        run = root + run
        imageNetwork = root + imageNetwork
        runNetwork = root + runNetwork
        sysNet = root + sysNet
        zoneinfo = "/usr/share/zoneinfo"
        dataDirectories = dataDirectories.map { root + $0 }
    }

    public var setupFile: String { "\(boot)/tock-setup.txt" }
    public var preseedFile: String { "\(boot)/rpi-preseed.toml" }
    public var config: String { "\(boot)/tock/config.yaml" }
    /// The MQTT password on the card (its first line), kept on /data and
    /// linked at `mqttPasswordInUse`, which the card's config.yaml names.
    public var mqttPassword: String { "\(boot)/tock/mqtt-password" }
    public var mqttPasswordInUse: String { "\(run)/mqtt-password" }
    public var log: String { "\(boot)/tock/setup-log.txt" }
    public var errorCode: String { "\(run)/error-code" }
    /// The setup hotspot's name and passphrase, made once (`HotspotIdentity`).
    public var hotspotIdentity: String { "\(keep)/hotspot.txt" }
    /// The Wi-Fi chosen on the hotspot's page (`WifiRequest`).
    public var pageWifi: String { "\(keep)/wifi-from-page.txt" }
    /// The boot partition's Wi-Fi as `WifiRequest.fingerprint` (hex), for the page's copy.
    public var filesWifi: String { "\(run)/wifi-files" }
    /// What the boot partition says of the hotspot, for the owner.
    public var hotspotCard: String { "\(boot)/tock/hotspot.txt" }
    static let networkFiles = ["20-wired.network", "25-wireless.network"]
}

/// What the setup asks of the system beyond its own files.
public protocol SetupSystem {
    /// `tock config check FILE`: whether it passed, and what it printed.
    func checkConfig(_ path: String) -> (passed: Bool, output: String)
    /// Set the kernel's host name.
    func setHostname(_ name: HostName)
    /// Make the SSH host key unless a whole one is there.
    func ensureHostKey(comment: String)
    /// Write the log on the boot partition (mounted read-only but for this write).
    func writeBootLog(_ text: String, to path: String)
}

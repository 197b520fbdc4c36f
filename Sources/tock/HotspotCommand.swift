import ArgumentParser
import Foundation
import Glibc
import TockControl
import TockCore
import TockLinux
import TockSetup

/// `tock setup hotspot`: the image's network watch (tock-hotspot.service,
/// root). Once a second it looks at the addresses, the cable and the
/// radio and lets `HotspotPolicy` decide; it switches wpa_supplicant
/// between the configured network and the hotspot, starts and stops the
/// page (tock-hotspot-page.service, tock-web as its own user) and takes
/// the page's request from the spool directory, checked by `WifiRequest`
/// before anything is kept (docs/raspberry-pi.md, "No network: the setup
/// hotspot").
struct HotspotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hotspot",
        abstract: "Open the setup hotspot when no network answers and take the Wi-Fi chosen on its page (tock-hotspot.service).")

    @Option(help: "The Wi-Fi interface.") var interface = "wlan0"
    @Option(help: "Where the page leaves its request.") var spool = "/run/tock-hotspot"
    @Option(help: "Seconds with no address before the hotspot opens, with Wi-Fi set or a cable in.") var wait = 90
    @Option(help: "The same with no Wi-Fi set and no cable.") var settle = 15
    @Option(help: "Seconds of hotspot with no device on it before the Wi-Fi is tried again.") var retry = 300
    @Option(help: "Seconds of hotspot at most, with a device on it, while there is a network to try.") var hold = 1800
    @OptionGroup var socket: SocketOption

    func run() throws {
        var timing = HotspotPolicy.Timing()
        timing.wait = .seconds(wait)
        timing.settle = .seconds(settle)
        timing.retry = .seconds(retry)
        timing.hold = .seconds(hold)
        let clock = SystemClock()
        let radio = HotspotRadio(interface: interface, spool: spool, socket: socket)
        var policy = HotspotPolicy(timing: timing, now: clock.now().monotonic)
        HotspotRadio.log("watching \(interface): the hotspot opens after \(wait) s with no address (\(settle) s with no Wi-Fi set and no cable)")
        var last = policy.state
        while true {
            var o = radio.observe(open: policy.isOpen)
            if policy.isOpen { o.newSetting = radio.takeRequest() }
            let action = policy.step(o, now: clock.now().monotonic)
            switch action {
            case .open?: radio.open()
            case .join?: radio.join()
            case nil: break
            }
            if policy.state != last, action == nil {
                HotspotRadio.log("\(policy.state)".replacingOccurrences(of: "TockCore.", with: "") + " (\(o))")
            }
            last = policy.state
            Glibc.sleep(1)
        }
    }
}

/// The radio and the files around it, as `tock setup hotspot` drives them.
struct HotspotRadio {
    let interface: String
    let spool: String
    let socket: SocketOption
    let paths = SetupPaths()
    var wpaConf: String { "\(paths.run)/wpa_supplicant-\(interface).conf" }
    /// For the page: the networks heard before the hotspot opened.
    var networksFile: String { "\(paths.run)/hotspot-networks" }
    /// While open: its name and address (for the display; not the passphrase).
    var stateFile: String { "\(paths.run)/hotspot" }
    static let page = "tock-hotspot-page.service"

    static func log(_ s: String) { FileHandle.standardError.write(Data("tock-hotspot: \(s)\n".utf8)) }

    func wpa(_ args: String...) -> (status: Int32, output: String) {
        LinuxSetupSystem.run("/usr/sbin/wpa_cli", ["-p", "/run/wpa_supplicant", "-i", interface] + args)
    }

    func observe(open: Bool) -> HotspotPolicy.Observation {
        var o = HotspotPolicy.Observation()
        var list: UnsafeMutablePointer<ifaddrs>?
        if getifaddrs(&list) == 0 {
            var p = list
            while let a = p?.pointee {
                defer { p = a.ifa_next }
                guard let sa = a.ifa_addr, sa.pointee.sa_family == sa_family_t(AF_INET) else { continue }
                let name = String(cString: a.ifa_name)
                if name == "lo" || (open && name == interface) { continue }
                let ip = sa.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt32(bigEndian: $0.pointee.sin_addr.s_addr) }
                if ip >> 24 == 127 || ip >> 16 == 0xA9FE { continue }
                o.hasAddress = true
            }
            freeifaddrs(list)
        }
        let fm = FileManager.default
        for name in (try? fm.contentsOfDirectory(atPath: "/sys/class/net")) ?? [] where name != "lo" && name != interface {
            let dir = "/sys/class/net/\(name)"
            guard fm.fileExists(atPath: "\(dir)/device"), !fm.fileExists(atPath: "\(dir)/phy80211"), !fm.fileExists(atPath: "\(dir)/wireless") else { continue }
            if fm.contents(atPath: "\(dir)/carrier").map({ $0.first == UInt8(ascii: "1") }) == true { o.carrier = true }
        }
        o.wifiDevice = fm.fileExists(atPath: "/sys/class/net/\(interface)/phy80211")
        let conf = fm.contents(atPath: wpaConf).map { String(decoding: $0, as: UTF8.self) } ?? ""
        o.wifiConfigured = conf.components(separatedBy: "network={").count - conf.components(separatedBy: "  mode=2\n").count >= 1
        if open {
            o.clients = wpa("all_sta").output.split(separator: "\n").filter { $0.count == 17 && $0.filter { $0 == ":" }.count == 5 }.count
        }
        return o
    }

    /// The page's request, if one is there: taken (removed), checked, kept
    /// on /data and applied. True when a setting was taken.
    func takeRequest() -> Bool {
        let path = "\(spool)/request"
        guard let bytes = Self.readRegular(path, limit: WifiRequest.limit + 1) else { return false }
        unlink(path)
        switch WifiRequest.parse(bytes) {
        case .failure(let e):
            Self.log("the page's request is refused: \(e)")
            return false
        case .success(let (w, _)):
            let files = FileManager.default.contents(atPath: paths.filesWifi)
                .flatMap { WifiRequest.hex64($0.prefix(16)) } ?? WifiRequest.fingerprint(nil)
            let tmp = paths.pageWifi + ".tmp"
            unlink(tmp)
            guard FileManager.default.createFile(atPath: tmp, contents: Data(WifiRequest.text(w, replaces: files).utf8),
                                                 attributes: [.posixPermissions: 0o600]), rename(tmp, paths.pageWifi) == 0 else {
                Self.log("cannot keep the page's Wi-Fi in \(paths.pageWifi): errno \(errno)")
                return false
            }
            Self.log("the page chose Wi-Fi \(VisibleText.quoted(w.ssid, limit: 32)); applying the setup again")
            let (report, _) = SetupApply(system: LinuxSetupSystem(), now: SetupCommand.clock()).run()
            for line in report.split(separator: "\n") { Self.log("setup: \(line)") }
            return true
        }
    }

    /// A regular file's first `limit` bytes, never following a link or
    /// waiting on a FIFO the page's user might leave there.
    static func readRegular(_ path: String, limit: Int) -> [UInt8]? {
        let fd = Glibc.open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { return nil }
        var out = [UInt8](repeating: 0, count: limit)
        var n = 0
        while n < limit {
            let r = out.withUnsafeMutableBytes { read(fd, $0.baseAddress! + n, limit - n) }
            if r <= 0 { break }
            n += r
        }
        return Array(out.prefix(n))
    }

    func open() {
        // The networks around, heard before the radio turns into the hotspot.
        _ = wpa("scan")
        Glibc.sleep(5)
        let heard = ScannedNetwork.parse(scanResults: Array(wpa("scan_results").output.utf8))
        write(ScannedNetwork.file(heard), to: networksFile)
        let r = wpa("select_network", "0")
        Self.log("no network answers: opening the setup hotspot (\(heard.count) networks heard; wpa_cli: \(r.output.trimmingCharacters(in: .whitespacesAndNewlines)))")
        for _ in 0..<15 where !wpa("status").output.contains("mode=AP") { Glibc.sleep(1) }
        _ = LinuxSetupSystem.run("/usr/bin/networkctl", ["reconfigure", interface])
        let id = FileManager.default.contents(atPath: paths.hotspotIdentity).flatMap { HotspotIdentity.parse([UInt8]($0)) }
        write("ssid=\(id.map { String(decoding: $0.ssid, as: UTF8.self) } ?? "")\naddress=\(HotspotIdentity.address)\n", to: stateFile)
        let s = LinuxSetupSystem.run("/usr/bin/systemctl", ["start", Self.page])
        if s.status != 0 { Self.log("systemctl start \(Self.page): \(s.output)") }
        // The display's hook: a notice while it opens (tock may not run: no matter).
        _ = try? send(.notice(text: "HotSPot", seconds: 300), socket: socket)
    }

    func join() {
        _ = LinuxSetupSystem.run("/usr/bin/systemctl", ["stop", Self.page])
        unlink(stateFile)
        // A restart reads the configuration again: the hotspot's network is
        // disabled there, the configured one is joined.
        let r = LinuxSetupSystem.run("/usr/bin/systemctl", ["restart", "wpa_supplicant@\(interface).service"])
        Self.log("closing the setup hotspot (if open) and joining the configured network\(r.status == 0 ? "" : ": \(r.output)")")
        _ = LinuxSetupSystem.run("/usr/bin/networkctl", ["reconfigure", interface])
        _ = try? send(.noticeEnd, socket: socket)
    }

    func write(_ text: String, to path: String) {
        let tmp = path + ".tmp"
        unlink(tmp)
        guard FileManager.default.createFile(atPath: tmp, contents: Data(text.utf8), attributes: [.posixPermissions: 0o644]) else { return }
        rename(tmp, path)
    }
}

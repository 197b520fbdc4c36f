import ArgumentParser
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
            case .open?:
                if !radio.open() {
                    HotspotRadio.log("the radio did not become the hotspot; joining the configured network again, the hotspot tried again after the wait")
                    radio.join()
                    policy.openFailed(now: clock.now().monotonic)
                }
            case .join?: radio.join()
            case nil: break
            }
            if policy.state != last, action == nil {
                HotspotRadio.log("\(policy.state) (\(o))")
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

    static func log(_ s: String) {
        let line = Array("tock-hotspot: \(s)\n".utf8)
        _ = line.withUnsafeBytes { Glibc.write(2, $0.baseAddress, $0.count) }
    }

    static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// A file's bytes (a regular file, no link followed), nil when absent or unreadable.
    static func contents(_ path: String, limit: Int = 1 << 16) -> [UInt8]? { (try? DurableFile.read(path, limit: limit)) ?? nil }

    static func names(in directory: String) -> [String] {
        guard let d = opendir(directory) else { return [] }
        defer { closedir(d) }
        var out: [String] = []
        while let e = readdir(d) {
            let name = withUnsafeBytes(of: e.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { out.append(name) }
        }
        return out
    }

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
        for name in Self.names(in: "/sys/class/net") where name != "lo" && name != interface {
            let dir = "/sys/class/net/\(name)"
            guard Self.exists("\(dir)/device"), !Self.exists("\(dir)/phy80211"), !Self.exists("\(dir)/wireless") else { continue }
            // sysfs attributes are read with read(2) like any file (their size shows as 4096).
            let fd = Glibc.open("\(dir)/carrier", O_RDONLY | O_CLOEXEC)
            if fd >= 0 {
                var c: UInt8 = 0
                if read(fd, &c, 1) == 1, c == UInt8(ascii: "1") { o.carrier = true }
                close(fd)
            }
        }
        o.wifiDevice = Self.exists("/sys/class/net/\(interface)/phy80211")
        // A network besides the hotspot's (the one with mode=2) in the file `tock setup apply` wrote.
        let conf = (Self.contents(wpaConf) ?? []).split(separator: 0x0A)
        o.wifiConfigured = conf.filter { $0.elementsEqual("network={".utf8) }.count - conf.filter { $0.elementsEqual("  mode=2".utf8) }.count >= 1
        if open {
            o.clients = wpa("all_sta").output.split(separator: "\n").filter { $0.count == 17 && $0.filter { $0 == ":" }.count == 5 }.count
        }
        return o
    }

    /// The page's request, if one is there: taken (removed), checked, kept
    /// on /data and applied. True when a setting was taken.
    func takeRequest() -> Bool {
        let path = "\(spool)/request"
        guard Self.exists(path) else { return false }
        // No link followed, no FIFO waited on, at most the limit: whatever
        // the page's user leaves there.
        let read = Result { () throws(FileError) in try DurableFile.read(path, limit: WifiRequest.limit) }
        unlink(path)
        guard case .success(let got?) = read else {
            if case .failure(let e) = read { Self.log("the page's request is refused: \(e)") }
            return false
        }
        switch WifiRequest.parse(got) {
        case .failure(let e):
            Self.log("the page's request is refused: \(e)")
            return false
        case .success(let (w, _)):
            let files = Self.contents(paths.filesWifi).flatMap { WifiRequest.hex64($0.prefix(16)) } ?? WifiRequest.fingerprint(nil)
            do throws(FileError) {
                try DurableFile.replace(paths.pageWifi, with: Array(WifiRequest.text(w, replaces: files).utf8))
                chmod(paths.pageWifi, 0o600)  // the passphrase: root's only
            } catch {
                Self.log("cannot keep the page's Wi-Fi in \(paths.pageWifi): \(error)")
                return false
            }
            Self.log("the page chose Wi-Fi \(VisibleText.quoted(w.ssid, limit: 32)); applying the setup again")
            let (report, _) = SetupApply(system: LinuxSetupSystem(), now: SetupCommand.clock()).run()
            for line in report.split(separator: "\n") { Self.log("setup: \(line)") }
            return true
        }
    }

    /// False when the radio did not become the access point within 15 s.
    func open() -> Bool {
        // The networks around, heard before the radio turns into the hotspot.
        _ = wpa("scan")
        Glibc.sleep(5)
        let heard = ScannedNetwork.parse(scanResults: Array(wpa("scan_results").output.utf8))
        write(ScannedNetwork.file(heard), to: networksFile)
        let r = wpa("select_network", "0")
        Self.log("no network answers: opening the setup hotspot (\(heard.count) networks heard; wpa_cli: \(r.output.split(separator: "\n").joined(separator: " ")))")
        var ap = false
        for _ in 0..<15 {
            let status = wpa("status").output.split(separator: "\n")
            if status.contains("mode=AP") && status.contains("wpa_state=COMPLETED") { ap = true; break }
            Glibc.sleep(1)
        }
        guard ap else { return false }
        _ = LinuxSetupSystem.run("/usr/bin/networkctl", ["reconfigure", interface])
        let id = Self.contents(paths.hotspotIdentity).flatMap { HotspotIdentity.parse($0) }
        write("ssid=\(id.map { String(decoding: $0.ssid, as: UTF8.self) } ?? "")\naddress=\(HotspotIdentity.address)\n", to: stateFile)
        let s = LinuxSetupSystem.run("/usr/bin/systemctl", ["start", Self.page])
        if s.status != 0 { Self.log("systemctl start \(Self.page): \(s.output)") }
        // The display's hook: a notice while it opens (tock may not run: no matter).
        _ = try? send(.notice(text: HotspotIdentity.notice, seconds: 300), socket: socket)
        return true
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

    /// For the page's user to read: world-readable.
    func write(_ text: String, to path: String) {
        guard (try? DurableFile.replace(path, with: Array(text.utf8))) != nil else { return Self.log("cannot write \(path)") }
        chmod(path, 0o644)
    }
}

import Glibc
import TockConfig
import TockCore
import TockLinux

/// `tock setup apply`: the boot partition's files checked, what passes kept
/// on /data, the settings in force (the last good ones where a file has a
/// mistake) applied for this boot, the report written to the log and the
/// first mistake's code left for the display. A mistake never takes away
/// a way in: a file with one is not applied at all, so a broken address
/// line leaves DHCP as it was.
public struct SetupApply {
    public var paths: SetupPaths
    public var limits: SetupLimits
    public var system: SetupSystem
    public var now: () -> UInt64

    /// The most of the log: a few screens, whatever the files hold.
    public static let logLimit = 64 * 1024

    public init(paths: SetupPaths = SetupPaths(), limits: SetupLimits = SetupLimits(), system: SetupSystem, now: @escaping () -> UInt64) {
        self.paths = paths
        self.limits = limits
        self.system = system
        self.now = now
    }

    /// Nil when the zone database has `name` and its file is a zone (TZif,
    /// as tock reads it); else why not, in a few words.
    public func zoneCheck(_ name: String) -> String? {
        guard FileSystem.exists("\(paths.zoneinfo)/\(name)") else { return "no such name in \(paths.zoneinfo)" }
        do { _ = try ZoneFile.named(name, environment: ["TZDIR": paths.zoneinfo]); return nil } catch { return error.description }
    }

    /// At most `limits.bytes + 1` bytes of a file, or nil when there is none.
    public func readBounded(_ path: String) -> [UInt8]? {
        (try? DurableFile.read(path, limit: limits.bytes, followingLinks: true, cut: true)) ?? nil
    }

    enum Kind { case setup, preseed }

    func reading(_ kind: Kind, _ bytes: [UInt8], name: String) -> SetupReading {
        switch kind {
        case .setup: SetupFile(name: name, limits: limits, zone: zoneCheck, now: now).read(bytes)
        case .preseed: PreseedFile(name: name, limits: limits, zone: zoneCheck).read(bytes)
        }
    }

    /// One file: its settings if it passes (and a copy kept), else the kept
    /// copy's; its lines of the report; its mistakes' first code.
    func take(_ kind: Kind, path: String, keep: String, report: inout [String]) -> (SetupSettings, SetupCode?) {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let bytes = readBounded(path) else {
            FileSystem.remove(keep)
            if kind == .setup { report.append("OK no \(path): defaults (hostname tock, Ethernet by DHCP, UTC, no SSH key)") }
            return (SetupSettings(), nil)
        }
        let r = reading(kind, bytes, name: name)
        guard let code = r.code else {
            write(Array(bytes), to: keep, mode: 0o600)  // it may hold the Wi-Fi passphrase: root's only
            report.append("OK \(path) applied")
            report += r.notes.map { "note: \($0)" }
            return (r.settings, nil)
        }
        report.append("ERROR \(code.rawValue) in \(path) (not applied; the box keeps its last good setup):")
        report += r.notes.map { "note: \($0)" }
        report.append(r.report)
        let kept = readBounded(keep).map { reading(kind, $0, name: name) }
        return (kept?.code == nil ? kept?.settings ?? SetupSettings() : SetupSettings(), code)
    }

    @discardableResult
    public func run() -> (report: String, code: SetupCode?) {
        for d in [paths.run, paths.keep, paths.runNetwork] + paths.dataDirectories { FileSystem.makeDirectories(d) }
        var report: [String] = []
        let (setup, setupCode) = take(.setup, path: paths.setupFile, keep: "\(paths.keep)/tock-setup.txt", report: &report)
        let (preseed, preseedCode) = take(.preseed, path: paths.preseedFile, keep: "\(paths.keep)/rpi-preseed.toml", report: &report)
        var (s, overridden) = setup.over(preseed)
        report += overridden.map { "note: \($0) (tock-setup.txt wins, setting by setting)" }
        s.wifi = pageWifi(over: s.wifi, report: &report)
        var code = setupCode ?? preseedCode
        // The MQTT password first: the configuration's check reads it.
        takeMQTTPassword(report: &report)
        // tock's configuration, checked by tock itself.
        if FileSystem.exists(paths.config) {
            let (passed, output) = system.checkConfig(paths.config)
            if passed, let data = FileSystem.contents(paths.config) {
                write(data, to: "\(paths.keep)/config.yaml", mode: 0o644)  // the tock user reads it
                report.append("OK \(paths.config) applied")
            } else {
                report.append("ERROR Er10 in \(paths.config) (not applied; tock runs with the last good one, else the defaults):")
                let cut = LogText.escape(Array(output.utf8), limit: 8192, keepNewlines: true)
                report += cut.split(separator: "\n").map { "    \($0)" }
                report.append("    fix: correct the line named above (every key is explained in the file's comments)")
                code = code ?? .config
            }
        }
        link(FileSystem.exists("\(paths.keep)/config.yaml") ? "\(paths.keep)/config.yaml" : "/etc/tock/config.yaml", at: "\(paths.run)/config.yaml")
        writeBuses(config: "\(paths.run)/config.yaml", report: &report)
        if let problem = applySettings(s) {
            report += ["ERROR \(SetupCode.wifi.rawValue) Wi-Fi: no key made from the passphrase: \(problem.reason)", "    fix: \(problem.fix)"]
            code = code ?? .wifi
        }
        report.append("in use: \(s.summary(wifi: wifiSaid(s)))")
        if let code { write(Array((code.rawValue + "\n").utf8), to: paths.errorCode, mode: 0o644) } else { FileSystem.remove(paths.errorCode) }
        var text = report.joined(separator: "\n")
        if text.utf8.count > Self.logLimit {
            text = String(decoding: text.utf8.prefix(Self.logLimit - 100), as: UTF8.self) + "\n...(the log is cut at \(Self.logLimit) bytes)"
        }
        if (FileSystem.contents(paths.log).map { String(decoding: $0, as: UTF8.self) }) != text + "\n" {
            system.writeBootLog(text + "\n", to: paths.log)
        }
        return (text, code)
    }

    /// The Wi-Fi as far as this boot knows it when the log is written,
    /// which is before the network starts: configured, not yet joined (the
    /// address scrolls across the display once it is); or no Wi-Fi device
    /// yet, the setting kept for when one appears.
    func wifiSaid(_ s: SetupSettings) -> String? {
        guard let w = s.wifi else { return nil }
        let name = "\"\(VisibleText.visible(w.value.ssid, limit: 32))\""
        let devices = FileSystem.list(paths.sysNet) ?? []
        if devices.contains(where: { FileSystem.exists("\(paths.sysNet)/\($0)/wireless") }) {
            return "\(name) (configured, not yet joined: this log is written before the network starts; the display scrolls the address once it has one)"
        }
        return "none (no Wi-Fi device at this point of the boot: \(name) is kept for when one appears)"
    }

    /// tock-buses.txt on the card (`FirmwareBuses`), from the
    /// configuration in use; written only when it changes, and then said:
    /// the firmware reads it at the next power-on.
    func writeBuses(config: String, report: inout [String]) {
        let hardware = (try? Configuration.load(path: config))?.hardware ?? HardwareConfig()
        let text = FirmwareBuses.text(for: hardware)
        let path = "\(paths.boot)/\(FirmwareBuses.file)"
        let old = FileSystem.contents(path).map { String(decoding: $0, as: UTF8.self) }
        let lines = FirmwareBuses.lines(for: hardware)
        // No file and no bus needed: nothing to say (a missing include is no bus).
        guard old != text, old != nil || !lines.isEmpty else { return }
        system.writeBootLog(text, to: path)
        report.append("note: \(FirmwareBuses.file) now \(lines.isEmpty ? "enables no bus" : "says " + lines.joined(separator: ", ")): the firmware reads it at power-on, so switch the box off and on once")
    }

    /// tock/mqtt-password on the card: its first line kept on /data
    /// (root and the tock group only) and linked where the card's
    /// config.yaml names it; gone from the card, gone from the box.
    func takeMQTTPassword(report: inout [String]) {
        let kept = "\(paths.keep)/mqtt-password"
        guard let bytes = readBounded(paths.mqttPassword) else {
            FileSystem.remove(kept)
            FileSystem.remove(paths.mqttPasswordInUse)
            return
        }
        var line = Array(bytes.prefix { $0 != UInt8(ascii: "\n") })
        if line.last == UInt8(ascii: "\r") { line.removeLast() }  // written on Windows
        if line.starts(with: [0xEF, 0xBB, 0xBF]) { line.removeFirst(3) }  // Notepad's BOM
        guard !line.isEmpty, bytes.count <= 4096 else {
            report.append("note: \(paths.mqttPassword) \(line.isEmpty ? "has an empty first line" : "is over 4 KiB"): not used (write the password alone on the first line)")
            return
        }
        write(Array(line + [UInt8(ascii: "\n")]), to: kept, mode: 0o640)
        if let group = getgrnam("tock") { _ = chown(kept, 0, group.pointee.gr_gid) }
        link(kept, at: paths.mqttPasswordInUse)
        report.append("OK \(paths.mqttPassword) kept (\(line.count) bytes; tock reads it as \(paths.mqttPasswordInUse))")
    }

    /// Applies the settings; what could not be (the Wi-Fi key, when
    /// libcrypto is missing: wpa_supplicant's file is then left as it was).
    func applySettings(_ s: SetupSettings) -> PBKDF2.Unavailable? {
        var problem: PBKDF2.Unavailable?
        system.setHostname(s.hostname?.value ?? .tock)
        link("\(paths.zoneinfo)/\(s.timezone?.value ?? "UTC")", at: "\(paths.run)/localtime")
        write(Array(s.sshKeys.map { "\($0.value)\n" }.joined().utf8), to: "\(paths.keep)/authorized_keys", mode: 0o644)
        system.ensureHostKey(comment: "root@\(s.hostname?.value ?? .tock)")
        do {
            write(Array(try NetworkFiles.wpaSupplicant(s.wifi?.value, hotspot: hotspotIdentity()).utf8), to: "\(paths.run)/wpa_supplicant-wlan0.conf", mode: 0o600)
        } catch {
            problem = error
        }
        for f in SetupPaths.networkFiles {
            let out = "\(paths.runNetwork)/\(f)"
            if let base = FileSystem.contents("\(paths.imageNetwork)/\(f)"),
               let text = NetworkFiles.staticNetwork(base: String(decoding: base, as: UTF8.self), s) {
                write(Array(text.utf8), to: out, mode: 0o644)
            } else {
                FileSystem.remove(out)
            }
        }
        write(Array((s.summary + "\n").utf8), to: "\(paths.run)/applied", mode: 0o644)
        return problem
    }

    /// Written under another name and renamed into place: a power cut
    /// leaves the old file or the new, never half of one.
    func write(_ data: [UInt8], to path: String, mode: Int) {
        let tmp = path + ".tmp"
        FileSystem.remove(tmp)
        guard FileSystem.create(tmp, data, mode: mode) else { return }
        _ = rename(tmp, path)
    }

    func link(_ target: String, at path: String) {
        let tmp = path + ".tmp"
        FileSystem.remove(tmp)
        guard symlink(target, tmp) == 0 else { return }
        _ = rename(tmp, path)
    }
}

extension SetupApply {
    /// The Wi-Fi in force: the page's (setup hotspot) over the boot
    /// partition's, while the boot partition's is the one the page's
    /// replaced; a Wi-Fi changed on the card since wins, and the page's
    /// copy is removed. The boot partition's is left in `filesWifi` for
    /// the page's next copy.
    func pageWifi(over files: Sourced<WifiNetwork>?, report: inout [String]) -> Sourced<WifiNetwork>? {
        let print = WifiRequest.fingerprint(files?.value)
        write(Array((WifiRequest.hex64(print) + "\n").utf8), to: paths.filesWifi, mode: 0o644)
        guard let bytes = readBounded(paths.pageWifi) else { return files }
        switch WifiRequest.parse(bytes) {
        case .success(let (w, replaces)) where replaces == print:
            report.append("OK Wi-Fi \(VisibleText.quoted(w.ssid, limit: 32)) chosen on the setup hotspot's page (\(paths.pageWifi)) is used\(files.map { " in place of \($0.source)'s" } ?? "")")
            return Sourced(w, SetupSource(file: "the setup hotspot's page", line: 1))
        case .success:
            report.append("note: the Wi-Fi on the boot partition changed since one was chosen on the setup hotspot's page: the boot partition's is used")
        case .failure(let e):
            report.append("note: \(paths.pageWifi) is not used: \(e)")
        }
        FileSystem.remove(paths.pageWifi)
        return files
    }

    /// The hotspot's name and passphrase, made the first time and kept;
    /// tock/hotspot.txt on the boot partition says them.
    func hotspotIdentity() -> HotspotIdentity {
        let id: HotspotIdentity
        if let bytes = readBounded(paths.hotspotIdentity), let kept = HotspotIdentity.parse(bytes) {
            id = kept
        } else {
            var random = SystemRandomNumberGenerator()
            id = HotspotIdentity.make(using: &random)
            write(Array(id.text.utf8), to: paths.hotspotIdentity, mode: 0o600)
        }
        if FileSystem.contents(paths.hotspotCard).map({ String(decoding: $0, as: UTF8.self) }) != id.card {
            system.writeBootLog(id.card, to: paths.hotspotCard)
        }
        return id
    }
}

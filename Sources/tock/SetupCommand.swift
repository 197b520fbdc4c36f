import ArgumentParser
import TockLinux
import Glibc
import SystemPackage
import TockControl
import TockSetup

/// `tock setup`: the image's first-boot (and every-boot) setup from the
/// boot partition (docs/raspberry-pi.md), run by tock-setup.service and
/// tock-setup-notice.service.
struct SetupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "setup",
        abstract: "The box's setup from the boot partition: tock-setup.txt and Raspberry Pi Imager's rpi-preseed.toml.",
        subcommands: [Apply.self, Check.self, Notice.self, HotspotCommand.self]
    )

    /// Nanoseconds on the monotonic clock since the command began.
    static func clock() -> () -> UInt64 {
        let start = ContinuousClock.now
        return {
            let d = (ContinuousClock.now - start).components
            return UInt64(max(0, d.seconds)) * 1_000_000_000 + UInt64(max(0, d.attoseconds) / 1_000_000_000)
        }
    }

    struct Apply: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "apply",
            abstract: "Check the boot partition's setup and tock/config.yaml, keep what passes on /data/setup, apply it for this boot.",
            discussion: "Writes tock/setup-log.txt on the boot partition and, for a mistake, its code (Er01-Er06, Er10) for `tock setup notice`.")

        func run() throws {
            let (report, _) = SetupApply(system: LinuxSetupSystem(), now: SetupCommand.clock()).run()
            let lines = report.split(separator: "\n", omittingEmptySubsequences: false).map { "tock-setup: \($0)\n" }.joined()
            StandardStream.error.write(lines)
        }
    }

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Check a setup file (tock-setup.txt, or rpi-preseed.toml by its name) and print every mistake; exit 1 when there is one.")

        @Argument(help: "The file (default /boot/firmware/tock-setup.txt).")
        var file: String = SetupPaths().setupFile

        func run() throws {
            let apply = SetupApply(system: LinuxSetupSystem(), now: SetupCommand.clock())
            guard let bytes = apply.readBounded(file) else { throw ValidationError("cannot read \(file)") }
            let name = FilePath(file).lastComponent?.string ?? file
            let r = file.hasSuffix(".toml")
                ? PreseedFile(name: name, zone: apply.zoneCheck).read(bytes)
                : SetupFile(name: name, zone: apply.zoneCheck, now: SetupCommand.clock()).read(bytes)
            for n in r.notes { print("note: \(n)") }
            if let code = r.code {
                StandardStream.error.write("ERROR \(code.rawValue)\n\(r.report)\n")
                throw ExitCode(1)
            }
            print("\(file): OK (\(r.settings.summary))")
        }
    }

    struct Notice: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "notice",
            abstract: "Show the setup's error code on tock's display for 300 s (nothing when there is none).")

        @OptionGroup var socket: SocketOption

        func run() throws {
            guard let data = FileSystem.contents(SetupPaths().errorCode) else { return }
            let code = String(decoding: data, as: UTF8.self).trimmingSpaces
            guard SetupCode(rawValue: code) != nil else { return }
            _ = try readReply(send(.notice(text: code, seconds: 300), socket: socket))
        }
    }
}

/// The setup's work outside its own files, on the image.
struct LinuxSetupSystem: SetupSystem {
    /// This same program's `config check`, so the file is checked by the tock that will read it.
    func checkConfig(_ path: String) -> (passed: Bool, output: String) {
        let me = FileSystem.linkTarget("/proc/self/exe") ?? "/usr/bin/tock"
        let r = Self.run(me, ["config", "check", path])
        return (r.status == 0, r.output)
    }

    /// sethostname(2); a HostName is at most 63 bytes, within HOST_NAME_MAX.
    func setHostname(_ name: HostName) {
        let bytes = Array(name.description.utf8)
        if sethostname(bytes.map { CChar(bitPattern: $0) }, bytes.count) != 0 {
            StandardStream.error.write("tock-setup: sethostname: errno \(errno)\n")
        }
    }

    /// Made under another name and moved into place, the public half
    /// first: a power cut during ssh-keygen leaves no key (made again at
    /// the next boot), never a truncated one that sshd cannot load.
    func ensureHostKey(comment: String) {
        let key = "/data/ssh/ssh_host_ed25519_key"
        if Self.run("/usr/bin/ssh-keygen", ["-y", "-f", key]).status == 0,
           (FileSystem.stamp(key + ".pub")?.size ?? 0) > 0 { return }
        for f in [key + ".new", key + ".new.pub"] { FileSystem.remove(f) }
        guard Self.run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", comment, "-f", key + ".new"]).status == 0 else { return }
        _ = rename(key + ".new.pub", key + ".pub")
        _ = rename(key + ".new", key)
    }

    /// Through boot-rw: the FAT is writable for this write only (the log,
    /// and tock-buses.txt).
    func writeBootLog(_ text: String, to path: String) {
        let tmp = "/run/tock-image/\(FilePath(path).lastComponent?.string ?? path)"
        FileSystem.remove(tmp)
        guard FileSystem.create(tmp, Array(text.utf8), mode: 0o644) else { return }
        let dir = FilePath(path).removingLastComponent().string
        _ = Self.run("/usr/lib/tock-image/boot-rw", ["sh", "-c", "mkdir -p \"$1\" && cp \"$2\" \"$3.tmp\" && mv \"$3.tmp\" \"$3\"", "log", dir, tmp, path])
    }

    static func run(_ path: String, _ arguments: [String]) -> (status: Int32, output: String) {
        Subprocess.run(path, arguments)
    }
}

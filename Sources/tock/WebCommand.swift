import ArgumentParser
import Glibc
import SystemPackage
import TockCore
import TockLinux
import TockSetup
import TockWeb

/// `tock-web`: the page and its API on the LAN, a client of the
/// appliance's control socket, run as its own unprivileged unit
/// (deploy/tock-web.service); `tock-web tokens` and `tock-web revoke ID`
/// list and revoke the paired browsers. The same program as `tock`, run
/// by that name (a link to it, `Main`).
struct TockWebCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tock-web",
        abstract: "The Tock page on the LAN, paired by a code on the box's display (docs/web.md).",
        subcommands: [Serve.self, Tokens.self, Revoke.self, Hotspot.self],
        defaultSubcommand: Serve.self)

    struct Common: ParsableArguments {
        @Option(help: "The paired browsers' tokens (a JSON file, mode 0600).")
        var tokens = "/var/lib/tock-web/tokens.json"
    }

    struct Serve: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "serve", abstract: "Serve the page (the default).")
        @Option(help: "Address to listen on: 0.0.0.0 (every IPv4 interface), :: (IPv6 too), 127.0.0.1 (this machine only).")
        var listen = "0.0.0.0"
        @Option(help: "TCP port (below 1024 only with CAP_NET_BIND_SERVICE, see deploy/tock-web.service).")
        var port: UInt16 = 8080
        @Option(help: "The appliance's control socket.")
        var socket = "/run/tock/control.sock"
        @OptionGroup var common: Common

        func run() throws {
            let link = ControlLink(socket: socket)
            let limits = HTTPLimits()
            // Blocking calls on the control socket, a few at once; the rest are refused at once.
            let gate = BoxGate(limit: limits.boxCalls)
            let clock = SystemClock()
            // The pairing guard beside the tokens, on the wall clock so that it outlives a reboot.
            let guardPath = FilePath(common.tokens).removingLastComponent().appending("pairing.json").string
            // What tock-web logs may quote a request (a path, a user agent):
            // escaped, its line breaks kept (`LogText`).
            let log: @Sendable (String) -> Void = { line in
                StandardStream.error.write("tock-web: \(LogText.escape(Array(line.utf8), limit: 4096, keepNewlines: true, backslash: false))\n")
            }
            let app = WebApp(tokens: TokenStore(path: common.tokens), box: { request in try gate.call { try link.send(request) } },
                             now: { Instant(nanoseconds: clock.now().wall.nanoseconds) },
                             pairingFile: PairingFile(path: guardPath),
                             log: log)
            let server = WebServer(app: app, link: link, limits: limits, log: log)
            do {
                let bound = try server.listen(host: listen, port: port)
                StandardStream.error.write("tock-web: serving http://\(listen.contains(":") ? "[\(listen)]" : listen):\(bound)/ for the box at \(socket)\n")
            } catch {
                throw ValidationError("cannot listen on \(listen) port \(port): \(error) (in use? below 1024 without CAP_NET_BIND_SERVICE? a numeric address?)")
            }
            // The command line's and start-up's code leaves the resident
            // set; serving maps back what it touches (`ImagePages`).
            ImagePages.releaseStartupPages()
            server.serve()
        }
    }

    /// The setup hotspot's page (tock-hotspot-page.service, started by
    /// `tock setup hotspot` while the hotspot is open): bound to the
    /// hotspot's interface alone, small limits, no control socket.
    struct Hotspot: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "hotspot", abstract: "Serve the setup hotspot's Wi-Fi page (docs/raspberry-pi.md).")
        @Option(help: "The hotspot's interface: only connections that come in on it are served.") var interface = "wlan0"
        @Option(help: "The box's address on the hotspot.") var listen = HotspotIdentity.address
        @Option(help: "TCP port (80 needs CAP_NET_BIND_SERVICE).") var port: UInt16 = 80
        @Option(help: "The networks heard before the hotspot opened (written by tock setup hotspot).") var networks = "/run/tock-image/hotspot-networks"
        @Option(help: "Where the chosen Wi-Fi is left for tock setup hotspot.") var spool = "/run/tock-hotspot"

        func run() throws {
            let log: @Sendable (String) -> Void = { line in
                StandardStream.error.write("tock-web hotspot: \(LogText.escape(Array(line.utf8), limit: 4096, keepNewlines: true, backslash: false))\n")
            }
            let server = WebServer(app: HotspotPage(networks: networks, spool: spool, address: listen, log: log), link: nil,
                                   limits: .hotspot, log: log)
            do {
                let bound = try server.listen(host: listen, port: port, device: interface)
                log("serving http://\(listen):\(bound)/ on \(interface)")
            } catch {
                throw ValidationError("cannot listen on \(listen) port \(port) on \(interface): \(error) (is the hotspot open?)")
            }
            server.serve()
        }
    }

    struct Tokens: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "tokens", abstract: "List the paired browsers.")
        @OptionGroup var common: Common

        func run() throws {
            let list: [TokenStore.Entry]
            do { list = try TokenStore(path: common.tokens).list() } catch { throw ValidationError(error.description) }
            if list.isEmpty { print("no paired browsers") }
            for e in list { print("\(e.id)  \(Self.localTime(e.created))  \(LogText(e.name))") }
        }

        /// `2026-11-26 18:06`, in this system's zone (glibc's: TZ, or
        /// /etc/localtime).
        static func localTime(_ seconds: Int64) -> String {
            var t = time_t(seconds)
            var parts = tm()
            guard localtime_r(&t, &parts) != nil else { return "\(seconds)" }
            var text = [CChar](repeating: 0, count: 32)
            let n = strftime(&text, text.count, "%Y-%m-%d %H:%M", &parts)
            return String(decoding: text[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }

    struct Revoke: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "revoke", abstract: "Revoke a paired browser's token (its id from tock-web tokens).")
        @Argument(help: "The token's id.") var id: String
        @OptionGroup var common: Common

        func run() throws {
            let found: Bool
            do { found = try TokenStore(path: common.tokens).revoke(id: id) } catch { throw ValidationError(error.description) }
            guard found else { throw ValidationError("no token \(id); tock-web tokens lists them") }
            print("revoked \(id)")
        }
    }
}

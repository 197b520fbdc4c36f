import TockLinux
import TockSetup

/// The setup hotspot's page (`tock-web hotspot`, docs/raspberry-pi.md):
/// the networks heard before the hotspot opened and a form for the Wi-Fi.
/// A setting that passes `WifiRequest.check` (the rules of tock-setup.txt)
/// is left in the spool directory as a `WifiRequest` for the root side
/// (`tock setup hotspot`), which checks it again before keeping it. No
/// script: plain HTML forms, any phone's browser.
public final class HotspotPage: WebSite, @unchecked Sendable {
    let networks: String
    let spool: String
    let address: String
    let log: @Sendable (String) -> Void

    public init(networks: String, spool: String, address: String = HotspotIdentity.address, log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.networks = networks
        self.spool = spool
        self.address = address
        self.log = log
    }

    public func isPaired(_ r: WebRequest) -> Bool { false }
    public func statusLine() -> [UInt8]? { nil }

    static let headers = [("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store"),
                          ("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'")]

    public func handle(_ r: WebRequest) -> WebReply {
        let host = r.headers["host"] ?? ""
        let ours = host == address || host == "\(address):80"
        switch (r.method, r.path) {
        case ("GET", "/"), ("HEAD", "/"):
            // A phone's captive-portal probe names another host: sent here.
            guard ours else { return redirect() }
            return page(status: 200, notice: nil)
        case ("POST", "/wifi"):
            // Only a form of this page: another site's page open in the same
            // browser (DNS rebinding, a cross-site form) is refused.
            guard ours, r.headers["origin"].map({ $0 == "http://\(address)" }) ?? true,
                  r.headers["sec-fetch-site"].map({ $0 == "same-origin" || $0 == "none" }) ?? true else {
                return WebReply(status: 403, headers: Self.headers, body: Array("<p>Refused: the form must come from this page, http://\(address)/</p>".utf8))
            }
            return take(r.body)
        case ("GET", _), ("HEAD", _):
            return redirect()
        default:
            return WebReply(status: 404, headers: Self.headers, body: Array("<p>Not here: open http://\(address)/</p>".utf8))
        }
    }

    func redirect() -> WebReply {
        WebReply(status: 302, headers: [("Location", "http://\(address)/"), ("Cache-Control", "no-store")])
    }

    /// The form's fields: `ssid_hex` (a network of the list) or `ssid`
    /// (typed), `passphrase`, `country`, `hidden`.
    func take(_ body: [UInt8]) -> WebReply {
        guard let f = Self.form(body) else { return page(status: 400, notice: .error("the form did not arrive whole; send it again")) }
        var ssid = f["ssid"] ?? []
        if let hex = f["ssid_hex"], !hex.isEmpty {
            guard let b = WifiRequest.bytes(hex: hex) else { return page(status: 400, notice: .error("the chosen network is not one of the list; choose again")) }
            ssid = b
        }
        let country = CountryCode((f["country"] ?? []).map { (0x61...0x7A).contains($0) ? $0 - 0x20 : $0 })
        if (f["country"] ?? []).count > 0 && country == nil {
            return page(status: 400, notice: .error("the country is a two-letter code, e.g. GB, DE or US"))
        }
        switch WifiRequest.check(ssid: ssid, passphrase: f["passphrase"], country: country, hidden: f["hidden"] == Array("yes".utf8)) {
        case .failure(let e):
            return page(status: 400, notice: .error(e.description))
        case .success(let w):
            do throws(FileError) {
                try DurableFile.replace("\(spool)/request", with: Array(WifiRequest.text(w).utf8))
            } catch {
                log("cannot write \(spool)/request: \(error)")
                return page(status: 500, notice: .error("the box could not keep the setting; try again"))
            }
            log("a Wi-Fi setting was sent for \(VisibleText.quoted(w.ssid, limit: 32))")
            return WebReply(status: 200, headers: Self.headers, body: Array(Self.frame("""
                <h1>Saved</h1>
                <p>The box now closes this hotspot and joins <b>\(Self.html(VisibleText.visible(w.ssid, limit: 32)))</b>.
                Your phone leaves the hotspot too: join your own network again.</p>
                <p>If the box cannot join within two minutes (a wrong password, a name misspelt),
                the hotspot opens again: join it and come back to this page.</p>
                """).utf8))
        }
    }

    enum Notice { case error(String) }

    func page(status: Int, notice: Notice?) -> WebReply {
        // Read anew for each page, at most 16 KiB (40 networks take under 4).
        let heard = ((try? DurableFile.read(networks, limit: 16 * 1024)) ?? nil).map { ScannedNetwork.read(file: $0) } ?? []
        var list = ""
        for (i, n) in heard.enumerated() {
            let name = Self.html(VisibleText.visible(n.ssid, limit: 32))
            list += "<label><input type=radio name=ssid_hex value=\(WifiRequest.hex(n.ssid))\(i == 0 ? " checked" : "")> \(name)"
                + " <small>\(n.signal) dBm\(n.secured ? "" : ", open")</small></label><br>\n"
        }
        if heard.isEmpty { list = "<p>No networks were heard before the hotspot opened: type the name below.</p>\n" }
        list += "<label><input type=radio name=ssid_hex value=\"\"\(heard.isEmpty ? " checked" : "")> another (type its name):</label>"
            + " <input name=ssid maxlength=32 autocomplete=off autocapitalize=none><br>\n"
        let error = notice.map { if case .error(let e) = $0 { "<p class=e>Not saved: \(Self.html(e)).</p>\n" } else { "" } } ?? ""
        return WebReply(status: status, headers: Self.headers, body: Array(Self.frame("""
            <h1>Tock: choose the Wi-Fi</h1>
            \(error)<form method=post action=/wifi>
            <fieldset><legend>Network</legend>
            \(list)<label><input type=checkbox name=hidden value=yes> the network is hidden (it does not show its name)</label>
            </fieldset>
            <p><label>Password <input name=passphrase type=password maxlength=64 autocomplete=off></label><br>
            <small>8 to 63 characters as the router shows them, or its 64-hex-digit key; empty for an open network.</small></p>
            <p><label>Country <input name=country maxlength=2 size=3 required placeholder=GB></label>
            <small>two letters: the radio may only use the channels allowed there</small></p>
            <p><button>Join this network</button></p>
            </form>
            <p><small>The list is of the networks the box heard just before it opened this hotspot.</small></p>
            """).utf8))
    }

    static func frame(_ body: String) -> String {
        """
        <!doctype html><html lang=en><meta charset=utf-8><meta name=viewport content="width=device-width,initial-scale=1">
        <title>Tock setup</title><style>body{font:16px sans-serif;margin:1em;max-width:32em}.e{color:#b00}label{line-height:2}</style>
        \(body)
        </html>

        """
    }

    static func html(_ s: String) -> String {
        var out = ""
        for c in s.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    /// application/x-www-form-urlencoded as bytes (`+` a space, `%HH` any
    /// byte); nil for a malformed escape or a field given twice.
    static func form(_ body: [UInt8]) -> [String: [UInt8]]? {
        var out: [String: [UInt8]] = [:]
        for pair in body.split(separator: UInt8(ascii: "&")) {
            let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            guard let k = decode(parts[0]), let v = decode(parts.count > 1 ? parts[1] : []) else { return nil }
            let key = String(decoding: k, as: UTF8.self)
            guard out[key] == nil else { return nil }
            out[key] = v
        }
        return out
    }

    static func decode(_ s: ArraySlice<UInt8>) -> [UInt8]? {
        var out: [UInt8] = []
        var i = s.startIndex
        while i < s.endIndex {
            switch s[i] {
            case UInt8(ascii: "+"): out.append(0x20)
            case UInt8(ascii: "%"):
                guard i + 2 < s.endIndex, let b = WifiRequest.bytes(hex: s[(i + 1)...(i + 2)]) else { return nil }
                out += b
                i += 2
            default: out.append(s[i])
            }
            i += 1
        }
        return out
    }
}

import Foundation
import Testing
import TockSetup
@testable import TockWeb

/// The setup hotspot's page: the list, the form, and what it refuses.
final class HotspotPageTests {
    let dir: String
    let page: HotspotPage

    init() throws {
        dir = NSTemporaryDirectory() + "tock-hotspot-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let heard = [ScannedNetwork(ssid: [0x3C, 0x62, 0x3E, 0x00, 0xFF, 0x22], signal: -40, secured: true),
                     ScannedNetwork(ssid: Array("Cafe".utf8), signal: -70, secured: false)]
        FileManager.default.createFile(atPath: dir + "/networks", contents: Data(ScannedNetwork.file(heard).utf8))
        page = HotspotPage(networks: dir + "/networks", spool: dir)
    }

    deinit { try? FileManager.default.removeItem(atPath: dir) }

    func post(_ body: String, headers: [String: String] = [:]) -> WebReply {
        page.handle(WebRequest(method: "POST", path: "/wifi", headers: ["host": "192.168.4.1"].merging(headers) { $1 }, body: Array(body.utf8)))
    }
    var request: String? { FileManager.default.contents(atPath: dir + "/request").map { String(decoding: $0, as: UTF8.self) } }
    func text(_ r: WebReply) -> String { String(decoding: r.body, as: UTF8.self) }

    @Test func theListIsEscaped() {
        let r = page.handle(WebRequest(method: "GET", path: "/", headers: ["host": "192.168.4.1"]))
        #expect(r.status == 200)
        #expect(text(r).contains("value=3c623e00ff22 checked> &lt;b&gt;&lt;NUL byte&gt;&lt;byte 0xFF&gt;&quot; <small>-40 dBm</small>"))
        #expect(!text(r).contains("<b>\u{0}"))
        #expect(text(r).contains("Cafe <small>-70 dBm, open</small>"))
        #expect(r.headers.contains { $0.0 == "Content-Security-Policy" })
    }

    /// Any byte of a listed name and any passphrase a router takes arrive exactly.
    @Test func aSettingIsLeftForTheRootSide() throws {
        let r = post("ssid_hex=3c623e00ff22&passphrase=correct%22horse+%5Cbattery&country=gb&hidden=yes")
        #expect(r.status == 200 && text(r).contains("Saved"))
        let (w, _) = try WifiRequest.parse(Array((request ?? "").utf8)).get()
        #expect(w.ssid == [0x3C, 0x62, 0x3E, 0x00, 0xFF, 0x22] && w.hidden && w.country?.description == "GB")
        #expect(w.key == .passphrase(Array("correct\"horse \\battery".utf8)))
        // A typed name, a 64-hex PMK.
        let pmk = String(repeating: "ab", count: 32)
        #expect(post("ssid_hex=&ssid=My+Home&passphrase=\(pmk)&country=DE").status == 200)
        #expect(try WifiRequest.parse(Array((request ?? "").utf8)).get().0.key == .pmk(Array(repeating: 0xAB, count: 32)))
    }

    @Test func mistakesAreSaidAndNothingIsLeft() {
        for (body, words) in [("ssid=Home&passphrase=short&country=GB", "8 to 63"),
                              ("ssid=Home&passphrase=abcdefgh%00ij&country=GB", "control character"),
                              ("ssid=&country=GB", "0 bytes"),
                              ("ssid=\(String(repeating: "x", count: 33))&country=GB", "33 bytes"),
                              ("ssid=Home&passphrase=password", "country"),
                              ("ssid=Home&country=Britain", "two-letter"),
                              ("ssid_hex=zz&country=GB", "not one of the list"),
                              ("ssid=Home&ssid=Other&country=GB", "did not arrive whole"),
                              ("ssid=Ho%zzme&country=GB", "did not arrive whole"),
                              ("ssid=Home%&country=GB", "did not arrive whole")] {
            let r = post(body)
            #expect(r.status == 400, "\(body)")
            #expect(text(r).contains(words), "\(body): \(text(r).prefix(300))")
        }
        #expect(request == nil)
    }

    /// Only this page's own form, on this address.
    @Test func otherOriginsAndHostsAreRefused() {
        let good = "ssid=Home&passphrase=password&country=GB"
        #expect(post(good, headers: ["origin": "http://evil.example"]).status == 403)
        #expect(post(good, headers: ["sec-fetch-site": "cross-site"]).status == 403)
        #expect(post(good, headers: ["host": "evil.example"]).status == 403)
        #expect(request == nil)
        #expect(post(good, headers: ["origin": "http://192.168.4.1", "sec-fetch-site": "same-origin"]).status == 200)
        // A phone's captive-portal probe, any other path: to the page.
        let probe = page.handle(WebRequest(method: "GET", path: "/generate_204", headers: ["host": "connectivitycheck.gstatic.com"]))
        #expect(probe.status == 302 && probe.headers.contains { $0 == ("Location", "http://192.168.4.1/") })
        #expect(page.handle(WebRequest(method: "PUT", path: "/", headers: ["host": "192.168.4.1"])).status == 404)
    }

    /// A list file made huge or garbled: the page still comes, the list bounded.
    @Test func aHugeListFile() {
        let line = ScannedNetwork.file([ScannedNetwork(ssid: Array(repeating: 0x41, count: 32), signal: -1, secured: true)])
        FileManager.default.createFile(atPath: dir + "/networks", contents: Data((String(repeating: line, count: 10_000) + "\u{0}garbage\n").utf8))
        let r = page.handle(WebRequest(method: "GET", path: "/", headers: ["host": "192.168.4.1"]))
        #expect(r.status == 200 && r.body.count < 64 * 1024)
    }

    @Test func limits() {
        let l = HTTPLimits.hotspot
        #expect(l.body <= 4096 && l.head <= 16 * 1024 && !l.loopbackExempt && l.connections <= 64)
    }
}

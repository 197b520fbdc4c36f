import Testing
import TockCore
@testable import TockSetup

/// When the hotspot opens and closes, on virtual time (one step a second).
struct HotspotPolicyTests {
    typealias O = HotspotPolicy.Observation
    static func at(_ s: Int64) -> Instant { Instant(nanoseconds: s * 1_000_000_000) }

    /// Steps from `from` to `to` seconds with the same observation; the actions and when.
    static func run(_ p: inout HotspotPolicy, _ o: O, from: Int64, to: Int64) -> [(Int64, HotspotPolicy.Action)] {
        var out: [(Int64, HotspotPolicy.Action)] = []
        for s in from...to { if let a = p.step(o, now: at(s)) { out.append((s, a)) } }
        return out
    }

    @Test func opensAfterTheWaitWithWifiSetAndNoAddress() {
        var p = HotspotPolicy(now: Self.at(0))
        let acts = Self.run(&p, O(wifiConfigured: true), from: 0, to: 200)
        #expect(acts.map(\.0) == [90])
        #expect(acts.first?.1 == .open)
        #expect(p.isOpen)
    }

    @Test func opensAfterTheSettleWithNoWifiAndNoCable() {
        var p = HotspotPolicy(now: Self.at(0))
        #expect(Self.run(&p, O(), from: 0, to: 20).map(\.0) == [15])
        // With nothing to try, it stays open whatever the time.
        #expect(Self.run(&p, O(), from: 21, to: 100_000).isEmpty)
        #expect(p.isOpen)
    }

    @Test func aCableWithoutAddressWaitsTheFullTime() {
        var p = HotspotPolicy(now: Self.at(0))
        #expect(Self.run(&p, O(carrier: true), from: 0, to: 100).map(\.0) == [90])
    }

    @Test func anAddressInTimeKeepsItClosed() {
        var p = HotspotPolicy(now: Self.at(0))
        #expect(Self.run(&p, O(wifiConfigured: true), from: 0, to: 89).isEmpty)
        #expect(Self.run(&p, O(hasAddress: true, wifiConfigured: true), from: 89, to: 10_000).isEmpty)
        #expect(p.state == .online)
    }

    @Test func noWifiDeviceNeverOpens() {
        var p = HotspotPolicy(now: Self.at(0))
        #expect(Self.run(&p, O(wifiConfigured: true, wifiDevice: false), from: 0, to: 10_000).isEmpty)
    }

    /// A moved box or a renamed router: the address goes, the wait starts then.
    @Test func aLostAddressOpensAfterTheWait() {
        var p = HotspotPolicy(now: Self.at(0))
        _ = Self.run(&p, O(hasAddress: true, wifiConfigured: true), from: 0, to: 500)
        let acts = Self.run(&p, O(wifiConfigured: true), from: 501, to: 700)
        #expect(acts.map(\.0) == [591] && acts.first?.1 == .open)
    }

    /// A router that was down: tried again after `retry` with no one on the hotspot, and again and again.
    @Test func retriesTheNetworkWhileNoOneIsOnTheHotspot() {
        var p = HotspotPolicy(now: Self.at(0))
        let acts = Self.run(&p, O(wifiConfigured: true), from: 0, to: 90 + 300 + 90 + 300)
        #expect(acts.map(\.0) == [90, 390, 480, 780])
        #expect(acts.map(\.1) == [.open, .join, .open, .join])
    }

    /// Someone on the hotspot (the owner typing) keeps it open up to `hold`; leaving starts the retry time.
    @Test func aDeviceOnTheHotspotHoldsIt() {
        var p = HotspotPolicy(now: Self.at(0))
        _ = Self.run(&p, O(wifiConfigured: true), from: 0, to: 90)
        #expect(Self.run(&p, O(wifiConfigured: true, clients: 1), from: 91, to: 1000).isEmpty)
        let acts = Self.run(&p, O(wifiConfigured: true), from: 1001, to: 1400)
        // Tried again 300 s after the device left, and back on the hotspot 90 s later.
        #expect(acts.map(\.0) == [1301, 1391] && acts.map(\.1) == [.join, .open])
        var q = HotspotPolicy(now: Self.at(0))
        _ = Self.run(&q, O(wifiConfigured: true), from: 0, to: 90)
        #expect(Self.run(&q, O(wifiConfigured: true, clients: 2), from: 91, to: 1950).map(\.0) == [1890])
    }

    /// The page's setting closes the hotspot at once; a failure to join opens it again after the wait.
    @Test func aNewSettingJoinsAndAFailureReturnsToTheHotspot() {
        var p = HotspotPolicy(now: Self.at(0))
        _ = Self.run(&p, O(), from: 0, to: 15)
        #expect(p.step(O(wifiConfigured: true, clients: 1, newSetting: true), now: Self.at(100)) == .join)
        #expect(p.state == .waiting(since: Self.at(100)))
        let acts = Self.run(&p, O(wifiConfigured: true), from: 101, to: 200)
        #expect(acts.map(\.0) == [190] && acts.first?.1 == .open)
        // The right one this time: online, the hotspot stays closed.
        #expect(p.step(O(wifiConfigured: true, newSetting: true), now: Self.at(300)) == .join)
        #expect(Self.run(&p, O(hasAddress: true, wifiConfigured: true), from: 301, to: 5000).isEmpty)
    }

    /// A cable plugged in while the hotspot is open: it closes once the cable has an address.
    @Test func anEthernetAddressClosesTheHotspot() {
        var p = HotspotPolicy(now: Self.at(0))
        _ = Self.run(&p, O(), from: 0, to: 15)
        #expect(p.step(O(carrier: true), now: Self.at(20)) == nil)
        #expect(p.step(O(hasAddress: true, carrier: true), now: Self.at(25)) == .join)
        #expect(p.state == .online)
    }

    @Test func theRadioGoneClosesIt() {
        var p = HotspotPolicy(now: Self.at(0))
        _ = Self.run(&p, O(), from: 0, to: 15)
        #expect(p.step(O(wifiDevice: false), now: Self.at(16)) == .join)
        #expect(Self.run(&p, O(wifiDevice: false), from: 17, to: 1000).isEmpty)
    }

    /// The clock at its ends: no overflow, no early opening.
    @Test func clockAtItsEnds() {
        var p = HotspotPolicy(now: Instant(nanoseconds: Int64.max - 200_000_000_000))
        #expect(p.step(O(wifiConfigured: true), now: Instant(nanoseconds: Int64.max - 111_000_000_000)) == nil)
        #expect(p.step(O(wifiConfigured: true), now: Instant(nanoseconds: Int64.max - 110_000_000_000)) == .open)
        var q = HotspotPolicy(now: Instant(nanoseconds: Int64.min / 2))
        #expect(q.step(O(wifiConfigured: true), now: Instant(nanoseconds: Int64.min / 2 + 89_999_999_999)) == nil)
    }

    /// The radio refused to become the hotspot: back to waiting, tried again after the wait.
    @Test func aFailedOpeningIsTriedAgain() {
        var p = HotspotPolicy(now: Self.at(0))
        #expect(Self.run(&p, O(wifiConfigured: true), from: 0, to: 90).map(\.0) == [90])
        p.openFailed(now: Self.at(105))
        #expect(!p.isOpen)
        let acts = Self.run(&p, O(wifiConfigured: true), from: 106, to: 300)
        #expect(acts.map(\.0) == [195] && acts.first?.1 == .open)
    }
}

import TockWeb
import XCTest

/// The slot rules against attackers who play them exactly: many
/// addresses, many networks, one under every share, requests begun and
/// never finished (never quiet, never idle). Whatever they hold, a
/// browser with a valid token gets a slot.
final class ConnectionSlotsTests: XCTestCase {
    typealias Slots = ConnectionSlots<Int>

    var slots = Slots(connections: 128, reserved: 32, perAddress: 16, perNetwork: 32)
    var next = 0

    func v4(_ host: String) -> Slots.Peer { Slots.Peer(address: host, network: Slots.network(of: host)) }

    /// A connection from `peer` that begins a request and never finishes it
    /// (nothing about it is idle): nil when refused.
    @discardableResult
    func busy(from peer: Slots.Peer) -> (key: Int, kind: Slots.Kind)? {
        next += 1
        guard case .admitted(let kind, _) = slots.admit(next, from: peer, quiet: { _ in false }) else { return nil }
        slots.idle(next, false)
        return (next, kind)
    }

    /// The owner's browser, paired: admitted, and its request answered.
    func ownerGetsIn(from peer: Slots.Peer, file: StaticString = #filePath, line: UInt = #line) {
        guard let c = busy(from: peer) else { return XCTFail("the owner was refused", file: file, line: line) }
        XCTAssertNil(slots.request(on: c.key, paired: true), file: file, line: line)
        XCTAssertEqual(slots.kind(of: c.key), .paired, file: file, line: line)
    }

    /// The probe's attack: one host with 8 IPv4 addresses on the home's
    /// /24, 16 unfinished requests from each. It took all 128 slots; now
    /// its /24 holds 32, the rest of its connections go on probation and
    /// are refused at their first request, and the owner gets in.
    func testEightAddressesOnOneNetworkHoldTheirNetworksShare() {
        var held = 0, probation: [Int] = []
        for _ in 0..<40 {
            for h in 1...8 {
                guard let c = busy(from: v4("192.0.2.\(h)")) else { continue }
                if c.kind == .open { held += 1 } else { probation.append(c.key) }
            }
        }
        XCTAssertEqual(held, 32, "the /24's share")
        for key in probation.suffix(5) {
            XCTAssertEqual(slots.request(on: key, paired: false), "too many connections from your network 192.0.2.0/24 (32)")
        }
        ownerGetsIn(from: v4("192.0.2.100"))
        // Another unpaired browser in the same /24 must show a token too.
        let visitor = busy(from: v4("192.0.2.101"))
        XCTAssertNotNil(visitor.flatMap { slots.request(on: $0.key, paired: false) })
        // One in another network is served as before.
        XCTAssertEqual(busy(from: v4("198.51.100.7"))?.kind, .open)
    }

    /// One under each share everywhere: 15 from each address, 31 from each
    /// network, over as many networks as it takes to fill the unpaired
    /// total; then probation slots up to the total. The owner still gets in,
    /// over and over, and stays.
    func testTheAttackerOneUnderEveryShareCannotKeepThePairedOut() {
        var network = 0
        fill: while true {
            network += 1
            // 15 from each of two addresses and 1 from a third: 31 in the /24.
            for (host, n) in [(1, 15), (2, 15), (3, 1)] {
                for _ in 0..<n {
                    XCTAssertEqual(busy(from: v4("10.\(network).0.\(host)"))?.kind, .open)
                    if slots.count(where: { $0 == .open }) == 96 { break fill }
                }
            }
        }
        XCTAssertEqual(slots.count(where: { $0 == .open }), 96, "the unpaired total")
        // Now every newcomer goes on probation; fill every slot with them.
        while slots.count < 128 { busy(from: v4("10.200.0.\(slots.count % 250 + 1)")) }
        for n in 1...20 {
            ownerGetsIn(from: v4("10.1.0.\(200 + n)"))
            // Between the owner's visits the attacker keeps connecting: it
            // takes only probation slots, never a paired one.
            for k in 0..<50 { busy(from: v4("10.201.0.\(k + 1)")) }
        }
        XCTAssertEqual(slots.count(where: { $0 == .paired }), 20, "every owner's connection kept")
        XCTAssertEqual(slots.count, 128)
    }

    /// With `--listen ::`, the home's /64 is everyone's: a stranger holding
    /// its share never refuses the owner (paired), and holds no more than
    /// its share however many addresses it makes up.
    func testHostsInOneSlash64() {
        func v6(_ host: Int) -> Slots.Peer {
            let address = "2001:db8:1:2:0:0:0:\(String(host, radix: 16))"
            return Slots.Peer(address: address, network: Slots.network(of: address))
        }
        XCTAssertEqual(v6(1).network, "2001:db8:1:2::/64")
        var open = 0
        for h in 1...500 where busy(from: v6(h))?.kind == .open { open += 1 }
        XCTAssertEqual(open, 32)
        ownerGetsIn(from: v6(0xBEEF))
        // The owner's address is not the stranger's: it was never refused "from your address".
        XCTAssertEqual(slots.count(where: { $0 == .paired }), 1)
    }

    /// A busy machine: the owner's request arrived whole but is not yet
    /// read when every later newcomer on probation needs a slot. The
    /// stalling strangers (their bytes read, no request whole: quiet) go
    /// first, oldest first, however many come after the owner; once none
    /// is left, the oldest goes again, the owner included.
    func testUnreadRequestsOutlastStallingOnes() {
        slots = Slots(connections: 8, reserved: 2, perAddress: 0, perNetwork: 2)
        let why = Slots.Kind.probation(why: "too many connections from your network 192.0.2.0/24 (2)")
        var unread: Set<Int> = []
        func admit(_ k: Int) -> Slots.Admission { slots.admit(k, from: v4("192.0.2.1"), quiet: { !unread.contains($0) }) }
        for k in 1...2 { XCTAssertEqual(admit(k), .admitted(.open, evicting: [])); slots.idle(k, false) }
        for k in 3...7 { XCTAssertEqual(admit(k), .admitted(why, evicting: [])); slots.idle(k, false) }
        // The owner: on probation, its request in the socket, unread; every slot is held now.
        unread.insert(8)
        XCTAssertEqual(admit(8), .admitted(why, evicting: []))
        // Ten more strangers: each takes the oldest stalling one's slot, never the owner's.
        var evicted: [Int] = []
        for k in 9...18 {
            guard case .admitted(let kind, let evicting) = admit(k) else { return XCTFail("stranger \(k) refused") }
            XCTAssertEqual(kind, why)
            evicted += evicting
            slots.idle(k, false)
        }
        XCTAssertEqual(evicted, [3, 4, 5, 6, 7, 9, 10, 11, 12, 13])
        XCTAssertNil(slots.request(on: 8, paired: true))
        XCTAssertEqual(slots.kind(of: 8), .paired)
        // With only unread ones on probation, the oldest goes, as before.
        unread.formUnion(14...18)
        XCTAssertEqual(admit(19), .admitted(why, evicting: [14]))
    }

    /// A server too busy to read anything: every slot on probation is
    /// unread. Before the oldest is closed for a newcomer its pending head
    /// is judged: the owner's, with a valid token, is paired and stays;
    /// the stranger's after it goes.
    func testAnUnreadRequestWithAValidTokenIsPairedNotClosed() {
        slots = Slots(connections: 6, reserved: 1, perAddress: 0, perNetwork: 2)
        let why = Slots.Kind.probation(why: "too many connections from your network 192.0.2.0/24 (2)")
        var asked: [Int] = []
        func admit(_ k: Int) -> Slots.Admission {
            slots.admit(k, from: v4("192.0.2.1"), quiet: { _ in false }, carriesToken: { asked.append($0); return $0 == 3 })
        }
        for k in 1...2 { XCTAssertEqual(admit(k), .admitted(.open, evicting: [])); slots.idle(k, false) }
        for k in 3...6 { XCTAssertEqual(admit(k), .admitted(why, evicting: [])); slots.idle(k, false) }
        XCTAssertEqual(admit(7), .admitted(why, evicting: [4]))
        XCTAssertEqual(slots.kind(of: 3), .paired)
        XCTAssertEqual(asked, [3, 4])
        // Paired, it is never judged again; the next oldest stranger goes.
        XCTAssertEqual(admit(8), .admitted(why, evicting: [5]))
        XCTAssertEqual(asked, [3, 4, 5])
        XCTAssertEqual(slots.kind(of: 3), .paired)
    }

    /// A server too busy to read anything, and the owner held up between
    /// connecting and sending: its silent newcomer on probation is the
    /// oldest there, but the strangers' unread requests go first; only
    /// when every one left is silent does the oldest of them go.
    func testASilentNewcomerGoesAfterUnreadOnes() {
        slots = Slots(connections: 6, reserved: 1, perAddress: 0, perNetwork: 2)
        let why = Slots.Kind.probation(why: "too many connections from your network 192.0.2.0/24 (2)")
        var silent: Set<Int> = [3]
        func admit(_ k: Int) -> Slots.Admission {
            slots.admit(k, from: v4("192.0.2.1"), quiet: { _ in false }, silent: { silent.contains($0) })
        }
        for k in 1...2 { XCTAssertEqual(admit(k), .admitted(.open, evicting: [])); slots.idle(k, false) }
        XCTAssertEqual(admit(3), .admitted(why, evicting: []))
        for k in 4...6 { XCTAssertEqual(admit(k), .admitted(why, evicting: [])); slots.idle(k, false) }
        var evicted: [Int] = []
        for k in 7...12 {
            guard case .admitted(_, let evicting) = admit(k) else { return XCTFail("stranger \(k) refused") }
            evicted += evicting
        }
        XCTAssertEqual(evicted, [4, 5, 6, 7, 8, 9], "the strangers, oldest first; never the silent owner")
        XCTAssertNotNil(slots.kind(of: 3))
        silent.formUnion(10...12)
        XCTAssertEqual(admit(13), .admitted(why, evicting: [3]), "only silent ones left: the oldest goes")
    }

    /// Idle unpaired connections are the first to go, then the oldest on
    /// probation; paired idle ones only when nothing else is left; and
    /// when every slot is paired and busy, a newcomer is refused.
    func testWhoMakesRoom() {
        slots = Slots(connections: 4, reserved: 1, perAddress: 0, perNetwork: 0)
        var quiet: Set<Int> = []
        func admit(_ k: Int) -> Slots.Admission { slots.admit(k, from: v4("192.0.2.1"), quiet: { quiet.contains($0) }) }
        XCTAssertEqual(admit(1), .admitted(.open, evicting: []))
        quiet.insert(1)
        for k in 2...3 { _ = admit(k); slots.idle(k, false) }
        // The unpaired total (3) is reached: the idle quiet one makes room.
        XCTAssertEqual(admit(4), .admitted(.open, evicting: [1]))
        slots.idle(4, false)
        XCTAssertEqual(admit(5), .admitted(.probation(why: "too many connections from browsers that are not paired (3)"), evicting: []))
        XCTAssertEqual(admit(6), .admitted(.probation(why: "too many connections from browsers that are not paired (3)"), evicting: [5]))
        XCTAssertNil(slots.request(on: 6, paired: true))
        for k in [2, 3, 4] { XCTAssertNil(slots.request(on: k, paired: true)) }
        // All paired and busy: nobody to close.
        XCTAssertEqual(admit(7), .refused(why: "too many connections (4)"))
        quiet.insert(2)
        slots.idle(2, true)
        XCTAssertEqual(admit(8), .admitted(.open, evicting: [2]))
    }

    func testOneAddressHoldsItsShareAndTheNextMustShowAToken() {
        for _ in 1...16 { XCTAssertEqual(busy(from: v4("192.0.2.9"))?.kind, .open) }
        let c = busy(from: v4("192.0.2.9"))
        XCTAssertEqual(c?.kind, .probation(why: "too many connections from your address (16)"))
        XCTAssertEqual(slots.request(on: c!.key, paired: false), "too many connections from your address (16)")
        XCTAssertEqual(busy(from: v4("192.0.2.10"))?.kind, .open, "a neighbour is not counted as that address")
    }

    func testLoopbackIsExemptFromTheShares() {
        for _ in 1...40 {
            XCTAssertEqual(busy(from: Slots.Peer(address: "127.0.0.1", network: "127.0.0.0/24", exempt: true))?.kind, .open)
        }
    }

    func testNetworks() {
        XCTAssertEqual(Slots.network(of: "192.168.1.23"), "192.168.1.0/24")
        XCTAssertEqual(Slots.network(of: "fe80:0:0:0:1:2:3:4"), "fe80:0:0:0::/64")
    }
}

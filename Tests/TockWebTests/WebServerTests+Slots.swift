import Foundation
import TockWeb
import XCTest

/// The slot rules (`ConnectionSlots`) on real sockets: loopback addresses
/// stand for the home's LAN (the network namespace test, slots_test.py,
/// has the real thing).
extension WebServerTests {
    /// The attack on real sockets: 8 addresses of one /24
    /// (127.0.0.x stands for the home's LAN), each holding its share of
    /// requests begun and never finished, more arriving all the time. The
    /// paired owner on a ninth address of the same /24 gets every page;
    /// an unpaired one there is told why not.
    func testManyAddressesOnOneNetworkNeverKeepThePairedOut() throws {
        var limits = HTTPLimits()
        limits.connections = 24
        limits.pairedReserve = 6
        limits.perAddress = 4
        limits.perNetwork = 8
        limits.loopbackExempt = false
        try start(limits: limits)
        let token = try pair()
        var attack: [Client] = []
        for _ in 0..<6 {
            for h in 2...9 {
                guard let c = try? Client(port: port, from: "127.0.0.\(h)") else { continue }
                c.send("GET / HTTP/1.1\r\n")
                attack.append(c)
            }
        }
        waitFor { server.connections(where: { $0 == .open }) == 8 }
        XCTAssertEqual(server.connections(where: { $0 == .open }), 8, "the /24's share, all busy")
        var loads = 0
        for _ in 1...20 {
            let owner = try Client(port: port, from: "127.0.0.20")
            owner.send("GET /api/tokens HTTP/1.1\r\nHost: x\r\nCookie: tock_token=\(token)\r\nConnection: close\r\n\r\n")
            if owner.status() == 200 { loads += 1 }
            // More of the attack between loads.
            for h in 2...9 { if let c = try? Client(port: port, from: "127.0.0.\(h)") { c.send("GET / HTTP/1.1\r\n"); attack.append(c) } }
        }
        XCTAssertEqual(loads, 20)
        let stranger = try Client(port: port, from: "127.0.0.21")
        stranger.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        let reply = String(decoding: stranger.readAll().bytes, as: UTF8.self)
        XCTAssertTrue(reply.contains("too many connections from your network 127.0.0.0/24 (8)"), reply)
        _ = attack
    }

    /// A newcomer that has not yet sent its request (its sender held up
    /// between connect and send) is not closed for the next newcomer in
    /// its share, which is let in on probation instead; once it has been
    /// served and waits idle, it makes room at once.
    func testANewcomerKeepsItsSlotUntilItCouldSpeak() throws {
        var limits = HTTPLimits()
        limits.connections = 10
        limits.pairedReserve = 0
        limits.perAddress = 3
        limits.loopbackExempt = false
        limits.newborn = .seconds(60)  // the moment outlasts the test: nothing here waits on time
        try start(limits: limits)
        let busy = try busyClients(2, from: "127.0.0.2")
        let slow = try Client(port: port, from: "127.0.0.2")
        waitFor { server.connections == 3 }
        let stranger = try Client(port: port, from: "127.0.0.2")
        stranger.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        let refused = String(decoding: stranger.readAll().bytes, as: UTF8.self)
        XCTAssertTrue(refused.contains("503") && refused.contains("too many connections from your address (3)"), refused)
        XCTAssertEqual(server.evictions, 0, "the silent newcomer kept its slot")
        slow.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(slow.status(), 200)
        // Served and idle now: the next newcomer from its address takes its place.
        waitFor { server.idleConnections == 1 }
        let next = try Client(port: port, from: "127.0.0.2")
        next.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(next.status(), 200)
        XCTAssertTrue(slow.readAll().closed, "the idle one made room")
        XCTAssertEqual(server.evictions, 1)
        _ = busy
    }
}

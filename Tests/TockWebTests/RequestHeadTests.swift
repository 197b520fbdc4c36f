import Testing
@testable import TockWeb

/// What a request's head says about its connection and its header names.
@Suite struct RequestHeadTests {
    func head(_ version: String, connection: String?) -> RequestHead {
        RequestHead(method: "GET", target: "/", version: version, headers: connection.map { ["connection": $0] } ?? [:])
    }

    /// Connection is a list of options (RFC 9110 §7.6.1), compared whole and
    /// without case: an option that only contains "close" does not close.
    @Test func keepAliveReadsTheConnectionOptions() {
        #expect(head("HTTP/1.1", connection: nil).keepAlive)
        #expect(!head("HTTP/1.1", connection: "close").keepAlive)
        #expect(!head("HTTP/1.1", connection: "Upgrade,  CLOSE ").keepAlive)
        #expect(head("HTTP/1.1", connection: "x-not-close").keepAlive)
        #expect(!head("HTTP/1.0", connection: nil).keepAlive)
        #expect(head("HTTP/1.0", connection: "Keep-Alive").keepAlive)
        #expect(head("HTTP/1.0", connection: "te, keep-alive").keepAlive)
        #expect(!head("HTTP/1.0", connection: "no-keep-alive").keepAlive)
        // The largest head a client may send, all of it one Connection
        // header of empty options and spaces: read in one pass, kept open.
        let options = String(repeating: " ,", count: (HTTPLimits().head - 64) / 2)
        let big = try! RequestHead.parse(Array("GET / HTTP/1.1\r\nConnection: \(options)\r\n\r\n".utf8)[...])
        #expect(big.keepAlive)
        #expect(!head("HTTP/1.1", connection: options + "close").keepAlive)
    }

    @Test func aSpaceOrTabInAHeaderNameIsRefused() throws {
        for line in ["X A: 1", "X\tA: 1", "XA : 1"] {
            #expect(throws: RequestHead.Refusal.self) { try RequestHead.parse(Array("GET / HTTP/1.1\r\n\(line)\r\n\r\n".utf8)[...]) }
        }
        #expect(try RequestHead.parse(Array("GET / HTTP/1.1\r\nX-A:b c\r\n\r\n".utf8)[...]).headers["x-a"] == "b c")
    }
}

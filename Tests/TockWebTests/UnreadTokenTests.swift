import Foundation
import TockCore
@testable import TockWeb
import XCTest

/// What a starved server judges before it closes a connection whose
/// request it has not read (`ConnectionSlots`, `carriesToken`): a whole
/// head with a valid token, by cookie or bearer, and nothing less.
extension WebAppTests {
    func testAnUnreadHeadCountsOnlyWhenWholeWithAValidToken() throws {
        let cookie = pairedCookie()
        let token = String(cookie.dropFirst("tock_token=".count))
        func judged(_ head: String) -> Bool { WebServer.carriesToken(Array(head.utf8), app) }
        XCTAssertTrue(judged("GET / HTTP/1.1\r\nHost: tock\r\nCookie: \(cookie)\r\n\r\n"))
        XCTAssertTrue(judged("GET /api/status HTTP/1.1\r\nAuthorization: Bearer \(token)\r\n\r\n"))
        XCTAssertFalse(judged("GET / HTTP/1.1\r\nHost: tock\r\nCookie: \(cookie)\r\n"), "the head is not whole")
        XCTAssertFalse(judged("GET / HTTP/1.1\r\nCookie: \(cookie.dropLast())x\r\n\r\n"), "a forged token")
        XCTAssertFalse(judged("GET / HTTP/1.1\r\n\r\n"))
        XCTAssertFalse(judged("\u{0}\u{1}garbage\r\n\r\n"))
        XCTAssertFalse(WebServer.carriesToken(nil, app))
    }
}

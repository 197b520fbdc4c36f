import Foundation
import TockCore
@testable import TockWeb
import TockJSON
import XCTest

/// The page's files: gzipped for a browser that takes gzip (checked by
/// gunzip, the bytes must come back whole), 304 with no body for one that
/// has the same build's file already, plain for a client that asks none.
final class StaticAssetTests: XCTestCase {
    let app = WebApp(tokens: TokenStore(path: NSTemporaryDirectory() + "tock-asset-\(UUID().uuidString).json"),
                     box: { _ in ControlLink.Reply(["ok": true]) }, now: { Instant(nanoseconds: 0) }, newCode: { "0000" })

    func get(_ path: String, _ headers: [String: String] = [:]) -> WebReply {
        app.handle(WebRequest(method: "GET", path: path, headers: headers))
    }

    func header(_ r: WebReply, _ name: String) -> String? { r.headers.first { $0.0 == name }?.1 }

    func gunzip(_ bytes: [UInt8]) throws -> [UInt8] {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/gzip")
        p.arguments = ["-dc"]
        let input = Pipe(), output = Pipe()
        p.standardInput = input
        p.standardOutput = output
        try p.run()
        input.fileHandleForWriting.write(Data(bytes))
        try input.fileHandleForWriting.close()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, "gzip -dc failed")
        return Array(out)
    }

    func testEveryFileIsSentGzippedToABrowserAndComesBackWhole() throws {
        var plain = 0, sent = 0
        for path in ["/", "/app.js", "/app.css", "/icon.svg", "/manifest.webmanifest"] {
            let p = get(path)
            let z = get(path, ["accept-encoding": "gzip, deflate, br, zstd"])
            XCTAssertEqual(p.status, 200, path)
            XCTAssertNil(header(p, "Content-Encoding"), path)
            XCTAssertEqual(header(z, "Content-Encoding"), "gzip", path)
            XCTAssertEqual(header(z, "Vary"), "Accept-Encoding", path)
            XCTAssertEqual(try gunzip(z.body), p.body, path)
            XCTAssertLessThan(z.body.count, p.body.count, path)
            plain += p.body.count
            sent += z.body.count
        }
        // The page's text compresses to under 40 % (measured: about 30 %).
        XCTAssertLessThan(Double(sent) / Double(plain), 0.4, "\(sent) of \(plain) bytes")
    }

    func testABrowserWithTheSameFileGets304AndNoBody() {
        let first = get("/app.js", ["accept-encoding": "gzip"])
        let tag = try? XCTUnwrap(header(first, "ETag"))
        XCTAssertEqual(get("/app.js", ["if-none-match": tag ?? ""]).status, 304)
        XCTAssertEqual(get("/app.js", ["if-none-match": tag ?? ""]).body, [])
        XCTAssertEqual(get("/app.js", ["if-none-match": "\"x\", " + (tag ?? "")]).status, 304)
        XCTAssertEqual(get("/app.js", ["if-none-match": "W/" + (tag ?? "")]).status, 304)
        // Another file's tag, or another build's, gets the file.
        XCTAssertEqual(get("/app.js", ["if-none-match": header(get("/app.css"), "ETag") ?? ""]).status, 200)
        XCTAssertEqual(get("/app.js", ["if-none-match": "\"0000000000000000\""]).status, 200)
        XCTAssertNotEqual(header(get("/"), "ETag"), tag)
    }

    func testAcceptEncodingIsReadAsRFC9110Says() {
        XCTAssertTrue(StaticAsset.acceptsGzip("gzip"))
        XCTAssertTrue(StaticAsset.acceptsGzip("deflate, GZIP;q=0.5"))
        XCTAssertTrue(StaticAsset.acceptsGzip("*"))
        XCTAssertTrue(StaticAsset.acceptsGzip("x-gzip"))
        XCTAssertFalse(StaticAsset.acceptsGzip(nil))
        XCTAssertFalse(StaticAsset.acceptsGzip(""))
        XCTAssertFalse(StaticAsset.acceptsGzip("identity"))
        XCTAssertFalse(StaticAsset.acceptsGzip("gzip;q=0"))
        XCTAssertFalse(StaticAsset.acceptsGzip("gzip; q=0.000, br"))
        XCTAssertFalse(StaticAsset.acceptsGzip("*, gzip;q=0"))
        XCTAssertFalse(StaticAsset.acceptsGzip("br, *;q=0"))
        XCTAssertFalse(StaticAsset.acceptsGzip("gzipper"))
    }
}

import CZlib

/// One of the page's files, ready to send: its bytes, gzipped once at
/// start-up (sent to browsers that accept gzip; every browser does), and
/// an entity tag, so that a browser that has it already gets 304 and no
/// body on the next load.
struct StaticAsset: Sendable {
    let type: String
    let body: [UInt8]
    /// nil when compressing did not make it smaller.
    let gzipped: [UInt8]?
    let etag: String

    init(_ text: String, type: String) {
        self.type = type
        let bytes = Array(text.utf8)
        body = bytes
        gzipped = Self.gzip(bytes).flatMap { $0.count < bytes.count ? $0 : nil }
        etag = "\"" + Self.fnv1a(bytes) + "\""
    }

    func reply(to r: WebRequest) -> WebReply {
        var headers: [(String, String)] = [("Content-Type", type), ("Cache-Control", "no-cache"), ("ETag", etag),
                                           ("Vary", "Accept-Encoding"),
                                           ("Content-Security-Policy", "default-src 'self'; frame-ancestors 'none'")]
        if let tags = r.headers["if-none-match"], tags.split(separator: ",").map(\.trimmingSpaces).contains(where: { $0 == etag || $0 == "W/" + etag || $0 == "*" }) {
            return WebReply(status: 304, headers: headers.filter { $0.0 != "Content-Type" })
        }
        if let gzipped, Self.acceptsGzip(r.headers["accept-encoding"]) {
            headers.append(("Content-Encoding", "gzip"))
            return WebReply(status: 200, headers: headers, body: gzipped)
        }
        return WebReply(status: 200, headers: headers, body: body)
    }

    /// Whether an `Accept-Encoding` value takes gzip: listed (or `*`)
    /// without `q=0`.
    static func acceptsGzip(_ value: String?) -> Bool {
        guard let value else { return false }
        var gzip: Bool?, star: Bool?
        for item in value.lowercased().split(separator: ",") {
            let parts = item.split(separator: ";").map(\.trimmingSpaces)
            guard let coding = parts.first else { continue }
            let refused = parts.dropFirst().contains { p in
                let kv = p.split(separator: "=", maxSplits: 1).map(\.trimmingSpaces)
                return kv.count == 2 && kv[0] == "q" && (Double(kv[1]) ?? 1) == 0
            }
            if coding == "gzip" || coding == "x-gzip" { gzip = !refused } else if coding == "*" { star = !refused }
        }
        return gzip ?? star ?? false
    }

    static func gzip(_ bytes: [UInt8]) -> [UInt8]? {
        var out = [UInt8](repeating: 0, count: tock_gzip_bound(bytes.count))
        let n = bytes.withUnsafeBufferPointer { i in
            out.withUnsafeMutableBufferPointer { o in tock_gzip(i.baseAddress, i.count, o.baseAddress, o.count) }
        }
        guard n > 0 else { return nil }
        return Array(out[..<n])
    }

    /// 64-bit FNV-1a, in hex: enough to tell one build's page from another's.
    static func fnv1a(_ bytes: [UInt8]) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        let hex = String(h, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}

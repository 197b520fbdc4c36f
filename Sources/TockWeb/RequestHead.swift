/// An HTTP/1.1 request's line and headers (RFC 9112 §2-5), read in one
/// pass over bytes whose length `HTTPLimits.head` has already bounded.
public struct RequestHead: Equatable, Sendable {
    public var method: String
    public var target: String
    /// HTTP/1.0 closes after the reply unless asked otherwise.
    public var version: String
    /// Names in lower case; repeated fields joined with ", ".
    public var headers: [String: String]

    public init(method: String, target: String, version: String, headers: [String: String]) {
        self.method = method
        self.target = target
        self.version = version
        self.headers = headers
    }

    /// Why a head is refused, with the status to answer.
    public struct Refusal: Error, Equatable, Sendable {
        public var status: Int
        public var reason: String
    }

    /// How the body is framed (RFC 9112 §6.3).
    public enum Framing: Equatable, Sendable {
        case none
        case length(Int)
        case chunked
    }

    /// Where the head ends in `buffer` (the index after its empty line),
    /// searching from `from` (where the last search stopped, less 3 bytes
    /// for a line end split across reads): each byte is looked at once.
    public static func end(in buffer: [UInt8], from: Int) -> Int? {
        var i = max(0, from)
        while i < buffer.count {
            if buffer[i] == 0x0A {
                if i >= 1, buffer[i - 1] == 0x0A { return i + 1 }
                if i >= 2, buffer[i - 1] == 0x0D, buffer[i - 2] == 0x0A { return i + 1 }
            }
            i += 1
        }
        return nil
    }

    /// Parse the head (the bytes up to and including its empty line).
    public static func parse(_ bytes: ArraySlice<UInt8>) throws(Refusal) -> RequestHead {
        var lines: [ArraySlice<UInt8>] = []
        var start = bytes.startIndex
        for i in bytes.indices where bytes[i] == 0x0A {
            var line = bytes[start..<i]
            if line.last == 0x0D { line = line.dropLast() }
            lines.append(line)
            start = i + 1
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard let first = lines.first else { throw Refusal(status: 400, reason: "empty request") }
        let parts = first.split(separator: 0x20, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty,
              parts[0].allSatisfy({ $0 >= 0x41 && $0 <= 0x5A }) else {
            throw Refusal(status: 400, reason: "not an HTTP request line")
        }
        let version = String(decoding: parts[2], as: UTF8.self)
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else { throw Refusal(status: 505, reason: "HTTP/1.1 only") }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            // obs-fold (a line that continues the previous one) is refused, RFC 9112 §5.2.
            guard let colon = line.firstIndex(of: 0x3A), colon > line.startIndex,
                  line.first != 0x20, line.first != 0x09 else {
                throw Refusal(status: 400, reason: "malformed header line")
            }
            guard !line[..<colon].contains(where: { $0 == 0x20 || $0 == 0x09 }) else { throw Refusal(status: 400, reason: "space in a header name") }
            let name = String(decoding: line[..<colon], as: UTF8.self).lowercased()
            let value = trimmed(line[(colon + 1)...])
            if let old = headers[name] {
                if name == "content-length" || name == "host" { throw Refusal(status: 400, reason: "\(name) given twice") }
                headers[name] = old + ", " + value
            } else {
                headers[name] = value
            }
        }
        return RequestHead(method: String(decoding: parts[0], as: UTF8.self), target: String(decoding: parts[1], as: UTF8.self),
                           version: version, headers: headers)
    }

    static func trimmed(_ s: ArraySlice<UInt8>) -> String {
        var s = s
        while let f = s.first, f == 0x20 || f == 0x09 { s = s.dropFirst() }
        while let l = s.last, l == 0x20 || l == 0x09 { s = s.dropLast() }
        return String(decoding: s, as: UTF8.self)
    }

    /// The body's framing, refused when ambiguous (both framings, RFC 9112
    /// §6.1), unsupported (a coding other than chunked alone) or longer
    /// than `limit` by its own declaration: 413 before a byte of it is read.
    public func framing(limit: Int) throws(Refusal) -> Framing {
        let te = headers["transfer-encoding"], cl = headers["content-length"]
        if te != nil, cl != nil { throw Refusal(status: 400, reason: "both Content-Length and Transfer-Encoding") }
        if let te {
            guard te.lowercased() == "chunked" else { throw Refusal(status: 501, reason: "Transfer-Encoding \(te.prefix(40)) is not supported") }
            return .chunked
        }
        guard let cl else { return .none }
        guard !cl.isEmpty, cl.count <= 19, cl.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let n = Int(cl) else {
            throw Refusal(status: 400, reason: "Content-Length is not a number")
        }
        guard n <= limit else { throw Refusal(status: 413, reason: "a body of \(n) bytes; at most \(limit)") }
        return n == 0 ? .none : .length(n)
    }

    /// Whether the connection may carry another request after this one:
    /// the Connection header is a list of options (RFC 9110 §7.6.1).
    public var keepAlive: Bool {
        let options = (headers["connection"] ?? "").lowercased().split(separator: ",").map { Self.trimmed(Array($0.utf8)[...]) }
        return version == "HTTP/1.1" ? !options.contains("close") : options.contains("keep-alive")
    }
}

/// A chunked request body (RFC 9112 §7.1) decoded as its bytes come,
/// counting what it has taken: the body beyond `limit`, a size line or a
/// trailer section beyond `lineLimit`, is refused as soon as it is seen.
public struct ChunkedBody: Sendable {
    public enum Step: Equatable, Sendable {
        /// Give more bytes.
        case more
        /// The body ended; `consumed` bytes of the last feed belonged to it.
        case done(consumed: Int)
    }

    enum State: Equatable {
        case size(line: [UInt8])
        case data(left: Int)
        case dataEnd(seenCR: Bool)
        case trailers(line: Int, total: Int)
    }

    public let limit: Int
    public let lineLimit: Int
    public private(set) var body: [UInt8] = []
    private var state = State.size(line: [])

    public init(limit: Int, lineLimit: Int = 1024) {
        self.limit = limit
        self.lineLimit = lineLimit
    }

    /// Take `bytes`, each looked at once.
    public mutating func feed(_ bytes: ArraySlice<UInt8>) throws(RequestHead.Refusal) -> Step {
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let b = bytes[i]
            switch state {
            case .size(var line):
                i += 1
                if b == 0x0A {
                    if line.last == 0x0D { line.removeLast() }
                    let digits = line.prefix { $0 != 0x3B && $0 != 0x20 && $0 != 0x09 }  // ";ext", RFC 9112 §7.1.1
                    guard !digits.isEmpty, digits.count <= 8, let n = Int(String(decoding: digits, as: UTF8.self), radix: 16) else {
                        throw RequestHead.Refusal(status: 400, reason: "malformed chunk size")
                    }
                    guard body.count + n <= limit else { throw RequestHead.Refusal(status: 413, reason: "a body beyond \(limit) bytes") }
                    state = n == 0 ? .trailers(line: 0, total: 0) : .data(left: n)
                } else {
                    guard line.count < lineLimit else { throw RequestHead.Refusal(status: 400, reason: "chunk size line too long") }
                    line.append(b)
                    state = .size(line: line)
                }
            case .data(let left):
                let n = min(left, bytes.endIndex - i)
                body += bytes[i..<(i + n)]
                i += n
                state = left == n ? .dataEnd(seenCR: false) : .data(left: left - n)
            case .dataEnd(let seenCR):
                i += 1
                if b == 0x0A { state = .size(line: []) } else if b == 0x0D, !seenCR { state = .dataEnd(seenCR: true) } else {
                    throw RequestHead.Refusal(status: 400, reason: "chunk data longer than its size")
                }
            case .trailers(let line, let total):
                i += 1
                guard total < lineLimit else { throw RequestHead.Refusal(status: 431, reason: "trailers too long") }
                if b == 0x0A {
                    if line == 0 { return .done(consumed: i - bytes.startIndex) }
                    state = .trailers(line: 0, total: total + 1)
                } else if b == 0x0D {
                    state = .trailers(line: line, total: total + 1)
                } else {
                    state = .trailers(line: line + 1, total: total + 1)
                }
            }
        }
        return .more
    }
}

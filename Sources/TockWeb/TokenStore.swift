import TockLinux
#if canImport(Glibc)
import Glibc
#endif
import TockJSON

/// The paired browsers: a JSON file (mode 0600, written whole and renamed
/// into place) that `tock-web tokens` and `tock-web revoke` edit too. It
/// is read again whenever it changed, so a revocation from the command
/// line holds from the next request.
public final class TokenStore: @unchecked Sendable {
    public struct Entry: Equatable, Sendable {
        /// Short and public: what the lists show and revoke names.
        public var id: String
        public var token: String
        public var name: String
        /// Seconds since 1970.
        public var created: Int64

        var json: JSON { ["created": .int(created), "id": .string(id), "name": .string(name), "token": .string(token)] }

        init(id: String, token: String, name: String, created: Int64) {
            (self.id, self.token, self.name, self.created) = (id, token, name, created)
        }

        init?(_ v: JSON) {
            guard let id = v["id"]?.string, let token = v["token"]?.string, let name = v["name"]?.string,
                  let created = v["created"]?.int64 else { return nil }
            self.init(id: id, token: token, name: name, created: created)
        }
    }

    public let path: String
    private let lock = Lock()
    private var entries: [Entry] = []
    private var stamp: FileSystem.Stamp?

    public init(path: String) {
        self.path = path
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public func list() throws(Failure) -> [Entry] {
        lock.lock()
        defer { lock.unlock() }
        try reload()
        return entries
    }

    /// The entry holding `token`, if it is still valid.
    public func find(token: String) -> Entry? {
        guard !token.isEmpty, let all = try? list() else { return nil }
        return all.first { Pairing.same($0.token, token) }
    }

    /// A new token for `name`.
    public func add(name: String, now: Int64 = Int64(time(nil))) throws(Failure) -> Entry {
        lock.lock()
        defer { lock.unlock() }
        try reload()
        var g = SystemRandomNumberGenerator()
        func hex(_ n: Int) -> String {
            (0..<n).map { _ in
                let byte = UInt8.random(in: 0...255, using: &g)
                return (byte < 16 ? "0" : "") + String(byte, radix: 16)
            }.joined()
        }
        var id = hex(3)
        while entries.contains(where: { $0.id == id }) { id = hex(3) }
        let cleaned = String(name.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.prefix(40))
        let e = Entry(id: id, token: hex(32), name: cleaned.isEmpty ? "browser" : cleaned, created: now)
        entries.append(e)
        try write()
        return e
    }

    /// Revoke the token `id`; false if there is none.
    public func revoke(id: String) throws(Failure) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        try reload()
        guard let i = entries.firstIndex(where: { $0.id == id }) else { return false }
        entries.remove(at: i)
        try write()
        return true
    }

    private func reload() throws(Failure) {
        guard let now = FileSystem.stamp(path) else {
            entries = []
            stamp = nil
            return
        }
        if let stamp, stamp == now { return }
        guard let data = FileSystem.contents(path) else { throw Failure(description: "\(path): cannot be read") }
        do {
            let list = try JSON.parse(Array(data), limits: JSON.Limits(maxBytes: 4 << 20, maxDepth: 4))
            guard let items = list.array else { throw Failure(description: "\(list.kind), not a list") }
            entries = try items.enumerated().map { i, item in
                guard let e = Entry(item) else {
                    throw Failure(description: "entry \(i + 1) needs \"id\", \"token\", \"name\" (strings) and \"created\" (a whole number)")
                }
                return e
            }
        } catch {
            throw Failure(description: "\(path): not a token list (\(error)); move it away to start again (every browser pairs again)")
        }
        stamp = now
    }

    private func write() throws(Failure) {
        let tmp = path + ".new"
        do {
            let data = JSON.array(entries.map(\.json)).bytes(.encoderPretty)
            FileSystem.remove(tmp)
            guard FileSystem.create(tmp, data, mode: 0o600) else {
                throw Failure(description: "\(tmp): cannot be written (does the directory exist and belong to tock-web?)")
            }
            guard rename(tmp, path) == 0 else { throw Failure(description: "\(path): cannot be replaced (errno \(errno))") }
        } catch let f as Failure {
            throw f
        } catch {
            throw Failure(description: "\(path): \(error)")
        }
        stamp = nil
    }
}

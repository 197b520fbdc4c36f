/// One thing wrong with a configuration file, said so a person can fix it:
/// `/etc/tock/config.yaml:12: alarm.ring_for: "6o s" is not a duration`.
public struct ConfigProblem: Error, Equatable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var key: String
    public var message: String

    public init(file: String, line: Int, key: String, message: String) {
        self.file = file
        self.line = line
        self.key = key
        self.message = message
    }

    public var description: String { "\(file):\(line): \(key.isEmpty ? "" : "\(key): ")\(message)" }
}

/// Every problem found in a file; a file with any problem is refused whole.
public struct ConfigError: Error, CustomStringConvertible {
    public var problems: [ConfigProblem]
    public var description: String { problems.map(\.description).joined(separator: "\n") }
}

/// A section's known keys in the file's order, each once, read by name.
/// (A list, not a dictionary: the first dictionary keyed by strings that a
/// program fills has the runtime look up String's `Hashable` among all
/// the binary's conformances, about 0.23 M instructions at start,
/// `make bench-startup`; the sections' dictionaries were the first.)
struct Section {
    struct Entry {
        let key: String
        let value: Node
    }
    fileprivate(set) var entries: [Entry] = []

    subscript(key: String) -> Node? {
        for e in entries where e.key == key { return e.value }
        return nil
    }
}

/// The line each key was first seen on: a list, as `Section` says why,
/// with an index by name once it holds more than `listed` keys (a list
/// alone is quadratic in a file of thousands of keys: 64 KiB holds 7,400,
/// and such a file took four times the instructions to be refused).
public struct KeyLines: Equatable, Sendable {
    private var keys: [String] = []
    private var lines: [Int] = []
    private var index: [String: Int]?
    static let listed = 32

    public init() {}

    private func position(of key: String) -> Int? {
        if let index { return index[key] }
        return keys.firstIndex(of: key)
    }

    public subscript(key: String) -> Int? { position(of: key).map { lines[$0] } }

    /// `key` is on `line` (a key already noted keeps its place).
    mutating func note(_ key: String, _ line: Int) {
        if let i = position(of: key) {
            lines[i] = line
            return
        }
        keys.append(key)
        lines.append(line)
        if index != nil {
            index?[key] = keys.count - 1
        } else if keys.count > Self.listed {
            index = Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, $0) })
        }
    }
}

/// Walks a YAML document collecting typed values and problems, with the
/// line and dotted key of each. Unknown keys are problems: a typo must not
/// be silently ignored.
final class ConfigReader {
    let file: String
    private(set) var problems: [ConfigProblem] = []
    /// The line each key's value is on, for problems found later.
    private(set) var keyLines = KeyLines()

    init(file: String) { self.file = file }

    /// The longest message kept: a problem quotes the value it refuses, and
    /// a value can be as long as the file.
    static let maxMessage = 240

    func problem(_ node: Node?, _ key: String, _ message: String) {
        let text = message.count <= Self.maxMessage ? message : message.prefix(Self.maxMessage) + "…"
        let name = key.count <= 80 ? key : key.prefix(80) + "…"
        problems.append(ConfigProblem(file: file, line: node?.line ?? 1, key: String(name), message: String(text)))
    }

    /// The keys of a mapping, refusing unknown and repeated ones.
    func mapping(_ node: Node, _ path: String, allowed: [String]) -> Section {
        guard case .mapping(let m) = node.value else {
            problem(node, path, "expected a section of keys (\(allowed.joined(separator: ", ")))")
            return Section()
        }
        var out = Section()
        var firstLines = KeyLines()
        for (k, v) in m {
            guard case .scalar(let key) = k.value else { problem(k, path, "keys must be plain words"); continue }
            // A key that is no word is not echoed: a file that is not a
            // configuration (a wrong path, a symlink to another file) must
            // not have its lines copied into the log.
            let word = key.count <= 40 && key.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }
            let full = (path.isEmpty ? "" : "\(path).") + (word ? key : "(a key that is no word)")
            if let first = firstLines[key] {
                problem(k, full, "appears twice (first on line \(first)); keep one")
            } else if !allowed.contains(key) {
                let hint = closest(key, in: allowed).map { "; did you mean \($0)?" } ?? ""
                problem(k, full, "unknown key\(hint) (known here: \(allowed.joined(separator: ", ")))")
            } else {
                out.entries.append(Section.Entry(key: key, value: v))
            }
            if firstLines[key] == nil { firstLines.note(key, k.line) }
        }
        return out
    }

    func string(_ node: Node, _ key: String) -> String? {
        keyLines.note(key, node.line)
        guard case .scalar(let s) = node.value, !s.isEmpty else {
            problem(node, key, "expected a value")
            return nil
        }
        return s
    }

    func choice(_ node: Node, _ key: String, _ options: [String]) -> String? {
        guard let s = string(node, key) else { return nil }
        guard options.contains(s) else {
            problem(node, key, "\"\(s)\" is not one of \(options.joined(separator: ", "))")
            return nil
        }
        return s
    }

    func duration(_ node: Node, _ key: String, min: Duration = .nanoseconds(1), max: Duration? = nil) -> Duration? {
        guard let s = string(node, key) else { return nil }
        let d: Duration
        do { d = try DurationText.parse(s) } catch {
            problem(node, key, error.description)
            return nil
        }
        if d < min {
            problem(node, key, "\(s) is too short (at least \(DurationText.format(min)))")
            return nil
        }
        if let max, d > max {
            problem(node, key, "\(s) is too long (at most \(DurationText.format(max)))")
            return nil
        }
        return d
    }

    func int(_ node: Node, _ key: String, _ range: ClosedRange<Int>) -> Int? {
        guard let s = string(node, key) else { return nil }
        // Hexadecimal too: I2C addresses are written 0x70.
        let parsed = s.lowercased().hasPrefix("0x") ? Int(s.dropFirst(2), radix: 16) : Int(s)
        guard let n = parsed, range.contains(n) else {
            problem(node, key, "\"\(s)\" is not a whole number from \(range.lowerBound) to \(range.upperBound)")
            return nil
        }
        return n
    }

    func bool(_ node: Node, _ key: String) -> Bool? {
        guard let s = string(node, key) else { return nil }
        switch s.lowercased() {
        case "true", "yes", "on": return true
        case "false", "no", "off": return false
        default:
            problem(node, key, "\"\(s)\" is not true or false")
            return nil
        }
    }

    func list(_ node: Node, _ key: String) -> [Node]? {
        switch node.value {
        case .sequence(let seq): return seq
        case .scalar: return [node]  // a single value stands for a list of one
        default:
            problem(node, key, "expected a list, e.g. [5m, 10m]")
            return nil
        }
    }

    /// The allowed key nearest to a typo, if it is near enough.
    private func closest(_ key: String, in allowed: [String]) -> String? {
        let scored = allowed.map { ($0, editDistance(Array(key), Array($0))) }.min { $0.1 < $1.1 }
        guard let (best, d) = scored, d <= max(1, key.count / 3) else { return nil }
        return best
    }

    private func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        var row = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var prev = row[0]
            row[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let cur = row[j]
                row[j] = Swift.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] == b[j - 1] ? 0 : 1))
                prev = cur
            }
        }
        return row[b.count]
    }
}

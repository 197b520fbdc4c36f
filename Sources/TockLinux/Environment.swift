import Glibc

/// Variables of the process's environment, read with getenv(3): the few a
/// caller names, as the dictionary the readers take. Foundation's
/// `ProcessInfo.environment` builds a dictionary of every variable at each
/// call, which cost the service's start-up some 1.5 M instructions.
public enum Environment {
    public static func variables(_ names: String...) -> Variables {
        var out = Variables()
        for name in names {
            if let value = value(name) { out.set(name, value) }
        }
        return out
    }

    /// Some variables by name (a list: no dictionary of strings before
    /// ready, docs/benchmarks.md says why; the service reads these at start).
    public struct Variables: ExpressibleByDictionaryLiteral, Equatable, Sendable {
        private var names: [String] = []
        private var values: [String] = []

        public init() {}
        public init(dictionaryLiteral elements: (String, String)...) {
            for (n, v) in elements { set(n, v) }
        }

        public subscript(name: String) -> String? {
            names.firstIndex(of: name).map { values[$0] }
        }

        mutating func set(_ name: String, _ value: String) {
            if let i = names.firstIndex(of: name) { values[i] = value } else { names.append(name); values.append(value) }
        }
    }

    /// One variable, nil when unset.
    public static func value(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// Every variable (for the few readers that take the whole
    /// environment: the desk's socket path).
    public static func all() -> [String: String] {
        var out: [String: String] = [:]
        var p = environ
        while let entry = p.pointee {
            let text = String(cString: entry)
            if let eq = text.firstIndex(of: "=") { out[String(text[..<eq])] = String(text[text.index(after: eq)...]) }
            p += 1
        }
        return out
    }
}

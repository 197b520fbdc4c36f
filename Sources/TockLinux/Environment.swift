import Glibc

/// Variables of the process's environment, read with getenv(3): the few a
/// caller names, as the dictionary the readers take. Foundation's
/// `ProcessInfo.environment` builds a dictionary of every variable at each
/// call, which cost the service's start-up some 1.5 M instructions.
public enum Environment {
    public static func variables(_ names: String...) -> [String: String] {
        var out: [String: String] = [:]
        for name in names {
            if let value = value(name) { out[name] = value }
        }
        return out
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

/// The codes the display shows for a mistake in the boot partition's files
/// (docs/raspberry-pi.md lists them; the first mistake's code is shown).
public enum SetupCode: String, Sendable, CaseIterable, Comparable {
    /// A line that is not `key = value`, an unknown key, a file too large,
    /// too slow or not text.
    case er01 = "Er01"
    case hostname = "Er02"
    case wifi = "Er03"
    case timezone = "Er04"
    case sshKey = "Er05"
    case address = "Er06"
    /// tock/config.yaml (`tock config check`'s problems).
    case config = "Er10"

    public static func < (a: SetupCode, b: SetupCode) -> Bool { a.rawValue < b.rawValue }
}

/// One mistake: where it is, what is wrong, what to write instead.
public struct SetupProblem: Equatable, Sendable, CustomStringConvertible {
    public var file: String
    /// 1-based; nil for the file as a whole (a setting that needs another).
    public var line: Int?
    public var code: SetupCode
    public var message: String
    public var fix: String

    public init(file: String, line: Int?, code: SetupCode, message: String, fix: String) {
        self.file = file
        self.line = line
        self.code = code
        self.message = message
        self.fix = fix
    }

    /// `tock-setup.txt line 2: timezone "Europe/Nowhere" is ...` and, indented, `fix: ...`.
    public var description: String {
        "\(file)\(line.map { " line \($0)" } ?? ""): \(message)\n    fix: \(fix)"
    }
}

/// Where a setting came from, for the log's "in use" lines and the rule
/// when both files set one.
public struct SetupSource: Equatable, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var description: String { "\(file) line \(line)" }
}

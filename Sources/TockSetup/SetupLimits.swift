/// How much of a setup file is read and for how long: the boot waits for
/// the setup, so a file written by mistake (a log pasted in, a picture
/// saved under the name) costs the boot a bounded moment, and its report
/// a bounded log.
public struct SetupLimits: Sendable {
    /// Bytes read of a file: the longest real setup (a few SSH keys) is a few KiB.
    public var bytes = 1 << 20
    /// Time for reading one file, on the clock the reader is given.
    public var nanoseconds: UInt64 = 5_000_000_000
    /// Mistakes listed one by one; the rest are counted.
    public var problems = 50
    /// The clock is read once every this many lines.
    public var linesPerClockRead = 1024

    public init() {}
}

/// A file's settings and its mistakes.
public struct SetupReading: Sendable {
    public var settings = SetupSettings()
    /// The first `SetupLimits.problems` mistakes, in line order.
    public var problems: [SetupProblem] = []
    /// All mistakes, listed or not.
    public var problemCount = 0
    /// What the log says that is not a mistake (a byte order mark left out).
    public var notes: [String] = []
    let limit: Int

    init(limit: Int) { self.limit = limit }

    /// The code the display shows: the first mistake's.
    public var code: SetupCode? { problems.first?.code }

    /// A mistake; past the listed ones only counted, its text never made.
    mutating func add(_ p: @autoclosure () -> SetupProblem) {
        problemCount += 1
        if problems.count < limit { problems.append(p()) }
    }

    /// The mistakes as the log lists them, with the count of those left out.
    public var report: String {
        var lines = problems.map(\.description)
        if problemCount > problems.count {
            lines.append("... and \(problemCount - problems.count) more mistakes not listed (the first \(problems.count) are above)")
        }
        return lines.joined(separator: "\n")
    }
}

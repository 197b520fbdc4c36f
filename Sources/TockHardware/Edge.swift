import TockCore

/// One level change on an input line, with the time the backend saw it
/// (the kernel's event timestamp for GPIO, on the appliance's monotonic
/// clock). `active` is normalised for polarity (by `InputReader`, for
/// every board): pressed for a button, Up for the switch.
public struct Edge: Equatable, Sendable, CustomStringConvertible {
    public var line: InputLine
    public var active: Bool
    public var timestamp: Instant

    public init(line: InputLine, active: Bool, timestamp: Instant) {
        self.line = line
        self.active = active
        self.timestamp = timestamp
    }

    public var description: String { "\(line.name) \(active ? "active" : "inactive") at \(timestamp)" }
}

/// Input lines whose edges are read from a file descriptor that becomes
/// readable when events are pending (a GPIO line request). The reactor
/// watches the descriptor; nothing polls.
public protocol EdgeReader: AnyObject {
    var descriptor: CInt { get }
    /// Read every pending edge without blocking.
    func readEdges() throws -> [Edge]
}

/// A change of an input line's electrical level as a board saw it: `high`
/// is the voltage on the pin, before polarity (`InputReader` applies it).
public struct LevelChange: Equatable, Sendable {
    public var line: InputLine
    public var high: Bool
    public var timestamp: Instant

    public init(line: InputLine, high: Bool, timestamp: Instant) {
        self.line = line
        self.high = high
        self.timestamp = timestamp
    }
}

/// Input lines as a board opened them (`Board.inputs`): a descriptor that
/// becomes readable when level changes are pending (a GPIO line request's,
/// a mock board's), and the changes, electrical, oldest first.
public protocol LevelReader: AnyObject {
    var descriptor: CInt { get }
    /// Each line's electrical level when it was opened.
    var initialLevels: PerLine<Bool> { get }
    /// Every pending change without blocking; none is an empty list.
    func readLevels() throws -> [LevelChange]
}

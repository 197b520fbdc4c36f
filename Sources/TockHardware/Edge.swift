import TockCore

/// One level change on an input line, with the time the backend saw it
/// (the kernel's event timestamp for GPIO, on the appliance's monotonic
/// clock). `active` is already normalised for polarity: pressed for a
/// button, Up for the switch.
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

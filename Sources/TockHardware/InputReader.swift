import TockCore

/// The one edge reader, over any board's input lines (gpiozero's polarity
/// normalised once): a libgpiod line request and the mock board's lines
/// both hand it electrical levels, and it alone turns them into edges in
/// domain terms, with `pins.active_low` applied exactly here. The loop
/// calls it when the board's descriptor is readable, so a mock press is
/// read, ordered among the timers and handled as a kernel event is.
///
/// What a board cannot promise is repaired here, the same for every board:
/// - two changes to the same level in a row mean the one between was lost
///   (a kernel buffer that overflowed): it is put back, dated with the
///   second, so the debouncer never sees a stuck level;
/// - an edge dated before the one read before it (a script's stamps, a
///   clock that stepped) is dated at that one: edges are handled in the
///   order read and time does not run backwards through the debouncer;
/// - a change on a line this reader was not opened for is dropped, said
///   once per line, and loses nothing else in the read.
public final class InputReader: EdgeReader {
    /// Whether a line is active (pressed, Up) when low: a button to GND.
    public let activeLow: Bool
    private let source: any LevelReader
    private let onProblem: (String) -> Void
    /// Each line's electrical level as last read.
    public private(set) var levels: PerLine<Bool>
    /// The timestamp of the last edge handed on.
    private var latest: Instant?
    /// Lines read that this reader was not opened for (said once each).
    private var strangers = PerLine<Bool>()

    /// - Parameter onProblem: told of lost edges and strange lines, one
    ///   line per read at most.
    public init(_ source: any LevelReader, activeLow: Bool, onProblem: @escaping (String) -> Void = { _ in }) {
        self.source = source
        self.activeLow = activeLow
        self.onProblem = onProblem
        levels = source.initialLevels
    }

    public var descriptor: CInt { source.descriptor }

    /// The lines read, with whether each is active now.
    public var active: PerLine<Bool> { levels.mapValues { $0 != activeLow } }

    /// Polarity, the one place it is applied: active is high, or low on an
    /// active-low line.
    public func isActive(high: Bool) -> Bool { high != activeLow }

    public func readEdges() throws -> [Edge] {
        let changes = try source.readLevels()
        var edges: [Edge] = []
        edges.reserveCapacity(changes.count)
        var lost = 0
        var lostOn: Set<String> = []
        for change in changes {
            guard let level = levels[change.line] else {
                if strangers[change.line] == nil {
                    strangers[change.line] = true
                    onProblem("an edge on \(change.line.name), a line these inputs were not opened for, ignored")
                }
                continue
            }
            let t = latest.map { max($0, change.timestamp) } ?? change.timestamp
            latest = t
            if change.high == level {
                lost += 1
                lostOn.insert(change.line.name)
                edges.append(Edge(line: change.line, active: isActive(high: !change.high), timestamp: t))
            }
            edges.append(Edge(line: change.line, active: isActive(high: change.high), timestamp: t))
            levels[change.line] = change.high
        }
        if lost > 0 {
            onProblem("\(lostOn.sorted().joined(separator: ", ")): \(lost) edge\(lost == 1 ? "" : "s") lost between two reports of the same level, put back")
        }
        return edges
    }
}

import Glibc
import TockCore
import TockHardware

/// The mock board's input lines, modelled as wires: each rests at the
/// level its pull resistor gives it (`pins.bias`: high with a pull-up, low
/// with a pull-down; without one it keeps the level it last had) and is
/// driven high or low by whatever is connected to it (`MockPanel`'s
/// contacts, a test). Polarity is not theirs: what they report is the
/// level on the wire, and `InputReader` reads them as it reads a GPIO chip.
///
/// Every change of level is queued with its time, and the queue's
/// descriptor becomes readable, as a GPIO line request's does when the
/// kernel has events: the loop reads the queue when it serves descriptors,
/// after the timer that drove the line and before the next one.
public final class MockInputLines: LevelReader {
    private struct Wire {
        /// The level the pull resistor gives an undriven line (nil: none).
        var pull: Bool?
        /// The level driven onto the line (nil: nothing drives it).
        var driven: Bool?
        var level: Bool
    }

    public let bias: Bias
    public private(set) var initialLevels: PerLine<Bool>
    private var wires: PerLine<Wire>
    private var pending: [LevelChange] = []
    private var wasRead = false
    /// A pipe that holds one byte while changes are pending: its read end
    /// is the descriptor the loop watches (pipe(7)).
    private let readEnd: CInt
    private let writeEnd: CInt

    /// The lines, each at rest at the pull's level.
    public init(_ lines: [InputLine], bias: Bias) {
        self.bias = bias
        let pull: Bool? = switch bias {
        case .pullUp: true
        case .pullDown: false
        case .disabled, .asIs: nil
        }
        var wires = PerLine<Wire>()
        for line in lines { wires[line] = Wire(pull: pull, driven: nil, level: pull ?? false) }
        self.wires = wires
        initialLevels = wires.mapValues(\.level)
        var fds: [CInt] = [-1, -1]
        // Out of descriptors at start-up: nothing a mock could do about it.
        let made = pipe(&fds)
        precondition(made == 0, "mock input lines: pipe(2) failed, errno \(errno)")
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        (readEnd, writeEnd) = (fds[0], fds[1])
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }

    public var descriptor: CInt { readEnd }
    public var lines: [InputLine] { wires.lines }

    /// The level on `line` now (nil: no such line on this board).
    public func level(_ line: InputLine) -> Bool? { wires[line]?.level }

    /// What drives `line` when the board powers up, before anything reads
    /// the lines (a switch left Up, an external resistor): no edge.
    public func connect(_ line: InputLine, high: Bool?) {
        precondition(!wasRead && pending.isEmpty, "connect(\(line.name)) after the lines were read: drive it instead")
        guard var wire = wires[line] else { preconditionFailure("\(line.name) is not one of this mock board's input lines") }
        wire.driven = high
        wire.level = high ?? wire.pull ?? wire.level
        wires[line] = wire
        initialLevels[line] = wire.level
    }

    /// Drive `line` high or low at `t`, or let it go (`nil`): the pull
    /// takes it back, or without one it keeps its level. A change of level
    /// is an edge for the reader; driving the level the line has is none.
    public func drive(_ line: InputLine, high: Bool?, at t: Instant) {
        guard var wire = wires[line] else {
            preconditionFailure("\(line.name) is not one of this mock board's input lines (\(lines.map(\.name)))")
        }
        wire.driven = high
        let level = high ?? wire.pull ?? wire.level
        let changed = level != wire.level
        wire.level = level
        wires[line] = wire
        guard changed else { return }
        if pending.isEmpty {
            var byte: UInt8 = 1
            let written = write(writeEnd, &byte, 1)
            precondition(written == 1, "mock input lines: write(2) to its own pipe failed, errno \(errno)")
        }
        pending.append(LevelChange(line: line, high: level, timestamp: t))
    }

    public func readLevels() throws -> [LevelChange] {
        var bytes: (UInt8, UInt8) = (0, 0)
        _ = withUnsafeMutableBytes(of: &bytes) { Glibc.read(readEnd, $0.baseAddress, $0.count) }
        wasRead = true
        let changes = pending
        pending = []
        return changes
    }
}

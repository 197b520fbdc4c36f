import Logging
import TockCore
import TockHardware
import TockLinux
import TockLoop
import TockMock

/// `tock run --backend mock --mock-input FIFO`: the mock panel's lines
/// driven from text written to a named pipe, one edge per line:
///
///     start 1 123456789012
///     start 0
///     switch 1
///
/// The line (`start`, `stop`, `reset`, `switch`), its level (1: pressed, or
/// the switch Up; 0: released, or Down) and optionally the instant of the
/// edge in `CLOCK_MONOTONIC` nanoseconds, as a GPIO line event carries it
/// (without one, the edge happened when it was read). Each line closes or
/// opens a contact of the mock panel, which drives the mock board's wires:
/// the edges reach the core through the same `InputReader`, loop,
/// debouncer and state machine as real GPIO events; a script or a
/// benchmark presses buttons on a headless appliance this way.
///
/// Like a wire, a line driven to the level it already has makes no edge.
/// A line that does not parse is logged, naming what was expected, and
/// skipped; it changes nothing.
public final class MockInputStream {
    public static let grammar = "<start|stop|reset|switch> <1|0> [CLOCK_MONOTONIC nanoseconds]"
    /// Longer lines are not edges; they are dropped up to the next newline.
    static let maximumLine = 128

    private let fifo: FIFOReader
    private let timestamp: (UInt64) -> Instant
    private let now: () -> Instant
    private let log: Logger
    private var pending: [UInt8] = []
    private var discarding = false
    private var lineNumber = 0

    /// - Parameter timestamp: converts a `CLOCK_MONOTONIC` instant to the appliance's clock.
    public init(path: String, timestamp: @escaping (UInt64) -> Instant,
                now: @escaping () -> Instant, log: Logger) throws(HardwareError) {
        fifo = try FIFOReader(path: path)
        self.timestamp = timestamp
        self.now = now
        self.log = log
    }

    public var descriptor: CInt { fifo.descriptor }
    public var path: String { fifo.path }

    /// Reads what was written without blocking and sets `panel`'s contacts
    /// line by line; the edges this makes are read by the panel's board.
    public func read(into panel: MockPanel) throws {
        let bytes = try fifo.readAvailable()
        let received = now()
        for byte in bytes {
            if byte != UInt8(ascii: "\n") {
                if !discarding { pending.append(byte) }
                if pending.count > Self.maximumLine {
                    pending.removeAll()
                    discarding = true
                }
                continue
            }
            lineNumber += 1
            defer { pending.removeAll() }
            if discarding {
                discarding = false
                log.warning("\(fifo.path) line \(lineNumber): longer than \(Self.maximumLine) bytes, ignored; expected \(Self.grammar)")
                continue
            }
            let text = String(decoding: pending, as: UTF8.self)
            switch Self.parse(text) {
            case .blank:
                continue
            case .problem(let why):
                log.warning("\(fifo.path) line \(lineNumber): \(why), ignored; expected \(Self.grammar)")
            case .edge(let line, let active, let at):
                // An edge cannot have happened after it was read.
                panel.set(line, active: active, at: min(at.map(timestamp) ?? received, received))
            }
        }
    }

    public enum Parsed: Equatable {
        case edge(InputLine, active: Bool, at: UInt64?)
        case blank
        case problem(String)
    }

    /// One line of the protocol (without its newline).
    public static func parse(_ text: String) -> Parsed {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
        guard let first = words.first else { return .blank }
        guard let line = InputLine(name: first) else { return .problem("unknown line \"\(first.prefix(20))\"") }
        guard words.count >= 2 else { return .problem("no level after \"\(first)\"") }
        let active: Bool
        switch words[1] {
        case "1": active = true
        case "0": active = false
        default: return .problem("level \"\(words[1].prefix(20))\" is not 1 or 0")
        }
        guard words.count >= 3 else { return .edge(line, active: active, at: nil) }
        guard words.count == 3, let ns = UInt64(words[2]), ns <= UInt64(Int64.max) else {
            return .problem("\"\(words.dropFirst(2).joined(separator: " ").prefix(30))\" is not a time in nanoseconds")
        }
        return .edge(line, active: active, at: ns)
    }
}

extension Devices {
    /// Has `loop` read the `--mock-input` script whenever it was written
    /// to: the script closes the mock panel's contacts, and their edges
    /// come back through the board's `InputReader`, like a person's. A read
    /// that fails goes to `onFailure`.
    public func watchScript(on loop: any EventLoop, log: Logger, onFailure: @escaping (any Error) -> Void) throws {
        guard let script, let panel else { return }
        try loop.watch(script.descriptor) {
            do {
                try script.read(into: panel)
            } catch {
                log.critical("reading \(script.path) failed: \(error); stopping")
                onFailure(error)
            }
        }
    }

    public func unwatchScript(on loop: any EventLoop) {
        if let script, panel != nil { try? loop.unwatch(script.descriptor) }
    }
}

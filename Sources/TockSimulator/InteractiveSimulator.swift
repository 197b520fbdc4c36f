import Glibc
import Logging
import TockConfig
import TockControl
import TockCore
import TockHardware
import TockLinux
import TockLoop
import TockMock
import TockHost
import TockDevices
import TockShell

/// The desk simulator in a terminal: the real core, shell and reactor in
/// real time, with the mock panel pressed from the keyboard and the display
/// drawn as large 7-segment digits.
public final class InteractiveSimulator {
    public struct NotATerminal: Error, CustomStringConvertible {
        public var description: String {
            "tock sim needs an interactive terminal; to run without one, replay a script: tock sim --script FILE --trace FILE"
        }
    }

    /// Keys and what they do; a key press is a press held for `hold`.
    static let keys: [UInt8: (InputLine, Bool, Duration)] = [
        UInt8(ascii: "s"): (.button(.start), true, .milliseconds(100)),
        UInt8(ascii: "x"): (.button(.stop), true, .milliseconds(100)),
        UInt8(ascii: "r"): (.button(.reset), true, .milliseconds(100)),
        UInt8(ascii: "S"): (.button(.start), true, .milliseconds(1_500)),
        UInt8(ascii: "X"): (.button(.stop), true, .milliseconds(1_500)),
        UInt8(ascii: "R"): (.button(.reset), true, .milliseconds(1_200)),
        UInt8(ascii: "u"): (.directionSwitch, true, .zero),
        UInt8(ascii: "d"): (.directionSwitch, false, .zero),
    ]

    /// What `l` sets the mock light sensor to, in turn: a dark room, a
    /// lamp, a lit kitchen, daylight (lux).
    static let rooms: [Double] = [1, 20, 200, 2000]

    private let config: Configuration
    private let tracePath: String?
    /// The control socket to serve (the same requests as `tock run`), so
    /// `tock status`, `tock start` and the page act on this box; nil: none.
    private let socketPath: String?
    private var screen = ""
    /// Colours unless NO_COLOR is set (https://no-color.org).
    private let color = Environment.value("NO_COLOR") == nil

    public init(config: Configuration, tracePath: String?, socketPath: String? = nil) {
        self.config = config
        self.tracePath = tracePath
        self.socketPath = socketPath
    }

    /// The control socket, opened, and the line the screen shows about it.
    static func openControl(_ path: String?) -> (UnixListener?, String) {
        guard let path else { return (nil, "") }
        do {
            if path == ControlSocketPath.personal() {
                do { try ControlSocketPath.preparePersonal(path) } catch { return (nil, "no control socket: \(error)") }
            }
            let listener = try ControlServer.listen(path: path)
            let how = path == ControlSocketPath.forClient() ? "tock status" : "tock status --socket \(path)"
            return (listener, "this box answers \(how) (and start, stop, watch ...)")
        } catch {
            return (nil, "no control socket: \(error)")
        }
    }

    public func run() throws {
        guard RawTerminal.isInteractive else { throw NotATerminal() }
        let reactor = try Reactor()
        // The configured display and buzzer drivers on a mock board: the
        // screen shows what the display chip lights.
        let parts = Devices.mockParts(config, clock: { [reactor] in reactor.now().monotonic }, keeping: .service)
        let panel = parts.panel, leds = parts.leds, display = parts.display
        let devices = Devices(readers: parts.devices.readers, panel: panel, display: display, sounder: TerminalBell(parts.sounder),
                              leds: parts.devices.leds, switchPosition: config.switchPosition, board: parts.devices.board,
                              summary: "the terminal, " + parts.devices.summary)
        var log = Logger(label: "tock.sim")
        log.logLevel = .critical  // the screen is the log
        let traceFile = try tracePath.map { try TraceSink(path: $0) }
        var setup = Box.Setup(config: config, devices: devices)
        let (listener, socketNote) = Self.openControl(socketPath)
        setup.control = listener
        setup.watchAddresses = true  // this machine's addresses, as a box's
        setup.trace = traceFile.map { file in
            { line in
                file.write(line)
                file.flush()
            }
        }
        let host = try Box(setup, loop: reactor, log: log)
        let shell = host.shell

        let terminal = try RawTerminal()
        defer {
            host.stop()
            terminal.restore()
            try? traceFile?.close()
            StandardStream.output.write("\n")
        }

        func redraw() {
            let s = SimulatorScreen.render(frame: display.current ?? .blank(digits: config.settings.display.digits),
                                           buzzer: shell.tone, state: shell.state ?? .ready,
                                           leds: Dictionary(uniqueKeysWithValues: leds.map { ($0.name, $0.active) }), switchPosition: panel.switchPosition.rawValue,
                                           light: parts.board.lightChip.map { "\(Int($0.lux)) lx" },
                                           detail: SimulatorScreen.detail(shell.progress()), note: socketNote, color: color)
            guard s != screen else { return }
            screen = s
            StandardStream.output.write((color ? "" : "\u{1B}[H\u{1B}[2J") + s)
        }
        host.shell.observe { _ in redraw() }
        reactor.onSignal = { sig in
            if sig != SIGHUP { reactor.stop() }
        }
        try reactor.watch(0) { [unowned reactor] in
            let keys = terminal.readKeys()
            if terminal.inputEnded { reactor.stop(); return }  // the terminal hung up
            for key in keys {
                if key == UInt8(ascii: "q") || key == 3 || key == 4 { reactor.stop(); return }
                if key == UInt8(ascii: "l"), let chip = parts.board.lightChip {
                    // The room's light, round the four rooms (the box reads it within `light.every`).
                    chip.lux = Self.rooms[((Self.rooms.firstIndex(of: chip.lux) ?? -1) + 1) % Self.rooms.count]
                    continue
                }
                guard let (line, active, hold) = Self.keys[key] else { continue }
                let now = reactor.now().monotonic
                switch line {
                case .directionSwitch:
                    panel.set(line, active: active, at: now)
                case .button(let b):
                    guard !panel.isActive(line) else { continue }
                    panel.press(b, at: now)
                    // The key is let go `hold` later.
                    reactor.schedule(at: .monotonic(now + hold)) { panel.release(b, at: now + hold) }
                }
            }
            redraw()
        }

        // The handlers refer to the reactor; drop them when the loop ends so
        // it is freed (and restores the signal mask).
        defer {
            reactor.onSignal = nil
            try? reactor.unwatch(0)
        }
        host.start()
        redraw()
        try reactor.run()
    }
}

/// The simulator's buzzer: the mock board's, and the terminal bell rings
/// at the start of each beep.
final class TerminalBell: Sounder {
    private let buzzer: MockSounder
    init(_ buzzer: MockSounder) { self.buzzer = buzzer }
    func sound(_ tone: Tone?) throws {
        if tone != nil, !buzzer.sounding { StandardStream.output.write([0x07]) }
        try buzzer.sound(tone)
    }
}

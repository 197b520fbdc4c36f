import Glibc
import SystemPackage

/// An interactive terminal put into key-at-a-time mode for as long as this
/// object lives: no line buffering, no echo, cursor hidden. `restore()`
/// (or deinit) puts back exactly the settings found.
///
/// Reading is left to the reactor: it watches the input descriptor and
/// calls `readKeys()` when keys are pending.
public final class RawTerminal {
    /// Standard input and standard output are both terminals.
    public static var isInteractive: Bool {
        Syscall.isTerminal(.standardInput) && Syscall.isTerminal(.standardOutput)
    }

    public let input: FileDescriptor
    public let output: FileDescriptor
    /// The terminal stopped giving input (a read failed, e.g. `EIO` after a
    /// hang-up); watching `input` any longer would only spin.
    public private(set) var inputEnded = false
    private var saved: termios?

    /// Saves the settings of `input` and switches it to non-canonical,
    /// no-echo mode; hides the cursor on `output`. Throws `ENOTTY` when
    /// `input` is not a terminal.
    public init(input: FileDescriptor = .standardInput, output: FileDescriptor = .standardOutput) throws(Errno) {
        self.input = input
        self.output = output
        let original = try Syscall.terminalAttributes(input)
        var raw = original
        // termios(3): without ICANON input is available key by key, without
        // ECHO keys are not printed. ISIG stays on, so Ctrl-C still raises
        // SIGINT and reaches the reactor's signalfd.
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        // termios(3), "MIN == 0, TIME == 0": read returns what is pending
        // without waiting. The descriptor itself stays blocking: O_NONBLOCK
        // would be set on the open file description the shell shares.
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        try Syscall.setTerminalAttributes(input, raw)
        saved = original
        // console_codes(4): ESC [ ? 25 l hides the cursor (DECTCEM).
        write("\u{1B}[?25l")
    }

    deinit { restore() }

    /// Every key byte pending now, without waiting; empty when none is.
    /// Escape sequences (arrows, function keys) arrive as their bytes.
    public func readKeys() -> [UInt8] {
        var keys: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64)
        while !inputEnded {
            let n: Int?
            do {
                n = try chunk.withUnsafeMutableBytes { buffer throws(Errno) in
                    try Syscall.read(input, into: buffer)
                }
            } catch {
                inputEnded = true
                break
            }
            guard let n, n > 0 else {
                // With MIN 0 a read of nothing is either no key yet or a
                // terminal that hung up (its window closed, its tmux server
                // went away); poll(2) tells them apart. Not ended, a hung-up
                // descriptor would be readable forever and the loop spin.
                if keys.isEmpty, hungUp { inputEnded = true }
                break
            }
            keys += chunk[..<n]
            if n < chunk.count { break }
        }
        return keys
    }

    /// poll(2) reports a hang-up (or an error) on the input.
    private var hungUp: Bool {
        var p = pollfd(fd: input.rawValue, events: Int16(POLLIN), revents: 0)
        return Glibc.poll(&p, 1, 0) == 1 && p.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0
    }

    /// Shows the cursor and restores the saved settings. Only the first
    /// call does anything.
    public func restore() {
        guard let original = saved else { return }
        saved = nil
        // console_codes(4): ESC [ ? 25 h shows the cursor again.
        write("\u{1B}[?25h")
        // Nothing is left to do if the terminal is gone (EIO, ENOTTY).
        try? Syscall.setTerminalAttributes(input, original)
    }

    /// Best effort: the cursor sequences are cosmetic, and a terminal that
    /// is gone (`EIO`) or will not take them now (`EAGAIN`) changes nothing
    /// else.
    private func write(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = try? bytes.withUnsafeBytes { buffer throws(Errno) in
                try Syscall.write(output, buffer)
            }
            guard let n = written, n > 0 else { return }
            bytes = bytes.dropFirst(n)
        }
    }
}

import Glibc
import SystemPackage
import Testing
@testable import TockLinux

/// RawTerminal on a pseudo-terminal pair (openpty(3)): the test plays the
/// terminal emulator on the master side.
@Suite(.serialized)
struct TerminalTests {
    final class PseudoTerminal {
        let master: FileDescriptor
        let slave: FileDescriptor

        init() throws {
            var m: CInt = -1
            var s: CInt = -1
            guard openpty(&m, &s, nil, nil, nil) == 0 else { throw Errno(rawValue: errno) }
            master = FileDescriptor(rawValue: m)
            slave = FileDescriptor(rawValue: s)
        }

        deinit {
            try? slave.close()
            try? master.close()
        }

        /// Reads what the program wrote until it ends with `suffix`; the
        /// line discipline delivers asynchronously, so each read waits in
        /// epoll (bounded).
        func output(endingWith suffix: [UInt8]) throws -> [UInt8] {
            let epoll = try Epoll()
            try epoll.add(master)
            var bytes: [UInt8] = []
            while !bytes.ends(with: suffix) {
                guard try !epoll.wait(timeout: .seconds(1)).isEmpty else { break }
                var chunk = [UInt8](repeating: 0, count: 256)
                let n = try chunk.withUnsafeMutableBytes { try master.read(into: $0) }
                bytes += chunk[..<n]
            }
            return bytes
        }

        func type(_ bytes: [UInt8]) throws { _ = try master.writeAll(bytes) }

        func waitForInput() throws -> Bool {
            let epoll = try Epoll()
            try epoll.add(slave)
            return try !epoll.wait(timeout: .seconds(1)).isEmpty
        }
    }

    private func bytes(of t: termios) -> [UInt8] {
        withUnsafeBytes(of: t) { Array($0) }
    }

    @Test func rawModeIsEnteredAndRestoredExactlyOnce() throws {
        let pty = try PseudoTerminal()
        var original = termios()
        #expect(tcgetattr(pty.slave.rawValue, &original) == 0)

        let terminal = try RawTerminal(input: pty.slave, output: pty.slave)
        #expect(try pty.output(endingWith: Array("\u{1B}[?25l".utf8)) == Array("\u{1B}[?25l".utf8))
        var raw = termios()
        #expect(tcgetattr(pty.slave.rawValue, &raw) == 0)
        #expect(raw.c_lflag & tcflag_t(ICANON | ECHO) == 0)
        #expect(raw.c_lflag & tcflag_t(ISIG) != 0)
        withUnsafeBytes(of: raw.c_cc) { cc in
            #expect(cc[Int(VMIN)] == 0)
            #expect(cc[Int(VTIME)] == 0)
        }

        #expect(terminal.readKeys() == [])
        let keys: [UInt8] = [UInt8(ascii: "q"), 0x1B, UInt8(ascii: "["), UInt8(ascii: "A")]
        try pty.type(keys)
        #expect(try pty.waitForInput())
        #expect(terminal.readKeys() == keys)
        #expect(terminal.readKeys() == [])
        #expect(!terminal.inputEnded)

        terminal.restore()
        terminal.restore()
        var restored = termios()
        #expect(tcgetattr(pty.slave.rawValue, &restored) == 0)
        #expect(bytes(of: restored) == bytes(of: original))
        // A marker written after both restores: everything before it is
        // what restore() wrote, and it must be one show-cursor sequence.
        _ = try pty.slave.writeAll(Array("M".utf8))
        #expect(try pty.output(endingWith: Array("M".utf8)) == Array("\u{1B}[?25hM".utf8))
    }

    /// A terminal that hangs up (its window closed, its tmux server gone)
    /// ends the input; before, a read of nothing looked like no key yet and
    /// the simulator spun at 9,400 wake-ups a second.
    @Test func aHungUpTerminalEndsTheInput() throws {
        var m: CInt = -1, sl: CInt = -1
        guard openpty(&m, &sl, nil, nil, nil) == 0 else { throw Errno(rawValue: errno) }
        let slave = FileDescriptor(rawValue: sl)
        defer { try? slave.close() }
        let terminal = try RawTerminal(input: slave, output: slave)
        #expect(terminal.readKeys() == [])
        #expect(!terminal.inputEnded)
        close(m)
        #expect(terminal.readKeys() == [])
        #expect(terminal.inputEnded)
    }

    @Test func nonTerminalIsRefused() throws {
        let pipe = try TestPipe()
        #expect(throws: Errno.inappropriateIOCTLForDevice) {
            _ = try RawTerminal(input: pipe.readEnd, output: pipe.writeEnd)
        }
    }

    @Test func interactiveMeansBothStandardStreamsAreTerminals() {
        #expect(RawTerminal.isInteractive == (isatty(0) == 1 && isatty(1) == 1))
    }
}

extension Array where Element: Equatable {
    fileprivate func ends(with suffix: [Element]) -> Bool {
        count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}

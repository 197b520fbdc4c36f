import TockHardware
import TockLinux

/// Where a trace or a timing log goes: a file the user named, written in
/// place (`OutputFile`: a regular file, a FIFO or a character device such
/// as /dev/null; a symbolic link is followed), or standard output for "-".
/// Lines are buffered and written at `flush` (or past 64 KiB).
public final class TraceSink {
    private let file: OutputFile
    private var buffer: [UInt8] = []
    /// The first write that failed; later lines are dropped, so a full
    /// disk costs the trace, never the timer.
    public private(set) var failure: FileError?

    /// - Parameter what: what is written, for the error ("the trace").
    public init(path: String, what: String = "the trace") throws(HardwareError) {
        if path == "-" {
            file = .standardOutput()
            return
        }
        do throws(FileError) {
            file = try OutputFile(path: path)
        } catch {
            throw HardwareError(.io, "cannot write \(what) to \(path): \(error)")
        }
    }

    /// One line, without its newline.
    public func write(_ line: String) {
        buffer += line.utf8
        buffer.append(0x0A)
        if buffer.count > 1 << 16 { flush() }
    }

    public func flush() {
        guard !buffer.isEmpty else { return }
        defer { buffer.removeAll(keepingCapacity: true) }
        guard failure == nil else { return }
        do throws(FileError) {
            try file.write(buffer)
        } catch {
            failure = error
        }
    }

    /// Flushes and closes; throws the first write that failed.
    public func close() throws(HardwareError) {
        flush()
        file.close()
        if let failure { throw HardwareError(.io, "the trace is incomplete: \(failure)") }
    }
}

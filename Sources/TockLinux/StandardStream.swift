import Glibc

/// Standard output and standard error, written whole (a short write or
/// an interrupted one is continued).
public enum StandardStream {
    case output, error

    /// Whether every byte was written (false when the reader has gone).
    @discardableResult
    public func write(_ text: String) -> Bool { write(Array(text.utf8)) }

    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool {
        let fd: Int32 = self == .output ? STDOUT_FILENO : STDERR_FILENO
        return bytes.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + done, raw.count - done)
                if n < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                done += n
            }
            return true
        }
    }
}

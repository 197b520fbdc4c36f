import Glibc
import TockHost
import TockConfig
import TockControl
import TockLinux
import TockCore

/// The command line's end of the control socket. Every step is bounded,
/// so that no service (stopped with SIGSTOP, wedged, or not tock at all)
/// can hang the command or grow its memory: the connect and the request
/// are bounded by `timeout`, a reply must be complete within `timeout`,
/// and no reply line may exceed `maxLine` bytes. Only `watch`, between
/// events, waits as long as it takes; a line it has begun must still be
/// finished within `timeout`.
final class ControlClient {
    /// Longest reply line taken, newline excluded: a status with the most
    /// alarms is a few KiB; anything near this is not a tock speaking.
    static let maxLine = 65536

    let socket: String
    let timeout: Duration
    private let connection: UnixConnection
    private let clock = SystemClock()
    private var pending: [UInt8] = []

    init(socket: String, timeout: Duration) throws(Failure) {
        self.socket = socket
        self.timeout = timeout
        do { connection = try UnixConnection.connect(to: socket, timeout: timeout) } catch {
            switch error {
            case .noSuchFileOrDirectory, .connectionRefused:
                throw Failure("cannot reach tock at \(socket): is the service running? (systemctl status tock)", exit: .unreachable)
            case .permissionDenied:
                throw Failure("cannot reach tock at \(socket): permission denied; add yourself to the tock group "
                              + "(sudo usermod -aG tock $USER) and log in again", exit: .noPermission)
            case .wouldBlock:
                throw Failure("\(socket) did not take the connection within \(DurationText.format(timeout)) "
                              + "(is the service stopped with SIGSTOP? systemctl status tock)", exit: .timedOut)
            default:
                throw Failure("cannot reach tock at \(socket): \(error)", exit: .unreachable)
            }
        }
    }

    deinit { connection.close() }

    func send(_ request: ControlRequest) throws(Failure) {
        do { try connection.writeAll(Array((request.line + "\n").utf8)) } catch {
            throw failure(error.rawValue, "\(error)", sending: true)
        }
    }

    /// The next line. A reply (`patient` false) must begin and end within
    /// `timeout`; an event (`patient` true) may take as long as it likes
    /// to begin, and then must end within `timeout`.
    func line(patient: Bool = false) throws(Failure) -> String {
        var deadline: Instant? = patient && pending.isEmpty ? nil : now() + timeout
        while true {
            if let nl = pending.firstIndex(of: 0x0A) {
                let line = String(decoding: pending[..<nl], as: UTF8.self)
                pending.removeSubrange(...nl)
                return line
            }
            guard pending.count <= Self.maxLine else {
                throw Failure("reply from \(socket) longer than \(Self.maxLine) bytes; is it a tock?", exit: .badReply)
            }
            let left = deadline.map { Int(($0 - now()).nanoseconds / 1_000_000) }
            if let left, left <= 0 {
                throw pending.isEmpty
                    ? Failure("no reply from \(socket) within \(DurationText.format(timeout)) "
                              + "(is the service stopped with SIGSTOP? systemctl status tock)", exit: .timedOut)
                    : Failure("reply from \(socket) not finished within \(DurationText.format(timeout)) "
                              + "(\(pending.count) bytes without a newline)", exit: .timedOut)
            }
            let chunk: [UInt8]?
            do {
                guard try connection.waitForInput(milliseconds: left) else { continue }
                chunk = try connection.read(max: 16384)
            } catch {
                throw failure(error.rawValue, "\(error)", sending: false)
            }
            guard let chunk else { continue }
            guard !chunk.isEmpty else {
                throw Failure("the service closed the connection" + (pending.isEmpty ? " without a reply" : " in the middle of a reply"),
                              exit: .closed)
            }
            if deadline == nil { deadline = now() + timeout }
            pending += chunk
        }
    }

    private func now() -> Instant { clock.now().monotonic }

    /// What a failed read or write means, from its errno: EPIPE (SIGPIPE
    /// is ignored, see `Tock.main`) and ECONNRESET are the service closing
    /// on us; EAGAIN is the send timeout running out.
    private func failure(_ errno: CInt, _ text: String, sending: Bool) -> Failure {
        switch errno {
        case EPIPE, ECONNRESET:
            return Failure("the service closed the connection" + (sending ? " before taking the request" : ""), exit: .closed)
        case EAGAIN:
            return Failure("\(socket) did not take the request within \(DurationText.format(timeout)) "
                           + "(is the service stopped with SIGSTOP? systemctl status tock)", exit: .timedOut)
        default:
            return Failure("talking to tock at \(socket): \(text)", exit: .closed)
        }
    }
}

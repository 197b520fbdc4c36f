import TockControl
import TockCore
import TockJSON
import TockLinux

/// tock-web's end of the appliance's control socket: one request, one
/// reply line, on a connection of its own, bounded by `timeout`; and the
/// watch, a connection that hands on every event line. The appliance's
/// rules (ControlSlots) bound what this process can hold there.
public struct ControlLink: Sendable {
    public let socket: String
    public let timeout: Duration

    public init(socket: String, timeout: Duration = .seconds(3)) {
        self.socket = socket
        self.timeout = timeout
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// A reply line as it came (handed on to the page as it is), and read.
    public struct Reply: Sendable {
        public var line: [UInt8]
        public var reply: ControlReply

        public init(line: [UInt8], reply: ControlReply) {
            self.line = line
            self.reply = reply
        }

        /// A reply made here (tests): the line written from the object,
        /// which must be a reply (have `ok`).
        public init(_ object: JSONObject) { self.init(line: JSON.object(object).bytes(), reply: ControlReply(object)!) }
    }

    /// Send `request`, return its reply.
    public func send(_ request: ControlRequest) throws(Failure) -> Reply {
        let c = try connect()
        defer { c.close() }
        do { try c.writeAll(Array((request.line + "\n").utf8)) } catch { throw Failure(description: "the appliance did not take the request: \(error)") }
        var pending: [UInt8] = []
        let clock = SystemClock()
        let deadline = clock.now().monotonic + timeout
        return try readLine(c, &pending, deadline: { deadline }, clock: clock)
    }

    /// Follow the appliance's changes, asking for at most `fps` display
    /// changes a second, until it goes away or `enough()` (asked at least
    /// every `poll`) says so: `event` gets every line as it came, the
    /// first (the status) included, unparsed (the appliance wrote it).
    public func watch(fps: Int?, poll: Duration = .seconds(1), until enough: () -> Bool,
                      _ event: ([UInt8]) -> Void) throws(Failure) {
        let c = try connect()
        defer { c.close() }
        do { try c.writeAll(Array((ControlRequest.watch(fps: fps).line + "\n").utf8)) } catch { throw Failure(description: "\(error)") }
        var pending: [UInt8] = []
        let wait = Int(poll.nanoseconds / 1_000_000)
        while !enough() {
            do {
                guard try c.waitForInput(milliseconds: wait), let chunk = try c.read(max: 16384) else { continue }
                guard !chunk.isEmpty else { throw Failure(description: "the appliance closed the connection") }
                pending += chunk
            } catch let f as Failure {
                throw f
            } catch {
                throw Failure(description: "reading from the appliance: \(error)")
            }
            var start = pending.startIndex
            while let nl = pending[start...].firstIndex(of: 0x0A) {
                event(Array(pending[start..<nl]))
                start = nl + 1
            }
            pending.removeSubrange(..<start)
            guard pending.count <= 65536 else { throw Failure(description: "event line longer than 64 KiB") }
        }
    }

    private func connect() throws(Failure) -> UnixConnection {
        do { return try UnixConnection.connect(to: socket, timeout: timeout) } catch {
            throw Failure(description: "cannot reach the appliance at \(socket): \(error) (is tock running? systemctl status tock)")
        }
    }

    private func readLine(_ c: UnixConnection, _ pending: inout [UInt8], deadline: () -> Instant?,
                          clock: SystemClock) throws(Failure) -> Reply {
        while true {
            if let nl = pending.firstIndex(of: 0x0A) {
                let line = Array(pending[..<nl])
                pending.removeSubrange(...nl)
                guard let reply = ControlReply(line: line) else {
                    throw Failure(description: "the appliance answered something that is not a reply")
                }
                return Reply(line: line, reply: reply)
            }
            guard pending.count <= 65536 else { throw Failure(description: "reply longer than 64 KiB") }
            var wait: Int?
            if let d = deadline() {
                let left = Int((d - clock.now().monotonic).nanoseconds / 1_000_000)
                guard left > 0 else { throw Failure(description: "no reply from the appliance within \(timeout)") }
                wait = left
            }
            do {
                guard try c.waitForInput(milliseconds: wait) else { continue }
                guard let chunk = try c.read(max: 16384) else { continue }
                guard !chunk.isEmpty else { throw Failure(description: "the appliance closed the connection") }
                pending += chunk
            } catch let f as Failure {
                throw f
            } catch {
                throw Failure(description: "reading from the appliance: \(error)")
            }
        }
    }
}

import TockLinux

/// At most `limit` requests to the appliance at once. Each is a blocking
/// call on a control-socket connection (bounded by `ControlLink.timeout`)
/// made on the connection's own thread, never on Swift's cooperative
/// pool; when the appliance does not answer (stopped, swapping) the
/// requests beyond `limit` are refused at once instead of piling up
/// threads behind it, and the page's own files never wait for it.
public final class BoxGate: @unchecked Sendable {
    public let limit: Int
    private let lock = Lock()
    private var busy = 0

    public init(limit: Int) { self.limit = limit }

    /// Requests waiting for the appliance now.
    public var waiting: Int {
        lock.lock()
        defer { lock.unlock() }
        return busy
    }

    public struct Busy: Error, CustomStringConvertible {
        public var limit: Int
        public var description: String {
            "the appliance is not answering (\(limit) requests already wait for it); try again in a few seconds"
        }
    }

    /// Run `call` if a place is free; `Busy` at once if not.
    public func call<T>(_ call: () throws -> T) throws -> T {
        lock.lock()
        guard busy < limit else {
            lock.unlock()
            throw Busy(limit: limit)
        }
        busy += 1
        lock.unlock()
        defer {
            lock.lock()
            busy -= 1
            lock.unlock()
        }
        return try call()
    }
}

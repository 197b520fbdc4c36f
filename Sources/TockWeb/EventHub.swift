import TockLinux
import Glibc

/// The subscribers of the live display, at most `limit`: each gets every
/// event as an SSE `data:` line; one that falls behind loses old events,
/// never the newest. Deadlines are on the monotonic clock (`Threads.now()`). The event is framed once, whatever the number of
/// subscribers.
final class EventHub: @unchecked Sendable {
    let limit: Int
    /// Guards `subscribers`; signalled when the first one comes.
    private let lock = Condition()
    private var subscribers: [ObjectIdentifier: Subscriber] = [:]

    init(limit: Int) { self.limit = limit }

    /// One live display's queue, waited on by its connection's thread.
    final class Subscriber: @unchecked Sendable {
        private let condition = Condition()
        private var queue: [[UInt8]] = []

        func put(_ chunk: [UInt8]) {
            condition.lock()
            queue.append(chunk)
            if queue.count > 32 { queue.removeFirst(queue.count - 32) }
            condition.signal()
            condition.unlock()
        }

        /// What came, waiting at most until `deadline`; empty if nothing did.
        func take(before deadline: Duration) -> [UInt8] {
            condition.lock()
            defer { condition.unlock() }
            while queue.isEmpty, condition.wait(until: deadline) {}
            defer { queue = [] }
            return queue.flatMap { $0 }
        }
    }

    /// Hand on one event line (a JSON object on one line) to every subscriber.
    func publish(_ line: [UInt8]) {
        lock.lock()
        let subs = Array(subscribers.values)
        lock.unlock()
        let bytes = Array("data: ".utf8) + line + Array("\n\n".utf8)
        for s in subs { s.put(bytes) }
    }

    /// A new subscriber, or nil when `limit` are already there.
    func subscribe() -> Subscriber? {
        let s = Subscriber()
        lock.lock()
        defer { lock.unlock() }
        guard subscribers.count < limit else { return nil }
        subscribers[ObjectIdentifier(s)] = s
        lock.broadcast()
        return s
    }

    /// Wait until someone subscribes (at most until `deadline`); whether
    /// anyone is subscribed.
    func waitForSubscribers(before deadline: Duration) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        while subscribers.isEmpty, lock.wait(until: deadline) {}
        return !subscribers.isEmpty
    }

    func unsubscribe(_ s: Subscriber) {
        lock.lock()
        subscribers[ObjectIdentifier(s)] = nil
        lock.unlock()
    }

    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return subscribers.count
    }
}

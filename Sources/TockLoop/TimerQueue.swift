import TockCore

/// One deadline of one part (a connection's idle limit, a reconnect, the
/// next display change). Scheduling it again replaces its deadline;
/// `schedule(nil)` cancels it.
public final class LoopTimer {
    @exclusivity(unchecked) public fileprivate(set) var deadline: Deadline?
    fileprivate unowned let queue: TimerQueue
    fileprivate let fire: () -> Void
    /// Bumped at each scheduling: the queue's older entries become stale.
    @exclusivity(unchecked) fileprivate var generation = 0

    fileprivate init(queue: TimerQueue, fire: @escaping () -> Void) {
        self.queue = queue
        self.fire = fire
    }

    public func schedule(_ deadline: Deadline?) { queue.schedule(self, deadline) }
    public func schedule(at instant: Instant?) { schedule(instant.map(Deadline.monotonic)) }
    public func schedule(atWall wall: WallTime?) { schedule(wall.map(Deadline.wall)) }
    public func cancel() { schedule(nil) }
}

/// The timers of one loop, as two binary heaps (monotonic deadlines, wall
/// deadlines), each ordered by (deadline, scheduling order). A timer
/// scheduled again leaves its old entry behind, skipped when it surfaces
/// and swept when stale entries outnumber live ones; each operation costs
/// O(log n) however many one-shot timers a script schedules.
///
/// The queue and its timers belong to the loop's one thread, and no access
/// to their state overlaps another (a timer fires once its entry is
/// stale, and is let go only when the heap is whole again): the run-time exclusivity checks are left out of these hot
/// paths (`@exclusivity(unchecked)`), the compile-time ones stay.
public final class TimerQueue {
    /// An entry holds its timer by one reference counted by hand (taken
    /// when the entry is made, given back when it leaves the heap), so
    /// that moving entries about the heap, and looking at a top, costs no
    /// retain or release: a timer scheduled again in place of its own
    /// stale entry keeps the reference it had.
    private struct Entry {
        var at: Int64
        var seq: Int
        var generation: Int
        var timer: Unmanaged<LoopTimer>

        var isStale: Bool { timer._withUnsafeGuaranteedRef { $0.generation } != generation }
    }

    @exclusivity(unchecked) private var monotonic = Heap()
    @exclusivity(unchecked) private var wall = Heap()
    @exclusivity(unchecked) private var seq = 0
    /// Timers fired so far, and deadlines scheduled (tests and benchmarks).
    @exclusivity(unchecked) public private(set) var fired = 0
    @exclusivity(unchecked) public private(set) var scheduled = 0

    public init() {}

    deinit {
        monotonic.releaseAll()
        wall.releaseAll()
    }

    public func makeTimer(_ fire: @escaping () -> Void) -> LoopTimer { LoopTimer(queue: self, fire: fire) }

    fileprivate func schedule(_ timer: LoopTimer, _ deadline: Deadline?) {
        guard timer.deadline != deadline else { return }
        timer.deadline = deadline
        timer.generation += 1
        guard let deadline else { return }
        seq += 1
        scheduled += 1
        let held = Unmanaged.passUnretained(timer)
        switch deadline {
        case .monotonic(let t): monotonic.push(Entry(at: t.nanoseconds, seq: seq, generation: timer.generation, timer: held))
        case .wall(let w): wall.push(Entry(at: w.nanoseconds, seq: seq, generation: timer.generation, timer: held))
        }
    }

    /// The earliest deadline on each clock, for arming the kernel's timers.
    public var earliest: (monotonic: Instant?, wall: WallTime?) {
        (monotonic.peek().map { Instant(nanoseconds: $0.at) }, wall.peek().map { WallTime(nanoseconds: $0.at) })
    }

    /// When the next timer is due, on the monotonic clock as the clocks read `now`.
    public func next(_ now: Now) -> Instant? {
        let m = monotonic.peek().map { Instant(nanoseconds: $0.at) }
        let w = wall.peek().map { now.monotonic(at: WallTime(nanoseconds: $0.at)) }
        return [m, w].compactMap { $0 }.min()
    }

    /// Fires the first timer due at `now`, if any: earliest deadline first,
    /// then the one scheduled first. Returns whether one fired.
    @discardableResult
    public func fireNext(_ now: Now) -> Bool { fireNext(now, scheduledBy: .max) }

    private func fireNext(_ now: Now, scheduledBy limit: Int) -> Bool {
        // The tops are looked at in place (no entry, and so no timer, copied
        // out to be compared): each wake-up looks several times.
        let m = monotonic.peek().flatMap { $0.at <= now.monotonic.nanoseconds && $0.seq <= limit ? $0 : nil }
        let w = wall.peek().flatMap { $0.at <= now.wall.nanoseconds && $0.seq <= limit ? $0 : nil }
        // The entry stays on top, stale once its timer's generation moves
        // on: a timer that schedules itself again as it fires (most do)
        // takes its place in one pass down the heap (`Heap.push`), where
        // taking it off first and pushing the new one cost two.
        let timer: Unmanaged<LoopTimer>
        switch (m, w) {
        case (nil, nil): return false
        case (_?, nil): timer = monotonic.top()
        case (nil, _?): timer = wall.top()
        case (let m?, let w?):
            // Both due: the one that fell due first (its instant as now reads), then the older.
            let wm = now.monotonic(at: WallTime(nanoseconds: w.at)).nanoseconds
            timer = (m.at, m.seq) < (wm, w.seq) ? monotonic.top() : wall.top()
        }
        fired += 1
        // Held while it fires: what it runs may push another timer in
        // place of its stale entry, which gives the entry's reference back.
        let t = timer.takeUnretainedValue()
        t.deadline = nil
        t.generation += 1
        t.fire()
        return true
    }

    /// Fires the timers due at `now` that were scheduled before this call,
    /// in order (the real loop's one turn). A timer that schedules itself
    /// for `now` again fires at the next turn, so a part with a backlog
    /// (commands waiting) takes one item per turn and never holds the loop.
    @discardableResult
    public func fireDue(_ now: Now, afterEach: () -> Void = {}) -> Int {
        let limit = seq
        var n = 0
        while fireNext(now, scheduledBy: limit) {
            n += 1
            afterEach()
        }
        return n
    }

    /// A min-heap of entries by (at, seq) that drops stale entries as they
    /// surface and sweeps them when they are most of it. Each entry holds
    /// one reference to its timer (`Entry`): taken by `push`, given back
    /// when the entry leaves.
    private struct Heap {
        private var items: [Entry] = []

        /// The live top's instant and order, stale entries dropped first.
        @inline(__always)
        mutating func peek() -> (at: Int64, seq: Int)? {
            while let first = items.first, first.isStale { popRaw() }
            return items.first.map { ($0.at, $0.seq) }
        }

        /// The top entry's timer (there is one: `peek` found it), while
        /// the entry stays on the heap.
        func top() -> Unmanaged<LoopTimer> { items[0].timer }

        /// A stale top (a timer that fired, or was scheduled again) is
        /// replaced and the new entry sifted down; otherwise it goes in
        /// at the bottom and up. The new entry's reference is taken here;
        /// a top of the same timer hands its own on.
        mutating func push(_ e: Entry) {
            if let first = items.first, first.isStale {
                let same = first.timer.toOpaque() == e.timer.toOpaque()
                if !same { _ = e.timer.retain() }
                items.withUnsafeMutableBufferPointer { b in
                    b[0] = e
                    Self.down(b, 0)
                }
                // Given back once the heap is whole again: the last
                // reference's deinit may schedule or cancel other timers.
                if !same { first.timer.release() }
                return
            }
            _ = e.timer.retain()
            items.append(e)
            items.withUnsafeMutableBufferPointer { Self.up($0, $0.count - 1) }
            if items.count > 64, items.count % 64 == 0 { sweep() }
        }

        /// Drops the top as it is (`peek` drops the stale ones first).
        mutating func popRaw() {
            let first = items[0]
            let last = items.removeLast()
            if !items.isEmpty {
                items.withUnsafeMutableBufferPointer { b in
                    b[0] = last
                    Self.down(b, 0)
                }
            }
            first.timer.release()
        }

        private mutating func sweep() {
            let live = items.filter { !$0.isStale }
            guard live.count * 2 < items.count else { return }
            let stale = items.filter(\.isStale)
            items = live.sorted(by: Self.before)  // sorted is a heap
            for e in stale { e.timer.release() }
        }

        mutating func releaseAll() {
            let all = items
            items = []
            for e in all { e.timer.release() }
        }

        private static func before(_ a: Entry, _ b: Entry) -> Bool { (a.at, a.seq) < (b.at, b.seq) }

        private static func up(_ b: UnsafeMutableBufferPointer<Entry>, _ i: Int) {
            var i = i
            while i > 0 {
                let p = (i - 1) / 2
                guard (b[i].at, b[i].seq) < (b[p].at, b[p].seq) else { return }
                b.swapAt(i, p)
                i = p
            }
        }

        private static func down(_ b: UnsafeMutableBufferPointer<Entry>, _ i: Int) {
            var i = i
            let n = b.count
            while true {
                let l = 2 * i + 1, r = l + 1
                var m = i
                if l < n, (b[l].at, b[l].seq) < (b[m].at, b[m].seq) { m = l }
                if r < n, (b[r].at, b[r].seq) < (b[m].at, b[m].seq) { m = r }
                guard m != i else { return }
                b.swapAt(i, m)
                i = m
            }
        }
    }
}

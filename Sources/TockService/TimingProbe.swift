import TockCore
import TockHost
import TockLinux
import TockShell

/// `--timing-log`: when each edge was read, each deadline woke the loop and
/// each batch of outputs was done, on `CLOCK_BOOTTIME` (`TimingLog`).
final class TimingProbe {
    private let sink: TraceSink
    private let log: TimingLog
    private let clock = SystemClock()

    init(path: String, box: Box, reactor: Reactor) throws {
        sink = try TraceSink(path: path, what: "the timing log")
        let log = TimingLog(boottimeOffset: clock.boottimeOffset(), sink: sink.write)
        self.log = log
        reactor.onDeadlineWake = { log.wake(deadline: $0, at: $1) }
        box.onEdges = { [clock] edges in
            let readAt = clock.now().monotonic
            for e in edges { log.edge(e, readAt: readAt) }
        }
    }

    func outputs(_ output: Machine.Output) {
        log.outputs(output, doneAt: clock.now().monotonic)
        sink.flush()
    }

    func ready() { log.ready(at: clock.now().monotonic) }
    func flush() { sink.flush() }
}

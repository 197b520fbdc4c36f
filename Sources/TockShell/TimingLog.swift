import TockCore
import TockHardware

/// `tock run --timing-log FILE`: when the event loop woke against when it
/// was due, and when each input arrived and each output was written, with
/// `CLOCK_MONOTONIC` nanoseconds (the clock of GPIO event timestamps and
/// of `clock_gettime` in other programs), one event per line:
///
///     ready T                       READY=1 sent; inputs are read from now
///     wake DEADLINE T               a timer deadline passed; the loop woke at T
///     edge LINE 1|0 EDGE_T T        an input edge stamped EDGE_T, read at T
///     frame T TEXT                  the display shows TEXT (written by T)
///     buzzer T on|off
///
/// It measures the appliance (Benchmarks/ compares it with other programs
/// this way) and costs one clock read per event and one write(2) per
/// wake-up while it is on.
public final class TimingLog {
    private let sink: (String) -> Void
    /// CLOCK_BOOTTIME minus CLOCK_MONOTONIC: the time spent suspended,
    /// constant between suspends.
    private let boottimeOffset: Int64
    private var buzzer = false

    /// - Parameter boottimeOffset: the appliance clock (`CLOCK_BOOTTIME`)
    ///   minus `CLOCK_MONOTONIC`, in nanoseconds.
    public init(boottimeOffset: Int64, sink: @escaping (String) -> Void) {
        self.boottimeOffset = boottimeOffset
        self.sink = sink
    }

    private func mono(_ t: Instant) -> Int64 { t.nanoseconds - boottimeOffset }

    public func ready(at t: Instant) { sink("ready \(mono(t))") }

    public func wake(deadline: Instant, at t: Instant) { sink("wake \(mono(deadline)) \(mono(t))") }

    public func edge(_ e: Edge, readAt t: Instant) {
        sink("edge \(e.line.name) \(e.active ? 1 : 0) \(mono(e.timestamp)) \(mono(t))")
    }

    /// The outputs of one batch of commands, carried out by `t`.
    public func outputs(_ output: Machine.Output, doneAt t: Instant) {
        for case .command(let c) in output.items {
            switch c {
            case .render(let f):
                sink("frame \(mono(t)) \(f.text)")
            case .buzzer(let tone):
                guard (tone != nil) != buzzer else { continue }
                buzzer = tone != nil
                sink("buzzer \(mono(t)) \(buzzer ? "on" : "off")")
            default:
                continue
            }
        }
    }
}

import Logging
import TockLoop

extension Shell {
    /// The shell's log lines that a command from outside can cause, one
    /// `LimitedLog` per kind: MQTT, the socket and the page can start, stop,
    /// add and cancel timers as fast as a broker delivers, and each change
    /// used to write its own line (3,840 lines in 20 s at 1,000 commands a
    /// second). Each kind is written at most once a minute, the latest of
    /// those held back at the end of the minute with their count, so the
    /// log still ends on what the box is doing now.
    struct Lines {
        /// `state ready -> running`.
        let state: LimitedLog
        /// `timers: EGG running, tEA paused`.
        let timers: LimitedLog
        /// `round 3 of set 2`.
        let round: LimitedLog
        /// A daily alarm rang, was snoozed, dismissed.
        let alarm: LimitedLog
        /// `timer EGG rang`.
        let rang: LimitedLog

        private let kinds: LimitedLogs

        init(log: Logger, loop: any EventLoop) {
            kinds = LimitedLogs(log: log, loop: loop)
            (state, timers, round, alarm, rang) = (kinds.kind(), kinds.kind(), kinds.kind(), kinds.kind(), kinds.kind())
        }

        /// Held-back counts written now (the shell shuts down).
        func close() { kinds.close() }
    }
}

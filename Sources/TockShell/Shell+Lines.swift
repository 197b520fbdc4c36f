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

        init(log: Logger, loop: any EventLoop) {
            state = LimitedLog(log: log, loop: loop)
            timers = LimitedLog(log: log, loop: loop)
            round = LimitedLog(log: log, loop: loop)
            alarm = LimitedLog(log: log, loop: loop)
            rang = LimitedLog(log: log, loop: loop)
        }

        /// Held-back counts written now (the shell shuts down).
        func close() {
            for kind in [state, timers, round, alarm, rang] { kind.close() }
        }
    }
}

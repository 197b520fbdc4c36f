import Logging
import TockLoop

extension MqttGroup {
    /// The group's log lines, one `LimitedLog` per kind. Every one can be
    /// caused from outside: a member (or anyone who may publish on the
    /// group topic) sends what it likes as often as the broker relays it,
    /// and a press sent here may itself come from MQTT or the socket.
    /// What a message names (its sender, its press) is escaped.
    struct Lines {
        /// A press sent to the group.
        let sent: LimitedLog
        /// The broker kept an older change: ours sent again.
        let repaired: LimitedLog
        /// A message that is not a group change.
        let junk: LimitedLog
        /// A press numbered too far past the group's last.
        let tooFar: LimitedLog
        /// An older press after a newer one.
        let older: LimitedLog
        /// A press dated far from this box's clock.
        let skew: LimitedLog
        /// A change the box cannot take.
        let cannotFollow: LimitedLog

        private let kinds: LimitedLogs

        init(log: Logger, loop: any EventLoop) {
            kinds = LimitedLogs(log: log, loop: loop)
            (sent, repaired, junk, tooFar) = (kinds.kind(), kinds.kind(), kinds.kind(), kinds.kind())
            (older, skew, cannotFollow) = (kinds.kind(), kinds.kind(), kinds.kind())
        }

        func close() { kinds.close() }
    }
}

/// What the reactor knows about one one-shot timerfd, so that handing it
/// the same deadline again costs no syscall.
enum DeadlineState: Equatable {
    /// No deadline; the kernel timer is disarmed.
    case disarmed
    /// The kernel holds this absolute deadline (ns on the timer's clock).
    case armed(Int64)
    /// This deadline expired and was reported. A one-shot timerfd disarms
    /// itself on expiry (timerfd_create(2)), so nothing is pending in the
    /// kernel, and the same deadline again must not wake the loop again.
    case delivered(Int64)

    enum Action: Equatable {
        case none
        case arm(Int64)
        case disarm
    }

    /// The caller's next deadline (`nil`: none); returns the syscall needed.
    mutating func transition(to deadline: Int64?) -> Action {
        switch (self, deadline) {
        case (.disarmed, nil):
            return .none
        case (.delivered, nil):
            self = .disarmed
            return .none
        case (.armed, nil):
            self = .disarmed
            return .disarm
        case (.armed(let current), let next?) where current == next,
             (.delivered(let current), let next?) where current == next:
            return .none
        case (_, let next?):
            self = .armed(next)
            return .arm(next)
        }
    }

    /// The kernel reported the armed deadline as expired.
    mutating func expired() {
        if case .armed(let ns) = self { self = .delivered(ns) }
    }
}

import Glibc
import SystemPackage
import TockCore
import TockHardware

/// The process's CPU scheduling: a real-time policy so a busy machine does
/// not delay the alarm, or a nice value. sched(7).
public struct Scheduling: Equatable, Sendable {
    public enum Policy: String, CaseIterable, Sendable { case other, fifo, rr }

    public var policy: Policy
    /// 1-99 for fifo and rr (sched_get_priority_max(2) is 99 on Linux).
    public var priority: Int
    /// -20 (most favoured) to 19, for `other`.
    public var nice: Int

    public init(policy: Policy = .other, priority: Int = 0, nice: Int = 0) {
        self.policy = policy
        self.priority = priority
        self.nice = nice
    }

    /// Apply to this process; says what to do when not permitted.
    public func apply() throws(HardwareError) {
        do throws(Errno) {
            switch policy {
            case .other:
                if nice != 0 { try Syscall.setNice(CInt(nice)) }
            case .fifo:
                try Syscall.setScheduler(policy: SCHED_FIFO, priority: CInt(priority))
            case .rr:
                try Syscall.setScheduler(policy: SCHED_RR, priority: CInt(priority))
            }
        } catch {
            let what = policy == .other ? "nice \(nice)" : "\(policy.rawValue) priority \(priority)"
            if error == .notPermitted || error == .permissionDenied {
                throw HardwareError(.permission, "scheduling: \(what) is not permitted for this user; set CPUSchedulingPolicy=/CPUSchedulingPriority= or Nice= in the unit instead (systemd applies them before dropping privileges), or remove scheduling from the configuration")
            }
            throw HardwareError(.unsupported, "scheduling: \(what): \(error)")
        }
    }
}

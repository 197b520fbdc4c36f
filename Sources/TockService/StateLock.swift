import TockLinux

/// One `tock run` per state file. Two instances on one file would each
/// overwrite the other's count, and a second one started by hand next to
/// the service would take the control socket from it without a word; so
/// the second refuses to start and names the first.
///
/// The lock is flock(2) on `<state>.lock` next to the state file (see
/// `InstanceLock`): the kernel drops it with the process, so a crash or a
/// SIGKILL never leaves a stale lock to clean up before the next start.
enum StateLock {
    static func take(statePath: String) throws(StateLockError) -> InstanceLock {
        do { return try InstanceLock(path: statePath + ".lock") } catch { throw StateLockError(statePath: statePath, failure: error) }
    }
}

/// The state file is held by another instance, or cannot be locked.
struct StateLockError: Error, CustomStringConvertible {
    var statePath: String
    var failure: InstanceLock.Failure

    var description: String {
        switch failure {
        case .held(let held):
            let who = held.pid.map { "pid \($0)" } ?? "pid unknown"
            let kill = held.pid.map { ", or kill \($0)" } ?? ""
            return "state file \(statePath) is in use by another tock (\(who)), which holds \(held.path); "
                + "stop it first (systemctl stop tock\(kill)) or pick another --state"
        case .unusable(let path, let errno):
            return "cannot lock the state file: \(path): \(errno); the state directory must be writable by the service's user "
                + "(StateDirectory=tock under systemd)"
        }
    }
}

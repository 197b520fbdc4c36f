import Foundation
import TockCore
import TockHost
import TockLinux
import TockLoop

/// What systemd hears from the service (sd_notify(3)): READY, a STATUS
/// line when the state or the display changes, RELOADING around a SIGHUP,
/// STOPPING, and the watchdog ping, sent from the loop itself so that a
/// stuck loop stops pinging and systemd restarts the service.
final class ServiceManager {
    private let box: Box
    private let notifier = SystemdNotifier(environment: ProcessInfo.processInfo.environment)
    @exclusivity(unchecked) private var status = ""
    private var watchdog: LoopTimer?

    init(box: Box, loop: any EventLoop) {
        self.box = box
        if let interval = notifier.watchdogInterval {
            watchdog = loop.makeTimer { [weak self, unowned loop] in
                guard let self else { return }
                try? notifier.notify(["WATCHDOG=1"])
                watchdog?.schedule(at: loop.now().monotonic + interval)
            }
            watchdog?.schedule(at: loop.now().monotonic + interval)
        }
    }

    /// After each batch of outputs: a STATUS line if it reads differently.
    func outputs() {
        let s = "\(box.shell.state?.rawValue ?? "starting") \(box.shell.frame?.text ?? "")"
        guard s != status else { return }
        status = s
        try? notifier.notify(["STATUS=\(s)"])
    }

    func ready() { try? notifier.notify(["READY=1", "STATUS=\(status)"]) }
    func reloading() { try? notifier.notify(["RELOADING=1"]) }
    func reloaded() { try? notifier.notify(["READY=1"]) }

    func stopping() {
        watchdog?.cancel()
        try? notifier.notify(["STOPPING=1"])
    }
}

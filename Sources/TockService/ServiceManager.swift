import Foundation
import TockCore
import TockHost
import TockLinux
import TockLoop

/// What systemd hears from the service (sd_notify(3)): READY, a STATUS
/// line with the state and the display, RELOADING around a SIGHUP,
/// STOPPING, and the watchdog ping, sent from the loop itself so that a
/// stuck loop stops pinging and systemd restarts the service.
///
/// STATUS goes out only when its text changes, and at most once in each
/// second of the monotonic clock (`StatusPacer`): a stopwatch changes the
/// display 100 times a second, and each message would wake PID 1. A change
/// inside a second that already had its message goes out when the next
/// second begins (a timer), unless a later batch in that second sends it
/// first; so `systemctl status` is never more than a second behind.
final class ServiceManager {
    private let box: Box
    private let loop: any EventLoop
    private let notifier = SystemdNotifier(environment: ProcessInfo.processInfo.environment)
    @exclusivity(unchecked) private var status = ""
    @exclusivity(unchecked) private var pacer = StatusPacer()
    private var watchdog: LoopTimer?
    private var deferred: LoopTimer?

    init(box: Box, loop: any EventLoop) {
        self.box = box
        self.loop = loop
        if let interval = notifier.watchdogInterval {
            watchdog = loop.makeTimer { [weak self, unowned loop] in
                guard let self else { return }
                try? notifier.notify(["WATCHDOG=1"])
                watchdog?.schedule(at: loop.now().monotonic + interval)
            }
            watchdog?.schedule(at: loop.now().monotonic + interval)
        }
        if notifier.isActive {
            deferred = loop.makeTimer { [weak self, unowned loop] in
                self?.sendStatus(at: loop.now().monotonic)
            }
        }
    }

    /// After each batch of outputs: a STATUS line if it reads differently
    /// and this second has not had one.
    func outputs() {
        guard notifier.isActive else { return }
        let t = loop.now().monotonic
        switch pacer.offer(at: t) {
        case .now:
            deferred?.cancel()
            sendStatus(at: t)
        case .at(let next):
            deferred?.schedule(at: next)
        case .alreadyDeferred:
            break
        }
    }

    private func sendStatus(at t: Instant) {
        pacer.deferredSent()
        let s = statusText
        guard s != status else { return }
        status = s
        pacer.sent(at: t)
        try? notifier.notify(["STATUS=\(s)"])
    }

    private var statusText: String { "\(box.shell.state?.rawValue ?? "starting") \(box.shell.frame?.text ?? "")" }

    func ready() {
        status = statusText
        try? notifier.notify(["READY=1", "STATUS=\(status)"])
    }
    func reloading() { try? notifier.notify(["RELOADING=1"]) }
    func reloaded() { try? notifier.notify(["READY=1"]) }

    func stopping() {
        watchdog?.cancel()
        try? notifier.notify(["STOPPING=1"])
    }
}

import TockCore
import TockHost
import TockLinux
import TockLoop

/// What systemd hears from the service (sd_notify(3)): READY, a STATUS
/// line with the state and the display, RELOADING around a SIGHUP,
/// STOPPING, and the watchdog ping, sent from the loop itself so that a
/// stuck loop stops pinging and systemd restarts the service.
///
/// STATUS goes out only when its text changes, and at most once a second
/// (`StatusPacer`): a stopwatch changes the display 100 times a second, and
/// each message would wake PID 1. A batch that leaves the state and the
/// frame as last reported costs two comparisons; the text is built only
/// for a message.
final class ServiceManager {
    private let box: Box
    private let loop: any EventLoop
    private let notifier = SystemdNotifier(environment: Environment.variables("NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"))
    @exclusivity(unchecked) private var status = ""
    @exclusivity(unchecked) private var reported: (state: StateName?, frame: Frame?) = (nil, nil)
    @exclusivity(unchecked) private var pacer = StatusPacer()
    private var watchdog: LoopTimer?
    private var catchUp: LoopTimer?

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
            catchUp = loop.makeTimer { [weak self, unowned loop] in
                guard let self else { return }
                pacer.timerFired()
                sendStatus(at: loop.now().monotonic)
            }
        }
    }

    /// After each batch of outputs: a STATUS line if the state or the
    /// display changed, paced.
    func outputs() {
        guard notifier.isActive else { return }
        let shell = box.shell
        guard shell.state != reported.state || shell.frame != reported.frame else { return }
        let t = loop.now().monotonic
        switch pacer.offer(at: t, nextWake: shell.nextWake) {
        case .send:
            sendStatus(at: t)
        case .armTimer(let due):
            catchUp?.schedule(at: due)
        case .wait:
            break
        }
    }

    private func sendStatus(at t: Instant) {
        let shell = box.shell
        reported = (shell.state, shell.frame)
        let s = statusText
        guard s != status else { return }
        status = s
        pacer.sent(at: t)
        catchUp?.cancel()
        try? notifier.notify("STATUS=" + s)
    }

    /// The state and the display (the core's frame: never a notice such as
    /// a pairing code). Paused or ringing, the display blinks, so it says
    /// what the display means rather than a blink phase: `paused 12:34
    /// (blinking)`. (That costs a second rendering; a running count's
    /// frame is read as it is.)
    private var statusText: String {
        let shell = box.shell
        guard let state = shell.state else { return "starting" }
        guard state == .paused || state == .ringing else { return "\(state.rawValue) \(shell.frame?.text ?? "")" }
        let meaning = shell.displayMeaning()
        return "\(state.rawValue) \(meaning.text)\(meaning.blinking ? " (blinking)" : "")"
    }

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

import Logging
import TockConfig
import TockCore
import TockLoop
import TockShell

/// SIGHUP (`systemctl reload tock`, a file watcher, a package upgrade):
/// the configuration file read again, and acted on only once it is whole.
///
/// An editor that rewrites a file in place truncates it and writes it
/// again; a reload at that instant would read an empty or torn file. So the
/// file is read, read again `settle` later, and acted on only when two
/// reads in a row agree. A file that is then blank (nothing but spaces and
/// comments), unreadable or refused keeps the running configuration, with
/// a line that says why. A storm of signals is served by one pair of reads
/// and its log lines are rate-limited.
public final class ConfigReload {
    /// How far apart the two reads are. An editor's rewrite of a few KiB
    /// takes well under a millisecond, even one slowed by a loaded SD card
    /// far less than this, so two reads this far apart that agree did not
    /// both fall inside one; and a person does not notice the wait.
    public static let settle: Duration = .milliseconds(200)
    /// A file still changing after this many reads (1.8 s) is left alone.
    public static let maxReads = 10

    /// What one read found.
    enum Read: Equatable {
        case bytes([UInt8])
        case failed(String)
    }

    enum State {
        case idle
        /// Waiting for the next read; `last` is the one before, `reads` counts them.
        case settling(last: Read, reads: Int)
    }

    public let path: String
    /// The configuration acted on last (at start-up or by a reload).
    public private(set) var running: Configuration
    /// RELOADING=1 and READY=1 for the service manager.
    public var onReloading: (() -> Void)?
    public var onReloaded: (() -> Void)?
    /// Reloads acted on, and requests served by a read already under way.
    public private(set) var reloads = 0
    public private(set) var coalesced = 0
    /// What the file acted on last changes that applies only at the next
    /// restart (`display.digits`, the wiring): in the log and the status.
    public private(set) var waitsForRestart: [String] = []

    private let shell: Shell
    private let loop: any EventLoop
    private let log: Logger
    private var state = State.idle
    private var timer: LoopTimer!
    /// Each kind of line a reload writes, at most once a minute: a storm of
    /// signals, or a file that keeps changing, cannot flood the log.
    private let reloadedLog: LimitedLog
    private let refusedLog: LimitedLog
    private let changingLog: LimitedLog
    private let wiringLog: LimitedLog
    /// What a reload did to the lists, by line: ListNotes has six lines,
    /// each limited on its own (one reload can set the presets aside and
    /// bring the alarms back).
    private var listsLogs: [String: LimitedLog] = [:]
    private let dimmingLog: LimitedLog
    /// Every kind above, closed together.
    private let kinds: LimitedLogs
    private var lastRefusal: String?

    public init(path: String, running: Configuration, shell: Shell, loop: any EventLoop, log: Logger) {
        self.path = path
        self.running = running
        self.shell = shell
        self.loop = loop
        self.log = log
        kinds = LimitedLogs(log: log, loop: loop)
        (refusedLog, changingLog, wiringLog, dimmingLog) = (kinds.kind(), kinds.kind(), kinds.kind(), kinds.kind())
        reloadedLog = kinds.kind { [path] held, _ in
            "SIGHUP: \(path) reloaded \(held) more time\(held == 1 ? "" : "s") since the last such line; at most one such line a minute"
        }
        timer = loop.makeTimer { [unowned self] in readAgain() }
    }

    /// A SIGHUP: read the file now and again after `settle`.
    public func requested() {
        guard case .idle = state else {
            coalesced += 1
            return
        }
        onReloading?()
        state = .settling(last: read(), reads: 1)
        timer.schedule(at: loop.now().monotonic + Self.settle)
    }

    /// The service stops: no more reads, and the reloads held back from
    /// the log are counted now rather than never.
    public func cancel() {
        timer.cancel()
        kinds.close()
    }

    private func read() -> Read {
        do { return .bytes(try Configuration.contents(path: path)) } catch { return .failed(error.description) }
    }

    private func readAgain() {
        guard case .settling(let last, let reads) = state else { return }
        let now = read()
        if now == last { return finish(now) }
        guard reads + 1 < Self.maxReads else {
            let ms = Self.settle.nanoseconds / 1_000_000
            changingLog(.warning, "SIGHUP: \(path) kept changing for \(ms * Int64(reads)) ms (read \(reads + 1) times, \(ms) ms apart): keeping the running configuration; reload again once it is saved")
            return done()
        }
        state = .settling(last: now, reads: reads + 1)
        timer.schedule(at: loop.now().monotonic + Self.settle)
    }

    private func finish(_ read: Read) {
        defer { done() }
        let fresh: Configuration
        switch read {
        case .failed(let why):
            return refused(.error, "SIGHUP: \(path) refused, keeping the running configuration:\n\(lines: why)")
        case .bytes(let bytes) where Configuration.isBlank(bytes):
            return refused(.warning, "SIGHUP: \(path) is empty (\(bytes.isEmpty ? "0 bytes" : "nothing but blanks and comments")): keeping the running configuration, and the alarms and presets set on the box. An editor that rewrites the file leaves it empty for a moment: reload again once it is saved; to run on every default, restart (systemctl restart tock)")
        case .bytes(let bytes):
            do {
                fresh = try Configuration.decode(bytes, file: path)
            } catch {
                return refused(.error, "SIGHUP: \(path) refused, keeping the running configuration:\n\(lines: error)")
            }
        }
        apply(fresh)
    }

    /// A file not acted on: said at once when the reason is new, else at
    /// most once a minute.
    private func refused(_ level: Logger.Level, _ line: LogLine) {
        if line.description != lastRefusal { refusedLog.reset() }
        lastRefusal = line.description
        refusedLog(level, line)
    }

    private func done() {
        state = .idle
        onReloaded?()
    }

    /// A good file applies at once, except for the wiring, which needs a
    /// restart (the lines are held).
    private func apply(_ fresh: Configuration) {
        // The display was opened at start with its digits: a file that
        // changes them (display.digits, or a display.kind with another
        // width) is read now and applied at the next restart, so no frame
        // of the new width reaches the driver opened for the old one. The
        // rest of the file must then fit the running display.
        let read = fresh
        var fresh = fresh
        let digits = running.settings.display.digits
        if fresh.settings.display.digits != digits {
            if let long = fresh.settings.interval.programs.first(where: { (NamedProgram.label($0.name)?.count ?? 0) > digits }) {
                return refused(.error, "SIGHUP: \(path) refused, keeping the running configuration: display.digits \(fresh.settings.display.digits) applies at the next restart, and until then the program name \"\(long.name)\" does not fit the \(digits) digits in use; restart to apply both (systemctl restart tock)")
            }
            fresh.settings.display.digits = digits
        }
        reloads += 1
        lastRefusal = nil
        waitsForRestart = Self.restartOnly(read: read, running: running)
        if !waitsForRestart.isEmpty {
            wiringLog(.warning, "SIGHUP: \(lines: waitsForRestart.joined(separator: ", ")) in \(path) apply at the next restart (systemctl restart tock)")
        }
        let file = Dimming(shell.core.settings.display), edited = shell.core.dimming != file
        let before = shell.core.snapshot(at: loop.now())
        shell.reconfigure(fresh.settings)
        for line in ListNotes.lines(before: before, after: shell.core.snapshot(at: loop.now()), name: path) {
            let kind = listsLogs[line] ?? kinds.kind()
            listsLogs[line] = kind
            kind(.notice, "SIGHUP: \(line, limit: 1000)")
        }
        if edited, Dimming(fresh.settings.display) != file {
            dimmingLog(.notice, "SIGHUP: display.brightness or display.night changed in \(path): the file's values replace the ones set with tock brightness, tock night or the web page")
        }
        reloadedLog(.notice, "SIGHUP: \(path) reloaded\(shell.core.pendingSettings != nil ? "; it applies when the count in progress is reset" : "")")
        var applied = fresh
        applied.hardware = running.hardware
        applied.leds = running.leds
        running = applied
    }

    /// What a file read by a reload changes that only a restart applies.
    static func restartOnly(read: Configuration, running: Configuration) -> [String] {
        var keys: [String] = []
        if read.settings.display.digits != running.settings.display.digits { keys.append("display.digits") }
        if read.hardware != running.hardware || read.leds != running.leds { keys.append("wiring changes") }
        return keys
    }
}

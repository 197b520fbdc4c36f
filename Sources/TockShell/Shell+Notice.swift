import TockCore
import TockHardware

/// A notice: a frame the shell puts on the display over what the core
/// renders, for a while (the web page's pairing code). The core goes on
/// underneath, its frames kept and shown again when the notice ends: at
/// its deadline (a timer on the loop), at a button press, or when asked.
/// Kept out of the core: it is the box's screen lent to someone else, not
/// part of the timer.
///
/// A notice can wait for a hand on the box (`showPrompt`): the display
/// shows a prompt (`HoLd`), and only Start held for `input.long_press`
/// reveals the text (the pairing code), for its own time. Nothing a
/// client sends can reveal it: a stranger on the LAN who asks for a code
/// never sees one unless someone at the box holds Start.
///
/// While a notice is up the buttons are its own: a press takes it down
/// (or, Start on a prompt, is weighed as a hold) and does nothing else,
/// so the hold that reveals a code never also starts the count. The
/// press's chatter and release are the notice's too, until the button has
/// been released for `input.debounce`.
extension Shell {
    public struct NoticeInvalid: Error, CustomStringConvertible {
        public var description: String
    }

    /// What the display shows: the notice while one is up, else the core's frame.
    public var displayed: Frame? { notice ?? frame }

    /// Whether a notice (or a prompt) is up.
    public var showingNotice: Bool { notice != nil }

    /// Whether a prompt is up, waiting for Start to be held.
    public var promptingNotice: Bool { hidden != nil }

    /// Put `text` on the display for `duration` (a notice already up is replaced).
    public func showNotice(_ text: String, for duration: Duration) throws(NoticeInvalid) {
        let f = try noticeFrame(text)
        hidden = nil
        noticeConfirmed = false
        put(f, for: duration)
    }

    /// Put `prompt` on the display for `within`; Start held for
    /// `input.long_press` meanwhile shows `text` for `duration` instead
    /// (with `noticeConfirmed`). A notice already up is replaced.
    public func showPrompt(_ prompt: String, within: Duration, then text: String, for duration: Duration) throws(NoticeInvalid) {
        let p = try noticeFrame(prompt), f = try noticeFrame(text)
        hidden = (f, duration)
        noticeConfirmed = false
        holdTimer.cancel()
        put(p, for: within)
    }

    /// Take the notice down and show the core's frame again.
    public func endNotice() {
        guard notice != nil else { return }
        notice = nil
        hidden = nil
        noticeConfirmed = false
        noticeTimer.cancel()
        holdTimer.cancel()
        if let f = frame {
            output("display") { try display.show(f) }
            told(notice: f)
        }
    }

    /// Whether the notice takes the button edge `e` (then the core never sees it).
    func noticeTakes(_ e: Edge) -> Bool {
        guard case .button(let b) = e.line else { return false }
        if let last = taken[b] {
            guard last.active || e.timestamp - last.at < core.settings.input.debounce else {
                taken[b] = nil
                return noticeTakes(e)
            }
            taken[b] = (e.active, e.timestamp)
            return true
        }
        guard notice != nil, e.active else { return false }
        taken[b] = (true, e.timestamp)
        if hidden != nil, b == .start {
            // Dated at its first edge, as every press: chatter does not move it.
            holdTimer.schedule(at: e.timestamp + core.settings.input.longPress)
        } else {
            endNotice()
        }
        return true
    }

    /// `input.long_press` after Start went down on a prompt: still held, the
    /// text is revealed; let go, the prompt comes down (a short press says no).
    func holdElapsed() {
        guard let (text, lasts) = hidden else { return }
        guard taken[.start]?.active == true else {
            endNotice()
            return
        }
        hidden = nil
        noticeConfirmed = true
        put(text, for: lasts)
    }

    private func noticeFrame(_ text: String) throws(NoticeInvalid) -> Frame {
        let digits = frame?.digits ?? core.settings.display.digits
        let cells = text.filter { $0 != "." && $0 != ":" }
        guard !cells.isEmpty, cells.count <= digits,
              cells.allSatisfy({ SevenSegmentFont.glyphs[$0] != nil }) else {
            throw NoticeInvalid(description: "notice \"\(text)\" does not fit the \(digits)-digit display")
        }
        return Frame(text: text, digits: digits, brightness: frame?.brightness ?? 7)
    }

    private func put(_ f: Frame, for duration: Duration) {
        notice = f
        output("display") { try display.show(f) }
        told(notice: f)
        noticeTimer.schedule(at: clock().monotonic + duration)
    }

    /// A notice's frame, put up or taken down, handed out as a change.
    private func told(notice f: Frame) {
        dated = clock().monotonic
        var change = BoxChange()
        change.frame = f
        change.notice = true
        tell(change)
    }
}

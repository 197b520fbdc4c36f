import TockCore

/// A notice: a frame the shell puts on the display over what the core
/// renders, for a while (the web page's pairing code). The core goes on
/// underneath, its frames kept and shown again when the notice ends: at
/// its deadline (a timer on the loop), at any button edge, or when asked.
/// Kept out of the core: it is the box's screen lent to someone else, not
/// part of the timer.
extension Shell {
    public struct NoticeInvalid: Error, CustomStringConvertible {
        public var description: String
    }

    /// What the display shows: the notice while one is up, else the core's frame.
    public var displayed: Frame? { notice ?? frame }

    /// Whether a notice is up.
    public var showingNotice: Bool { notice != nil }

    /// Put `text` on the display for `duration` (a notice already up is replaced).
    public func showNotice(_ text: String, for duration: Duration) throws(NoticeInvalid) {
        let digits = frame?.digits ?? core.settings.display.digits
        let cells = text.filter { $0 != "." && $0 != ":" }
        guard !cells.isEmpty, cells.count <= digits,
              cells.allSatisfy({ SevenSegmentFont.glyphs[$0] != nil }) else {
            throw NoticeInvalid(description: "notice \"\(text)\" does not fit the \(digits)-digit display")
        }
        let f = Frame(text: text, digits: digits, brightness: frame?.brightness ?? 7)
        notice = f
        output("display") { try display.show(f) }
        told(notice: f)
        noticeTimer.schedule(at: clock().monotonic + duration)
    }

    /// Take the notice down and show the core's frame again.
    public func endNotice() {
        guard notice != nil else { return }
        notice = nil
        noticeTimer.cancel()
        if let f = frame {
            output("display") { try display.show(f) }
            told(notice: f)
        }
    }

    /// A notice's frame, put up or taken down, handed out as a change.
    private func told(notice f: Frame) {
        var change = BoxChange()
        change.frame = f
        change.notice = true
        tell(change)
    }
}

/// What the display means, without its blink phases: the value it shows
/// (a steady colon, whole seconds for a stopwatch) and whether the whole
/// display blinks (paused, ringing). For the MQTT link and Home Assistant,
/// whose every state change is a database row: this changes at most once
/// a second, and not at all while nothing but a blink moves.
public struct DisplayMeaning: Equatable, Sendable {
    public var text: String
    public var blinking: Bool

    public init(text: String, blinking: Bool) {
        self.text = text
        self.blinking = blinking
    }
}

extension Machine {
    @inline(__always)  // (displayMeaningInPlace)
    public func displayMeaning(at now: Now) -> DisplayMeaning {
        // The whole line, not each step of it (one change, not thirty).
        if let s = scroll, scrollShowing(at: now.monotonic) { return DisplayMeaning(text: s.line, blinking: false) }
        let p = presentation(at: now)
        var content = p.content
        switch content {
        case .stopwatch(let v): content = .up(v)
        case .timeOfDay(let t, let twelve, _): content = .timeOfDay(t, twelveHour: twelve, blinkColon: false)
        default: break
        }
        return DisplayMeaning(text: renderer.text(for: content, moving: false), blinking: p.blink != nil)
    }

    /// `displayMeaning(at:)` for a holder of the machine in a class (the
    /// shell): a changing method is handed the machine's address, a reading
    /// one called on a class's stored value a copy of all of it (3.5 KB at
    /// each MQTT pass, `make bench-tick`). It changes nothing.
    public mutating func displayMeaningInPlace(at now: Now) -> DisplayMeaning { displayMeaning(at: now) }
}

/// Turns one debounced button's presses and releases into actions:
/// short press, long press and hold-to-repeat with acceleration.
public struct ButtonGesture: Equatable, Sendable {
    public let button: Button
    private var style: PressStyle = .onPress
    private var pressedAt: Instant? = nil
    private var longFired = false
    private var nextRepeat: Instant? = nil
    private var repeats = 0

    public init(button: Button) { self.button = button }

    public var isHeld: Bool { pressedAt != nil }

    /// The button went down at `t`; `style` is how it acts in the state the
    /// machine is in now.
    public mutating func pressed(at t: Instant, style: PressStyle, settings: InputSettings) -> [(ButtonAction, Instant)] {
        self.style = style
        pressedAt = t
        longFired = false
        repeats = 0
        nextRepeat = nil
        switch style {
        case .onPress:
            return [(.pressed(button), t)]
        case .repeating:
            nextRepeat = t + settings.repeatDelay
            return [(.pressed(button), t)]
        case .shortOrLong:
            return []
        }
    }

    /// The button came up at `t`.
    public mutating func released(at t: Instant) -> [(ButtonAction, Instant)] {
        defer { pressedAt = nil; nextRepeat = nil }
        if style == .shortOrLong, pressedAt != nil, !longFired {
            return [(.pressed(button), t)]
        }
        return []
    }

    /// The next instant this gesture has something to do while held.
    public func deadline(settings: InputSettings) -> Instant? {
        guard let p = pressedAt else { return nil }
        switch style {
        case .onPress: return nil
        case .shortOrLong: return longFired ? nil : p + settings.longPress
        case .repeating: return nextRepeat
        }
    }

    /// Fire whatever is due at `now` (a long press, or one repeat).
    public mutating func fire(at now: Instant, settings: InputSettings) -> [(ButtonAction, Instant)] {
        guard let d = deadline(settings: settings), now >= d else { return [] }
        switch style {
        case .onPress:
            return []
        case .shortOrLong:
            longFired = true
            return [(.longPressed(button), d)]
        case .repeating:
            repeats += 1
            // Accelerate: the interval halves every 5 repeats, down to the
            // fastest rate.
            var step = settings.repeatInterval
            for _ in 0..<(repeats / 5) where step > settings.repeatFastest { step = step / 2 }
            if step < settings.repeatFastest { step = settings.repeatFastest }
            nextRepeat = d + step
            return [(.repeated(button), d)]
        }
    }
}

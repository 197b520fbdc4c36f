/// The presets of the timer and stopwatch modes, as the status shows them.
public struct Presets: Equatable, Sendable {
    /// The preset a count in Down (or a target in Up) uses.
    public var current: Duration
    public var all: [Duration]
    /// The direction the current count uses.
    public var direction: SwitchPosition

    public init(current: Duration, all: [Duration], direction: SwitchPosition) {
        self.current = current
        self.all = all
        self.direction = direction
    }
}

extension Machine {
    /// The presets and direction, in the modes that have them (nil in the
    /// countdown and interval modes).
    public var presets: Presets? {
        guard let timer = program.countTimer else { return nil }
        return Presets(current: timer.preset, all: timer.presets, direction: timer.direction)
    }
}

import TockHardware

/// A PWM channel that records every setting it is given.
public final class MockPWM: PWMChannel {
    public enum Setting: Equatable, Sendable {
        case output(period: Duration, duty: Duration)
        case disabled
    }

    /// Every call, in order (repeats included, so tests can count writes).
    public private(set) var history: [Setting] = []
    /// How much of `history` is kept.
    public var keeping = MockHistory.all
    /// The next call fails with this error and changes nothing.
    public var failNext: HardwareError?

    public init() {}

    /// The current setting; nil before the first call.
    public var setting: Setting? { history.last }

    public func output(period: Duration, duty: Duration) throws {
        try record(.output(period: period, duty: duty))
    }

    public func disable() throws {
        try record(.disabled)
    }

    private func record(_ setting: Setting) throws {
        if let error = failNext {
            failNext = nil
            throw error
        }
        history.record(setting, keeping: keeping)
    }
}

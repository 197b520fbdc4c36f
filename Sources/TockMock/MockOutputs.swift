import TockHardware
import TockCore

/// Where mock outputs get their timestamps: the clock the test or the
/// simulator runs on.
public typealias MockClock = () -> Instant

/// An output line that records every change with its time.
public final class MockOutput: DigitalOutput {
    public let name: String
    public private(set) var active = false
    public private(set) var history: [(at: Instant, active: Bool)] = []
    private let clock: MockClock

    public init(name: String, clock: @escaping MockClock) {
        self.name = name
        self.clock = clock
    }

    public func set(_ active: Bool) throws {
        guard active != self.active || history.isEmpty else { return }
        self.active = active
        history.append((clock(), active))
    }
}

/// A display that records every frame it is shown with its time.
public final class MockDisplay: SegmentDisplay {
    public private(set) var frames: [(at: Instant, frame: Frame)] = []
    private let clock: MockClock

    public init(clock: @escaping MockClock) { self.clock = clock }

    public var current: Frame? { frames.last?.frame }

    public func show(_ frame: Frame) throws { frames.append((clock(), frame)) }
}

/// A buzzer that records every tone change with its time.
public final class MockSounder: Sounder {
    public private(set) var history: [(at: Instant, tone: Tone?)] = []
    private let clock: MockClock

    public init(clock: @escaping MockClock) { self.clock = clock }

    public var sounding: Bool { history.last?.tone != nil }

    public func sound(_ tone: Tone?) throws { history.append((clock(), tone)) }
}

import TockHardware
import TockCore

/// Where mock outputs get their timestamps: the clock the test or the
/// simulator runs on.
public typealias MockClock = () -> Instant

/// An output line that records every change with its time. Its polarity
/// is the line's, as the kernel applies it on a board: `high` is the level
/// on the wire, low while active on an active-low line.
public final class MockOutput: DigitalOutput {
    public let name: String
    public let activeLow: Bool
    public private(set) var active = false
    public private(set) var history: [(at: Instant, active: Bool)] = []
    /// How much of `history` is kept.
    public var keeping = MockHistory.all
    private let clock: MockClock

    public init(name: String, clock: @escaping MockClock, activeLow: Bool = false) {
        self.name = name
        self.clock = clock
        self.activeLow = activeLow
    }

    /// The level on the wire.
    public var high: Bool { active != activeLow }

    public func set(_ active: Bool) throws {
        guard active != self.active || history.isEmpty else { return }
        self.active = active
        history.record((clock(), active), keeping: keeping)
    }
}

/// A display that records every frame it is shown with its time. Over a
/// `MockBoard` it is the display driver's front: each frame goes through
/// the real driver to the mock chip, and what is recorded is what the chip
/// lights, read back from its registers; a frame the chip does not light
/// as drawn, or a byte it would not take, is a fault.
public final class MockDisplay: SegmentDisplay {
    public private(set) var frames: [(at: Instant, frame: Frame)] = []
    /// How much of `frames` is kept.
    public var keeping = MockHistory.all
    /// Frames the chip did not light as the core drew them, and what the
    /// chip was sent that it would not take (none while the driver is right).
    public private(set) var faults: [String] = []
    private let clock: MockClock
    private let driver: (any SegmentDisplay)?
    private let chip: (any MockDisplayChip)?

    public init(clock: @escaping MockClock, driver: (any SegmentDisplay)? = nil, chip: (any MockDisplayChip)? = nil) {
        self.clock = clock
        self.driver = driver
        self.chip = chip
    }

    /// What the display shows now (the chip's lit segments, over a chip),
    /// kept however little of `frames` is.
    public private(set) var current: Frame?

    public func show(_ frame: Frame) throws {
        guard let driver else {
            current = frame
            frames.record((clock(), frame), keeping: keeping)
            return
        }
        try driver.show(frame)
        guard let chip else {
            current = frame
            frames.record((clock(), frame), keeping: keeping)
            return
        }
        let lit = chip.lit(digits: frame.digits)
        let wanted = chip.expected(frame)
        if lit != wanted { faults.append("\(clock()): drew \"\(frame.text)\", the chip lights \"\(lit.text)\" (wanted \"\(wanted.text)\")") }
        let errors = chip.protocolErrors
        if errors.count > seenErrors {
            faults += errors[seenErrors...].map { "\(clock()): \($0)" }
            seenErrors = errors.count
        }
        let shown = Frame.segments((0..<lit.digits).map { lit.segments(at: $0) }, colon: lit.colon, brightness: frame.brightness)
        current = shown
        frames.record((clock(), shown), keeping: keeping)
    }

    private var seenErrors = 0
}

/// A buzzer that records every tone change with its time; over a
/// `MockBoard` each goes through the real driver (an active buzzer's line,
/// a passive buzzer's PWM channel) first.
public final class MockSounder: Sounder {
    public private(set) var history: [(at: Instant, tone: Tone?)] = []
    /// How much of `history` is kept.
    public var keeping = MockHistory.all
    private let clock: MockClock
    private let driver: (any Sounder)?

    public init(clock: @escaping MockClock, driver: (any Sounder)? = nil) {
        self.clock = clock
        self.driver = driver
    }

    /// Whether it sounds now, kept however little of `history` is.
    public private(set) var sounding = false

    public func sound(_ tone: Tone?) throws {
        try driver?.sound(tone)
        sounding = tone != nil
        history.record((clock(), tone), keeping: keeping)
    }
}

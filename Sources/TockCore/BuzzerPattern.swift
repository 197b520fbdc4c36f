/// A tone for a passive buzzer (an active buzzer ignores the pitch and the
/// volume).
public struct Tone: Equatable, Hashable, Sendable {
    public var hertz: Int
    /// 1 to 100 (`alarm.volume`): a passive buzzer's PWM duty cycle is
    /// volume / 2 percent, so 100 is the 50 % square wave, the loudest.
    public var volume: Int
    public init(hertz: Int, volume: Int = 100) {
        self.hertz = hertz
        self.volume = volume
    }
}

/// A sequence of sounding and silent steps, played once or repeated.
public struct BuzzerPattern: Equatable, Sendable {
    public struct Step: Equatable, Sendable {
        public var tone: Tone?
        public var length: Duration
        public init(_ tone: Tone?, _ length: Duration) {
            self.tone = tone
            self.length = length
        }
    }

    public var steps: [Step]
    public var repeats: Bool

    public init(steps: [Step], repeats: Bool) {
        precondition(!steps.isEmpty && steps.allSatisfy { $0.length > .zero }, "a pattern needs steps of positive length")
        self.steps = steps
        self.repeats = repeats
    }

    public var length: Duration { steps.reduce(.zero) { $0 + $1.length } }

    /// The tone sounding `offset` into the pattern, and how long until the
    /// next step (nil once a one-shot pattern has ended).
    public func sound(at offset: Duration) -> (tone: Tone?, next: Duration?) {
        guard offset >= .zero else { return (nil, .zero - offset) }
        let total = length.nanoseconds
        var t = offset.nanoseconds
        if repeats { t %= total } else if t >= total { return (nil, nil) }
        for step in steps {
            let n = step.length.nanoseconds
            if t < n { return (step.tone, .nanoseconds(n - t)) }
            t -= n
        }
        return (nil, nil)
    }

    // MARK: - The appliance's patterns

    static let high = Tone(hertz: 2_700)   // near a typical piezo's resonance
    static let mid = Tone(hertz: 2_000)
    static let low = Tone(hertz: 400)

    /// Alarm, first stage: a double beep every second.
    public static let alarm = BuzzerPattern(steps: [
        Step(mid, .milliseconds(100)), Step(nil, .milliseconds(100)),
        Step(mid, .milliseconds(100)), Step(nil, .milliseconds(700)),
    ], repeats: true)

    /// Alarm after `escalateAfter`: four fast, higher beeps every second.
    public static let alarmEscalated = BuzzerPattern(steps: [
        Step(high, .milliseconds(100)), Step(nil, .milliseconds(50)),
        Step(high, .milliseconds(100)), Step(nil, .milliseconds(50)),
        Step(high, .milliseconds(100)), Step(nil, .milliseconds(50)),
        Step(high, .milliseconds(100)), Step(nil, .milliseconds(450)),
    ], repeats: true)

    /// One short beep at an interval program's phase change.
    public static let phase = BuzzerPattern(steps: [Step(mid, .milliseconds(300))], repeats: false)
    /// A named program's work phase begins: one long blast.
    public static let work = BuzzerPattern(steps: [Step(high, .milliseconds(700))], repeats: false)
    /// A named program's rest begins: two short blasts.
    public static let rest = BuzzerPattern(steps: [
        Step(mid, .milliseconds(200)), Step(nil, .milliseconds(150)), Step(mid, .milliseconds(200)),
    ], repeats: false)
    /// A named program ends: three long blasts, then the alarm.
    public static let end = BuzzerPattern(steps: [
        Step(high, .milliseconds(400)), Step(nil, .milliseconds(200)), Step(high, .milliseconds(400)),
        Step(nil, .milliseconds(200)), Step(high, .milliseconds(400)), Step(nil, .milliseconds(400)),
    ], repeats: false)
    /// A last-seconds warning tick.
    public static let warning = BuzzerPattern(steps: [Step(mid, .milliseconds(80))], repeats: false)
    /// The short low "no" chirp for a button that does nothing now.
    public static let no = BuzzerPattern(steps: [Step(low, .milliseconds(60))], repeats: false)
}

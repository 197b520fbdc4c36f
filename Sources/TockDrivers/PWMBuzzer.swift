import TockHardware
import TockCore

/// A passive buzzer (a piezo or magnetic transducer without its own
/// oscillator) on a hardware PWM channel: a tone of f Hz is a square wave
/// of period 1/f at 50 % duty, the duty that puts most energy into the
/// fundamental; a lower volume is a narrower pulse (duty = volume / 2
/// percent of the period: 100 is 50 %, 20 is 10 %); silence is the channel
/// disabled.
public final class PWMBuzzer: Sounder {
    private let channel: any PWMChannel

    /// What the channel was last set to. `.unknown` at start and after a
    /// failed write, so the next call always writes.
    private enum Output: Equatable {
        case unknown
        case silent
        case sounding(Tone)
    }

    private var output: Output = .unknown

    public init(channel: any PWMChannel) {
        self.channel = channel
    }

    public func sound(_ tone: Tone?) throws {
        let wanted: Output = tone.map { .sounding($0) } ?? .silent
        guard wanted != output else { return }
        output = .unknown
        if let tone {
            let (period, duty) = Self.waveform(for: tone)
            try channel.output(period: period, duty: duty)
        } else {
            try channel.disable()
        }
        output = wanted
    }

    /// Period and duty of `tone`, to the nanosecond (sysfs PWM's unit).
    static func waveform(for tone: Tone) -> (period: Duration, duty: Duration) {
        precondition(tone.hertz > 0, "a tone needs a positive frequency, not \(tone.hertz) Hz")
        let period = (1_000_000_000 + Int64(tone.hertz) / 2) / Int64(tone.hertz)
        let volume = Int64(min(max(tone.volume, 1), 100))
        return (.nanoseconds(period), .nanoseconds(volume == 100 ? period / 2 : period * volume / 200))
    }
}

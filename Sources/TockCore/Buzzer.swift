/// The buzzer's pattern engine: what sounds at any instant, and when that
/// next changes. The alarm follows the ringing state; one-shot signals
/// (phase beep, warning, "no" chirp) play once from the instant they were
/// raised. The alarm wins over a one-shot.
public struct Buzzer: Equatable, Sendable {
    public enum Signal: String, Hashable, Sendable, CaseIterable {
        case no, phase, warning
        /// A named program's work and rest phases begin, and it ends (the
        /// end plays before the alarm).
        case work, rest, end

        public var pattern: BuzzerPattern {
            switch self {
            case .no: .no
            case .phase: .phase
            case .warning: .warning
            case .work: .work
            case .rest: .rest
            case .end: .end
            }
        }
    }

    public var escalateAfter: Duration
    /// `alarm.volume`, given to every tone (1-100).
    public var volume = 100
    /// What the alarm plays before it escalates: the double beep, or the
    /// `alarm.tune` melody.
    public var alarmPattern = BuzzerPattern.alarm
    /// Played first when a ring begins (a named program's end), then the alarm.
    public var intro: BuzzerPattern? = nil
    /// Signals that play a configured pattern (`alarm.sounds`).
    public var sounds: [Signal: BuzzerPattern] = [:]
    /// Ringing since this instant, if ringing.
    public var ringingSince: Instant? = nil
    private var oneShot: (signal: Signal, at: Instant)? = nil

    public init(escalateAfter: Duration) { self.escalateAfter = escalateAfter }

    public mutating func play(_ signal: Signal, at t: Instant) { oneShot = (signal, t) }

    public func tone(at t: Instant) -> Tone? {
        guard var tone = sound(at: t).tone else { return nil }
        tone.volume = volume
        return tone
    }

    /// The next instant the output may change, if anything is playing.
    public func nextChange(after t: Instant) -> Instant? {
        sound(at: t).next.map { t + $0 }
    }

    private func sound(at t: Instant) -> (tone: Tone?, next: Duration?) {
        if let since = ringingSince {
            var ringing = t - since
            if let intro {
                if ringing < intro.length {
                    let s = intro.sound(at: ringing)
                    return (s.tone, min(s.next ?? intro.length - ringing, intro.length - ringing))
                }
                ringing = ringing - intro.length
            }
            if ringing < escalateAfter {
                let s = alarmPattern.sound(at: ringing)
                return (s.tone, min(s.next!, escalateAfter - ringing))
            }
            return BuzzerPattern.alarmEscalated.sound(at: ringing - escalateAfter)
        }
        if let shot = oneShot { return (sounds[shot.signal] ?? shot.signal.pattern).sound(at: t - shot.at) }
        return (nil, nil)
    }

    public static func == (a: Buzzer, b: Buzzer) -> Bool {
        a.escalateAfter == b.escalateAfter && a.ringingSince == b.ringingSince && a.volume == b.volume && a.alarmPattern == b.alarmPattern
            && a.sounds == b.sounds && a.intro == b.intro
            && a.oneShot?.signal == b.oneShot?.signal && a.oneShot?.at == b.oneShot?.at
    }
}

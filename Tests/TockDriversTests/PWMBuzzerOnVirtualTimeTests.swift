import Testing
import TockHardware
import TockMock
@testable import TockDrivers
import TockCore

/// The core's buzzer commands carried out by the PWM buzzer driver on
/// virtual time: the periods and duty cycles written, in order, each at
/// its instant.
@Suite struct PWMBuzzerOnVirtualTimeTests {
    /// A count of 10 s started at 0 and run to `seconds`, every command
    /// given to the driver at its instant; the settings written, dated.
    func play(_ settings: Settings, to seconds: Int64) -> [(Duration, MockPWM.Setting)] {
        let pwm = MockPWM()
        let buzzer = PWMBuzzer(channel: pwm)
        let origin = Instant(nanoseconds: 1_000_000_000_000)
        let epoch = WallTime(secondsSince1970: 1_800_000_000)
        func now(_ t: Instant) -> Now { Now(monotonic: t, wall: epoch + (t - origin)) }
        var core = Machine(settings: settings, switchPosition: .down, at: now(origin))
        var written: [(Duration, MockPWM.Setting)] = []
        var wake: Instant? = nil
        func take(_ out: Machine.Output, at t: Instant) {
            for c in out.commands {
                switch c {
                case .buzzer(let tone):
                    let before = pwm.history.count
                    try? buzzer.sound(tone)
                    for s in pwm.history.dropFirst(before) { written.append((t - origin, s)) }
                case .wake(let m, _): wake = m
                default: break
                }
            }
        }
        take(core.handle(.powerOn, at: now(origin)), at: origin)
        take(core.handle(.remotePress(.pressed(.start)), at: now(origin)), at: origin)
        let end = origin + .seconds(seconds)
        while let w = wake, w <= end {
            take(core.handle(.wake, at: now(w)), at: w)
        }
        return written
    }

    func tune(volume: Int) throws -> Settings {
        var s = Settings()
        s.presets = [.seconds(10)]
        s.alarm.volume = volume
        s.alarm.tune = try RTTTL.parse("t:d=8,o=4,b=120:a,c5")  // A4 440 Hz, then C5 523 Hz, 0.25 s each
        return s
    }

    @Test func aTuneIsWrittenNoteByNoteAtItsInstantsAtTwoVolumes() throws {
        // 440 Hz: 2272727 ns; 523 Hz: 1912046 ns. Full volume is half of
        // the period; 20 is a tenth of it.
        for (volume, duty440, duty523) in [(100, 1_136_363, 956_023), (20, 227_272, 191_204)] {
            let w = play(try tune(volume: volume), to: 11)
            let first = w.filter { $0.0 < .seconds(10) + .milliseconds(500) }
            #expect(first.map(\.0) == [.zero, .seconds(10), .milliseconds(10_218) + .microseconds(750), .milliseconds(10_250),
                                       .milliseconds(10_468) + .microseconds(750)])
            #expect(first.map(\.1) == [.disabled, .output(period: .nanoseconds(2_272_727), duty: .nanoseconds(Int64(duty440))), .disabled,
                                       .output(period: .nanoseconds(1_912_046), duty: .nanoseconds(Int64(duty523))), .disabled])
        }
    }

    @Test func theAlarmAtTwoVolumesAndItsEscalation() throws {
        for (volume, duty2000, duty2700) in [(100, 250_000, 185_185), (50, 125_000, 92_592)] {
            var s = Settings()
            s.presets = [.seconds(10)]
            s.alarm.volume = volume
            s.alarm.escalateAfter = .seconds(1)
            let w = play(s, to: 11)
            // Off at power-on; the double beep (2 kHz, 100 ms on, 100 off, 100 on) from 10 s,
            // then at 11 s the escalated 2.7 kHz beeps.
            #expect(w.map(\.0) == [.zero, .seconds(10), .milliseconds(10_100), .milliseconds(10_200), .milliseconds(10_300), .seconds(11)])
            #expect(w.map(\.1) == [.disabled, .output(period: .microseconds(500), duty: .nanoseconds(Int64(duty2000))), .disabled,
                                   .output(period: .microseconds(500), duty: .nanoseconds(Int64(duty2000))), .disabled,
                                   .output(period: .nanoseconds(370_370), duty: .nanoseconds(Int64(duty2700)))])
        }
    }
}

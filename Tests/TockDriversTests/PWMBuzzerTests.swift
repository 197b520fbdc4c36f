import Testing
import TockHardware
import TockMock
@testable import TockDrivers
import TockCore

@Suite struct PWMBuzzerTests {
    let pwm = MockPWM()
    let buzzer: PWMBuzzer

    init() {
        buzzer = PWMBuzzer(channel: pwm)
    }

    @Test func twoKilohertzIsA500MicrosecondPeriodAtHalfDuty() throws {
        try buzzer.sound(Tone(hertz: 2_000))
        #expect(pwm.history == [.output(period: .microseconds(500), duty: .microseconds(250))])
    }

    @Test func periodsRoundToTheNearestNanosecond() {
        // 1e9 / 2700 = 370370.37 ns.
        let w = PWMBuzzer.waveform(for: Tone(hertz: 2_700))
        #expect(w.period == .nanoseconds(370_370))
        #expect(w.duty == .nanoseconds(185_185))
        // 1e9 / 3 = 333333333.33 ns.
        #expect(PWMBuzzer.waveform(for: Tone(hertz: 3)).period == .nanoseconds(333_333_333))
    }

    @Test func silenceDisablesTheChannel() throws {
        try buzzer.sound(Tone(hertz: 400))
        try buzzer.sound(nil)
        #expect(pwm.setting == .disabled)
    }

    @Test func repeatedSettingsAreNotWrittenAgain() throws {
        try buzzer.sound(nil)
        try buzzer.sound(nil)
        try buzzer.sound(Tone(hertz: 2_000))
        try buzzer.sound(Tone(hertz: 2_000))
        try buzzer.sound(Tone(hertz: 2_700))
        try buzzer.sound(Tone(hertz: 2_700))
        try buzzer.sound(nil)
        #expect(pwm.history.count == 4)
    }

    @Test func afterAFailedWriteTheSameToneIsWrittenAgain() throws {
        pwm.failNext = HardwareError(.io, "cannot write period")
        #expect(throws: HardwareError.self) { try buzzer.sound(Tone(hertz: 2_000)) }
        try buzzer.sound(Tone(hertz: 2_000))
        #expect(pwm.history == [.output(period: .microseconds(500), duty: .microseconds(250))])
    }
}

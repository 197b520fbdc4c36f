import Testing
@testable import TockCore

@Suite struct BuzzerTests {
    @Test func alarmBeepsInPairsThenEscalates() {
        var b = Buzzer(escalateAfter: .seconds(20))
        b.ringingSince = at(0)
        #expect(b.tone(at: at(0)) != nil && b.tone(at: at(0.1)) == nil && b.tone(at: at(0.2)) != nil)
        #expect(b.tone(at: at(0.5)) == nil)
        #expect(b.nextChange(after: at(0.05)) == at(0.1))
        #expect(b.nextChange(after: at(19.5)) == at(20))
        // Escalated: four higher beeps a second.
        let beeps = (0..<100).filter { i in b.tone(at: at(20 + Double(i) / 100))?.hertz == 2_700 && (i % 15 == 0) }
        #expect(beeps.count >= 4)
        #expect(b.tone(at: at(20.12)) == nil && b.tone(at: at(20.16)) != nil)
    }

    @Test func oneShotsPlayOnceAndEnd() {
        var b = Buzzer(escalateAfter: .seconds(20))
        b.play(.no, at: at(1))
        #expect(b.tone(at: at(1))?.hertz == 400)
        #expect(b.tone(at: at(1.06)) == nil)
        #expect(b.nextChange(after: at(1.01)) == at(1.06))
        #expect(b.nextChange(after: at(1.06)) == nil)
    }

    @Test func theAlarmWinsOverAOneShot() {
        var b = Buzzer(escalateAfter: .seconds(20))
        b.play(.phase, at: at(0))
        b.ringingSince = at(0)
        #expect(b.tone(at: at(0.15)) == nil)  // alarm gap, though the phase beep would sound
    }
}

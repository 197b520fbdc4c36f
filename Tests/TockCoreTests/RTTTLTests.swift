import Testing
@testable import TockCore

@Suite struct RTTTLTests {
    @Test func notesHaveTheRightFrequenciesAndLengths() throws {
        // b=120: a quarter note is 0.5 s, an eighth 0.25 s, a whole 2 s.
        let notes = try RTTTL.parse("test:d=4,o=5,b=120:8c,8e,g,a4,2c6,p,a#.,16b7")
        #expect(notes.map(\.tone?.hertz) == [523, 659, 784, 440, 1047, nil, 932, 3951])
        #expect(notes.map(\.length) == [.milliseconds(250), .milliseconds(250), .milliseconds(500), .milliseconds(500),
                                         .seconds(1), .milliseconds(500), .milliseconds(750), .milliseconds(125)])
    }

    @Test func theFormatsOwnDefaultsApply() throws {
        // d=4, o=6, b=63 when not given: a quarter is 240/63/4 s.
        let notes = try RTTTL.parse("x::a")
        #expect(notes == [RTTTL.Note(tone: Tone(hertz: 1760), length: .nanoseconds(240_000_000_000 / 252))])
    }

    @Test func thePatternSoundsSevenEighthsOfEachNoteAndRepeats() throws {
        let p = RTTTL.pattern(try RTTTL.parse("t:d=8,o=5,b=120:c,c,p"))
        #expect(p.repeats)
        #expect(p.steps == [.init(Tone(hertz: 523), .nanoseconds(218_750_000)), .init(nil, .nanoseconds(31_250_000)),
                            .init(Tone(hertz: 523), .nanoseconds(218_750_000)), .init(nil, .nanoseconds(31_250_000)),
                            .init(nil, .milliseconds(250))])
    }

    @Test func mistakesSayWhichNoteAndWhatToWrite() {
        func why(_ s: String) -> String? {
            do { _ = try RTTTL.parse(s); return nil } catch { return error.description }
        }
        #expect(why("abc") == "write name:d=4,o=5,b=120:notes (three parts separated by colons)")
        #expect(why("t:d=3:c") == "d=3: a length is 1, 2, 4, 8, 16 or 32")
        #expect(why("t:d=4,o=5,b=120:c,17e") == "note 2 \"17e\": length 17 is not 1, 2, 4, 8, 16 or 32")
        #expect(why("t:d=4:c,x") == "note 2 \"x\": \"x\" is not a note (c d e f g a b, or p for a rest)")
        #expect(why("t:d=4:c9") == "note 1 \"c9\": octave 9 is not 4 to 7")
        #expect(why("t:d=4:p,p") == "only rests: a tune needs a note")
        #expect(why("t:q=4:c") == "\"q\" in the defaults is not d, o or b")
    }

    @Test func theAlarmPlaysTheTuneAtTheConfiguredVolume() throws {
        var s = Settings.timer([.seconds(10)])
        s.alarm.tune = try RTTTL.parse("t:d=4,o=5,b=120:c,e")
        s.alarm.volume = 30
        var a = VirtualMachine(s)
        a.press(.start, at: 0)
        a.run(to: 12.1)
        let tones = a.log.compactMap { e -> (Instant, Tone?)? in if case .command(.buzzer(let t)) = e.1 { (e.0, t) } else { nil } }
            .filter { $0.0 >= at(10) }
        // c for 437.5 ms, silence, e at 10.5, c again at 11 (the tune repeats).
        #expect(tones.map(\.0) == [at(10), at(10.4375), at(10.5), at(10.9375), at(11), at(11.4375), at(11.5), at(11.9375), at(12)])
        #expect(tones.map { $0.1?.hertz } == [523, nil, 659, nil, 523, nil, 659, nil, 523])
        #expect(tones.compactMap { $0.1?.volume }.allSatisfy { $0 == 30 })
    }
}

import Testing
import TockControl
import TockCore
@testable import TockMQTT

/// The timer select's payloads, its selection following the timers, and
/// when the selected name may be told to Home Assistant.
@Suite struct TimerPickerTests {
    func parse(_ text: String) -> Result<TimerPicker.Command, TimerPicker.Invalid> {
        Result { () throws(TimerPicker.Invalid) in try TimerPicker.parse(Array(text.utf8)) }
    }

    func refusal(_ text: String) -> String? {
        if case .failure(let e) = parse(text) { return e.description }
        return nil
    }

    @Test func whatTheSelectAndButtonsSendIsACommand() throws {
        #expect(try parse(#"{"op":"select","name":"EGG"}"#).get() == .select("EGG"))
        #expect(try parse(#"{"op":"pause"}"#).get() == .pause)
        #expect(try parse(#" { "op" : "resume" } "#).get() == .resume)
        #expect(try parse(#"{"op":"cancel"}"#).get() == .cancel)
        // Home Assistant's tojson of a name with signs and a space inside.
        #expect(try parse(#"{"op": "select", "name": "-_ H"}"#).get() == .select("-_ H"))
        #expect(try parse(#"{"op":"select","name":"E\"G"}"#).get() == .select(#"E"G"#))
    }

    @Test func anythingElseIsRefusedWithWhy() {
        for (text, why) in [
            ("", "not a JSON object"), ("[]", "not a JSON object"), ("pause", "not a JSON object"),
            (#"{"op":"pause""#, "not a JSON object"), (#"{"op":"pause"} x"#, "not a JSON object"),
            (#"{"op":"pause","op":"cancel"}"#, "given twice"),
            ("{}", "no \"op\""), (#"{"op":"explode"}"#, "no \"op\": one of select, pause, resume, cancel"),
            (#"{"op":1}"#, "no \"op\""), (#"{"op":"PAUSE"}"#, "no \"op\""),
            (#"{"op":"pause","name":"EGG"}"#, "unknown field \"name\" for pause"),
            (#"{"op":"select","name":"EGG","x":1}"#, "unknown field \"x\" for select"),
            (#"{"op":"select"}"#, "select needs \"name\""), (#"{"op":"select","name":""}"#, "select needs \"name\""),
            (#"{"op":"select","name":7}"#, "select needs \"name\""), (#"{"op":"select","name":null}"#, "select needs \"name\""),
            (#"{"op":"select","name":"ABCDEFGHIJKLMNOPQ"}"#, "at most 16 characters"),
        ] {
            #expect(refusal(text)?.contains(why) == true, "\(text): \(refusal(text) ?? "accepted")")
        }
        // The length is refused before a byte is read as JSON.
        let long = #"{"op":"select","name":""# + String(repeating: "x", count: 2000) + #""}"#
        #expect(refusal(long) == "\(long.utf8.count) bytes, longer than 1024")
        #expect(refusal(String(repeating: "{", count: 1024)) != nil)
    }

    @Test func theSelectionFollowsTheTimersInProgress() {
        var p = TimerPicker()
        p.follow([])
        #expect(p.selected == nil)
        p.follow(["EGG", "tEA"])
        #expect(p.selected == "EGG")
        let outcome3 = p.apply(.select("tEA"), inProgress: ["EGG", "tEA"])
        #expect(outcome3 == .selected("tEA"))
        p.follow(["EGG", "tEA", "rICE"])
        #expect(p.selected == "tEA", "a timer added does not take the selection")
        p.follow(["EGG", "rICE"])
        #expect(p.selected == "EGG", "the selected one gone: the first in progress")
        p.follow([])
        #expect(p.selected == nil)
    }

    @Test func aNameNotInProgressIsRefusedAndTheSelectionStays() {
        var p = TimerPicker()
        p.follow(["EGG", "tEA"])
        _ = p.apply(.select("tEA"), inProgress: ["EGG", "tEA"])
        let outcome4 = p.apply(.select("GONE"), inProgress: ["EGG", "tEA"])
        #expect(outcome4
                == .refused(#"no timer named "GONE" is in progress (in progress: EGG, tEA); the selection stays as it was"#))
        let outcome5 = p.apply(.select(#"E"G"#), inProgress: ["EGG", "tEA"])
        #expect(outcome5
                == .refused(#"no timer named "E\"G" is in progress (in progress: EGG, tEA); the selection stays as it was"#))
        // The case counts: the box's names are as given.
        let outcome6 = p.apply(.select("egg"), inProgress: ["EGG", "tEA"])
        #expect(outcome6 != .selected("egg"))
        #expect(p.selected == "tEA")
        let outcome7 = p.apply(.select("EGG"), inProgress: [])
        #expect(outcome7 == .refused(#"no timer named "EGG" is in progress (none is); the selection stays as it was"#))
        #expect(p.selected == nil)
    }

    @Test func theButtonsActOnTheSelectedNameAsItIsWhenTheyArrive() {
        var p = TimerPicker()
        let outcome8 = p.apply(.pause, inProgress: [])
        #expect(outcome8 == .refused("no timer is in progress to pause; add one first (Add timer, or tock timer add NAME DURATION)"))
        p.follow(["EGG", "tEA"])
        _ = p.apply(.select("tEA"), inProgress: ["EGG", "tEA"])
        let outcome9 = p.apply(.pause, inProgress: ["EGG", "tEA"])
        #expect(outcome9 == .request(.timer(.pause("tEA"))))
        let outcome10 = p.apply(.resume, inProgress: ["EGG", "tEA"])
        #expect(outcome10 == .request(.timer(.resume("tEA"))))
        // tEA cancelled meanwhile: the press acts on what is selected now.
        let outcome11 = p.apply(.cancel, inProgress: ["EGG"])
        #expect(outcome11 == .request(.timer(.cancel("EGG"))))
    }

    @Test func theNameIsToldOnlyOnceHomeAssistantHasHadTheOptionsASecond() {
        let t0 = Instant(nanoseconds: 5_000_000_000)
        let gap: Duration = .seconds(1)
        var p = TimerPicker()
        #expect(p.shown(at: t0, gap: gap) == ("None", nil))
        p.follow(["EGG"])
        let changed0 = p.announce(["EGG"], at: t0)
        #expect(changed0)
        #expect(p.shown(at: t0, gap: gap) == ("None", t0 + gap))
        #expect(p.shown(at: t0 + .milliseconds(999), gap: gap) == ("None", t0 + gap))
        #expect(p.shown(at: t0 + gap, gap: gap) == ("EGG", nil))
        // Another added: the options change, EGG stays told.
        let changed1 = p.announce(["EGG", "tEA"], at: t0 + .seconds(5))
        #expect(changed1)
        #expect(p.shown(at: t0 + .seconds(5), gap: gap) == ("EGG", nil))
        let changed2 = p.announce(["EGG", "tEA"], at: t0 + .seconds(6))
        #expect(!changed2, "the same names: nothing to announce")
        // Selecting the new one a moment after it came: only once it is known.
        _ = p.apply(.select("tEA"), inProgress: ["EGG", "tEA"])
        #expect(p.shown(at: t0 + .milliseconds(5500), gap: gap) == ("None", t0 + .seconds(6)))
        #expect(p.shown(at: t0 + .seconds(6), gap: gap) == ("tEA", nil))
        // Reconnecting: Home Assistant may hold older options.
        p.reannounce(["EGG", "tEA"], at: t0 + .seconds(10))
        #expect(p.shown(at: t0 + .seconds(10), gap: gap) == ("None", t0 + .seconds(11)))
        #expect(p.options == ["EGG", "tEA"])
    }
}

import Testing
@testable import TockSimulator
import TockCore

@Suite struct ScriptTests {
    @Test func parsesAbsoluteAndRelativeTimesAndEveryAction() throws {
        let s = try Script.parse("""
            # a comment
            0 switch down
            1.5 press start          # held 80 ms
            +2 press reset for 1.2
            +0.5 bounce stop
            +1 bounce start 3
            30 end
            """)
        #expect(s.steps.map(\.at) == [.zero, .milliseconds(1500), .milliseconds(3500), .seconds(4), .seconds(5), .seconds(30)])
        #expect(s.steps.map(\.action) == [
            .setSwitch(.down), .press(.start, hold: .milliseconds(80)), .press(.reset, hold: .milliseconds(1200)),
            .bounce(.stop, edges: 6), .bounce(.start, edges: 3), .end,
        ])
        #expect(s.steps.map(\.line) == [2, 3, 4, 5, 6, 7])
        #expect(s.endTime == .seconds(30))
    }

    @Test func withoutEndItRunsASecondPastTheLastAction() throws {
        #expect(try Script.parse("5 press start").endTime == .seconds(6))
    }

    @Test(arguments: [
        ("1 press go", 1, "press which button"),
        ("x press start", 1, "not a time"),
        ("5 press start\n3 press stop", 2, "earlier than the line before"),
        ("\n\n1 jump", 3, "unknown action"),
        ("1 switch sideways", 1, "switch up or switch down"),
        ("1 press start for", 1, "for <seconds>"),
        ("1 light dark", 1, "light <lux>"),
        ("1 clock now", 1, "clock sync"),
    ])
    func mistakesNameTheLine(_ text: String, _ line: Int, _ fragment: String) {
        do {
            _ = try Script.parse(text, file: "s.txt")
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.line == line)
            #expect(error.description.contains(fragment), "\(error)")
            #expect(error.description.hasPrefix("s.txt:\(line): "))
        }
    }

    @Test func theRoomsLightAndTheClocksVerdictAreScriptLines() throws {
        let s = try Script.parse("1 clock unsync\n2 light 150\n3 clock sync")
        #expect(s.steps.map(\.action) == [.clockSynchronised(false), .light(150), .clockSynchronised(true)])
    }
}

import Foundation
import Testing
@testable import TockCore

/// A file's list that changes and changes back never discards what was
/// edited on the box: the edits made over a list the file replaced are set
/// aside, and come back with that list.
@Suite struct SetAsideEditsTests {
    let a = Settings.timer([.seconds(600), .seconds(300)])
    let b = Settings.timer([.seconds(900)])

    func alarm(_ text: String, _ days: String = "daily") -> DailyAlarm {
        DailyAlarm(minute: try! DailyAlarm.parseTime(text), days: try! DailyAlarm.parseDays([days]))
    }

    func reload(_ v: inout VirtualMachine, _ s: Settings, at t: Double) {
        v.run(to: t)
        v.take(v.core.handle(.reconfigure(s), at: v.clock))
    }

    @Test func presetsEditedOverAListComeBackWithIt() throws {
        var v = VirtualMachine(a)
        try v.request(.setPreset(.seconds(120)))
        reload(&v, b, at: 1)
        #expect(v.core.program.countTimer?.presets == [.seconds(900)])  // the file's new list wins
        reload(&v, a, at: 2)
        #expect(v.core.program.countTimer?.presets == [.seconds(120), .seconds(300)])
        v.run(to: 3)
        #expect(v.display == "02:00")
        // And the state file says they were made over the file's list, so
        // they outlive a restart with that file.
        let restarted = VirtualMachine(a, restoring: v.persisted.last!)
        #expect(restarted.display == "02:00")
    }

    @Test func aDefaultsFileInBetweenLosesNothing() throws {
        var file = a
        file.alarms = [alarm("06:45", "mon-fri")]
        var v = VirtualMachine(file)
        try v.request(.setPreset(.seconds(120)))
        try v.request(.editAlarms(.add(alarm("07:30"))))
        try v.request(.editAlarms(.enable(1, false)))
        reload(&v, Settings(), at: 1)  // an empty file read mid-rewrite
        #expect(v.core.alarms.entries.isEmpty)
        reload(&v, file, at: 2)
        #expect(v.core.program.countTimer?.presets == [.seconds(120), .seconds(300)])
        #expect(v.core.alarms.entries.map(\.alarm.timeText) == ["06:45", "07:30"])
        #expect(v.core.alarms.entries.map(\.alarm.enabled) == [false, true])
    }

    @Test func anUneditedListIsNotSetAsideAndANewEditReplacesTheOld() throws {
        var v = VirtualMachine(a)
        reload(&v, b, at: 1)
        #expect(v.core.setAside == SetAsideEdits())
        try v.request(.setPreset(.seconds(60)))  // edited over b
        reload(&v, a, at: 2)
        #expect(v.core.program.countTimer?.presets == [.seconds(600), .seconds(300)])
        try v.request(.setPreset(.seconds(30)))  // edited over a
        reload(&v, b, at: 3)
        #expect(v.core.program.countTimer?.presets == [.seconds(60)])
        reload(&v, a, at: 4)
        #expect(v.core.program.countTimer?.presets == [.seconds(30), .seconds(300)])
    }

    @Test func anAlarmThatPassedWhileSetAsideDoesNotRingLate() throws {
        var file = a
        file.alarms = []
        var other = b
        other.alarms = [alarm("09:00")]
        var v = VirtualMachine(file)  // the epoch is 08:00 UTC
        try v.request(.editAlarms(.add(alarm("08:10"))))
        reload(&v, other, at: 1)
        #expect(v.core.alarms.entries.map(\.alarm.timeText) == ["09:00"])
        reload(&v, file, at: 1200)  // 08:20: back, after 08:10 passed
        v.run(to: 1300)
        #expect(v.core.alarms.entries.count == 1)
        #expect(v.rang.isEmpty)
    }

    @Test func aCountInProgressKeepsItsPresetsAndTheEditsStillComeBack() throws {
        var v = VirtualMachine(a)
        try v.request(.setPreset(.seconds(120)))
        v.press(.start, at: 1)
        reload(&v, b, at: 10)
        #expect(v.core.pendingSettings == b)
        v.press(.stop, at: 20)
        v.press(.reset, at: 21)
        v.run(to: 22)
        #expect(v.core.program.countTimer?.presets == [.seconds(900)])
        reload(&v, a, at: 30)
        #expect(v.core.program.countTimer?.presets == [.seconds(120), .seconds(300)])
    }

    @Test func aRestartInBetweenLosesNothing() throws {
        var file = a
        file.alarms = [alarm("06:45")]
        var other = b
        other.alarms = []
        var v = VirtualMachine(file)
        try v.request(.setPreset(.seconds(120)))
        try v.request(.editAlarms(.add(alarm("07:30"))))
        v.run(to: 1)
        // Restarted with the other file, then with the first one again.
        var w = VirtualMachine(other, restoring: v.persisted.last!)
        #expect(w.core.program.countTimer?.presets == [.seconds(900)])
        #expect(w.core.alarms.entries.isEmpty)
        w.run(to: 1)
        let x = VirtualMachine(file, restoring: w.persisted.last!)
        #expect(x.core.program.countTimer?.presets == [.seconds(120), .seconds(300)])
        #expect(x.core.alarms.entries.map(\.alarm.timeText) == ["06:45", "07:30"])
        #expect(x.core.setAside.isEmpty)
    }
}

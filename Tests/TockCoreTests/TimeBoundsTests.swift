import Foundation
import Testing
@testable import TockCore

/// Values at the edge of Int64 from a state file or a group message are
/// refused where they are decoded; values at the edge of the accepted
/// range go through every mode's arithmetic without a trap.
@Suite struct TimeBoundsTests {
    let longest = TimeBounds.longest.nanoseconds
    let latest = TimeBounds.latestWall.nanoseconds

    @Test func durationsAreCheckedAtBothEnds() throws {
        for bad in [Int64.min, -1, longest + 1, Int64.max] {
            #expect(throws: TimeBounds.Violation.self) { try Duration.checked(nanoseconds: bad) }
        }
        #expect(throws: TimeBounds.Violation.self) { try Duration.checked(nanoseconds: 0, positive: true) }
        #expect(try Duration.checked(nanoseconds: 0) == .zero)
        #expect(try Duration.checked(nanoseconds: longest) == TimeBounds.longest)
        #expect(throws: TimeBounds.Violation.self) { try Duration.seconds(Int64.max).checked() }
        #expect(throws: TimeBounds.Violation.self) { try Duration.seconds(-Int64.max).checked() }
    }

    @Test func wallInstantsAreCheckedAtBothEnds() throws {
        for bad in [Int64.min, -1, latest + 1, Int64.max] {
            #expect(throws: TimeBounds.Violation.self) { try WallTime(checked: bad) }
        }
        #expect(try WallTime(checked: 0) == TimeBounds.earliestWall)
        #expect(try WallTime(checked: latest) == TimeBounds.latestWall)
    }

    /// The accepted extremes, restored in every mode on a wall clock at
    /// either end of the range, rendered at 4 and 8 digits, advanced and
    /// pressed: no trap, and no count outside its bounds.
    @Test func theAcceptedExtremesGoThroughEveryMode() {
        let walls = [TimeBounds.earliestWall, epoch, TimeBounds.latestWall]
        let phases: [Snapshot.Phase] = [
            .running(since: 0, before: 0), .running(since: latest, before: longest), .running(since: 0, before: longest),
            .paused(elapsed: longest), .paused(elapsed: 0), .ringing(since: 0), .ringing(since: latest), .over, .done,
        ]
        for mode in Settings.Mode.allCases {
            for digits in [4, 8] {
                var settings = Settings.timer([Settings.longestPreset, .seconds(1)], mode: mode)
                settings.display.digits = digits
                settings.countdownUntil = TimeBounds.latestWall
                settings.interval.work = Settings.longestPreset
                settings.interval.rest = Settings.longestPreset
                settings.interval.rounds = 99
                for wall in walls {
                    for phase in phases {
                        let snap = Snapshot(mode: mode, phase: phase, presets: [Settings.longestPreset.nanoseconds, 1],
                                            presetIndex: 1, direction: .down)
                        let start = Now(monotonic: at(0), wall: wall)
                        var core = Machine(settings: settings, switchPosition: .down, restoring: snap, at: start)
                        _ = core.handle(.powerOn, at: start)
                        for b in [Button.start, .stop, .reset] {
                            _ = core.handle(.edge(.button(b), active: true, at: at(1)), at: start.at(at(1)))
                            _ = core.handle(.edge(.button(b), active: false, at: at(1.1)), at: start.at(at(1.1)))
                        }
                        _ = core.handle(.wake, at: start.at(at(1_000_000)))
                        _ = core.snapshot(at: start.at(at(1_000_000)))
                    }
                }
            }
        }
    }

    /// A board without a real-time clock boots at a time before the state
    /// was saved: the count never shows more than its preset.
    @Test func aWallClockBehindTheStateFileNeverShowsMoreThanThePreset() throws {
        var a = VirtualMachine(.timer([.seconds(120)]))
        a.press(.start, at: 0)
        a.run(to: 5)
        let snap = a.persisted.last!
        // Power back with the clock an hour behind when the count started.
        let behind = Now(monotonic: at(0), wall: epoch - .seconds(3_600))
        #expect(snap.isFromTheFuture(at: behind.wall))
        #expect(!snap.isFromTheFuture(at: epoch + .seconds(10)))
        var b = VirtualMachine(.timer([.seconds(120)]), epoch: behind.wall, restoring: snap)
        #expect(b.core.stateName == .running)
        #expect(b.display == "02:00")
        b.run(to: 30)
        #expect(b.display == "01:30")
        let progress = b.core.progress(at: b.clock)
        #expect(progress.elapsed == .seconds(30) && progress.remaining == .seconds(90))
    }

    /// A clock reading outside 1970...2199-09-22 is unverified and reads
    /// as 1970 plus the monotonic time; inside, it is taken as it is.
    @Test func aClockReadingOutsideTheTrustedRangeIsUnverifiedNeverATrap() {
        let mono = Instant(nanoseconds: 5_000_000_000)
        for wall in [TimeBounds.latestClock + .nanoseconds(1), WallTime(secondsSince1970: 7_258_114_800),
                     WallTime(nanoseconds: .max), WallTime(nanoseconds: -1)] {
            let n = Now(monotonic: mono, clockReading: wall, wallSynchronised: true)
            #expect(!n.wallSynchronised)
            #expect(n.wall == WallTime(nanoseconds: 5_000_000_000))
        }
        let last = Now(monotonic: mono, clockReading: TimeBounds.latestClock, wallSynchronised: true)
        #expect(last.wallSynchronised && last.wall == TimeBounds.latestClock)
        // From the last trusted reading the longest duration still reads back.
        #expect((try? WallTime(checked: (TimeBounds.latestClock + TimeBounds.longest).nanoseconds)) != nil)
    }
}

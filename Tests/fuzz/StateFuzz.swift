// libFuzzer entry for what Tock decodes from its state file and from a
// fleet group's topic: `make fuzz-state` compiles it with the core,
// the state file's formats and GroupSchedule.swift under -sanitize=fuzzer,address. An input is read as
// a snapshot and as a group message; whatever decodes is restored into an
// appliance in every mode, pressed, advanced and rendered, and offered to
// a group schedule, so a value that decodes but traps later is a crash.
import Foundation

let modes: [Settings] = Settings.Mode.allCases.flatMap { mode in
    [4, 8].map { digits in
        var s = Settings()
        s.mode = mode
        s.presets = [.seconds(300), Settings.longestPreset]
        s.countdownUntil = WallTime(secondsSince1970: 1_800_000_000)
        s.display.digits = digits
        s.interval.work = Settings.longestPreset
        s.interval.rounds = 99
        return s
    }
}
let walls = [TimeBounds.earliestWall, WallTime(secondsSince1970: 1_800_000_000), TimeBounds.latestWall]

func exercise(_ snap: Snapshot) {
    for settings in modes {
        for wall in walls {
            let start = Now(monotonic: Instant(nanoseconds: 1_000_000_000), wall: wall)
            var core = Machine(settings: settings, switchPosition: .down, restoring: snap, at: start)
            _ = core.handle(.powerOn, at: start)
            for (i, b) in [Button.start, .stop, .reset].enumerated() {
                let t = Instant(nanoseconds: 2_000_000_000 + Int64(i) * 100_000_000)
                _ = core.handle(.edge(.button(b), active: true, at: t), at: start.at(t))
                _ = core.handle(.edge(.button(b), active: false, at: t + .milliseconds(50)), at: start.at(t + .milliseconds(50)))
            }
            _ = core.handle(.adoptGroup(snap.count), at: start.at(Instant(nanoseconds: 3_000_000_000)))
            let later = start.at(Instant(nanoseconds: 1_000_000_000_000))
            _ = core.handle(.wake, at: later)
            _ = core.progress(at: later)
            _ = core.snapshot(at: later)
        }
    }
}

/// A count as the flat shape carries it: without time added to it.
func withoutLength(_ c: Snapshot.Count) -> Snapshot.Count {
    guard case .count(var saved) = c.program else { return c }
    saved.length = nil
    var out = c
    out.program = .count(saved)
    return out
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzState(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    if let (snap, _) = try? StateFile.decode(Array(bytes)) {
        // What decodes encodes back to the same snapshot, in either shape.
        guard let (again, _) = try? StateFile.decode(StateFile.encode(snap)), again == snap else {
            fatalError("round trip: \(snap)")
        }
        // (The flat shape, a group's message of format 1, leaves the extra
        // timers out, and a count's added length.)
        var shared = snap
        (shared.timers, shared.wallUnverified) = (nil, false)
        shared.count = withoutLength(shared.count)
        guard let flat = try? JSON.decode(SnapshotJSON.Read.self, from: SnapshotJSON.value(snap).bytes(.encoder)), flat.snapshot == shared else {
            fatalError("round trip (flat): \(snap)")
        }
        exercise(snap)
    }
    if let m = try? JSON.decode(GroupSchedule.Message.self, from: Array(bytes)) {
        var schedule = GroupSchedule()
        let now = Now(monotonic: Instant(nanoseconds: 1_000_000_000), wall: WallTime(secondsSince1970: 1_800_000_000))
        _ = schedule.offer(m, now: now, retained: m.seq % 2 == 0, lead: .seconds(1), own: "box")
        // Due long after, with the wall clock stepped to its far bound.
        for due in schedule.due(at: Now(monotonic: Instant(nanoseconds: 1 << 62), wall: TimeBounds.latestWall)) {
            if case .success(let moved) = due.state { exercise(Snapshot(count: moved)) }
        }
        // What decodes encodes back to the same message, in either format.
        for format in [1, 2] {
            var again = m
            again.format = format
            if format == 1 { again.state = withoutLength(again.state) }
            guard (try? JSON.decode(GroupSchedule.Message.self, from: again.bytes)) == again else { fatalError("round trip (format \(format)): \(m)") }
        }
        exercise(Snapshot(count: m.state))
    }
    return 0
}

/// A tick that pays for what changed (docs/architecture.md): a wake-up
/// before any deadline but the display's own draws the frame and nothing
/// else; the frame and the display's own deadlines, shared with a full
/// batch of outputs.
extension Machine {
    // The helpers of a tick are inlined: a call to a method that reads
    // `self` from a mutating one copies the whole Machine first (3.5 KB,
    // three times a tick before).

    /// What to show, drawn, at the brightness in use (`Devices.frame`).
    @inline(__always)
    mutating func frame(_ p: Presentation, count: Int64? = nil, at now: Now) -> Frame {
        // The zone's rules are looked at only for a night schedule: passed
        // on every frame, they were copied out of the settings each time.
        let level: Int
        if case .none = devices.dimming.night {
            level = devices.dimming.brightness
        } else {
            level = nightLevel(at: now.wall)
        }
        return devices.frame(p, count: count, at: now, level: level, lastPoint: panel.shownCounts.several)
    }

    /// The brightness under a night schedule. Apart, so that the zone's
    /// rules are copied out of the settings only when there is one (the
    /// copy was made ahead of the test, on every frame); `mutating`, as
    /// `displayDeadlines`, or every frame passed it a copy of the Machine.
    @inline(never)
    mutating func nightLevel(at w: WallTime) -> Int {
        devices.dimming.level(at: w, zone: setup.settings.clock.zone)
    }

    /// When the display changes by itself: a blink's next toggle, the next
    /// step of a count or a clock. `mutating` though it changes nothing: the
    /// compiler declines to inline it into the quiet tick, and a call to a
    /// reading method from a changing one passes a copy of the Machine
    /// (3.5 KB a wake-up) where a changing one is passed its address.
    @inline(__always)
    mutating func displayDeadlines(_ p: Presentation, at now: Now) -> (monotonic: Instant?, wall: WallTime?) {
        let t = now.monotonic
        var d = motionDeadlines(p, at: now)
        if let l = panel.labelDeadline(at: t) { d.monotonic = Instant.earliest(d.monotonic, l) }
        if let s = scrollStep(after: t) { d.monotonic = Instant.earliest(d.monotonic, s) }
        return d
    }

    /// When the presentation changes by itself: a blink's next toggle, the
    /// next step of its count or clock.
    @inline(__always)
    mutating func motionDeadlines(_ p: Presentation, count: Int64? = nil, at now: Now) -> (monotonic: Instant?, wall: WallTime?) {
        let t = now.monotonic
        var monotonic = p.blink?.nextToggle(after: t)
        var wall: WallTime?
        if let motion = p.motion, let step = devices.renderer.nanosecondsToNextChange(of: p.content, count: count) {
            switch motion {
            case .monotonic: monotonic = Instant.earliest(monotonic, Instant(nanoseconds: t.nanoseconds + step))
            case .wall: wall = WallTime(nanoseconds: now.wall.nanoseconds + step)
            }
        }
        return (monotonic, wall)
    }

    /// A wake-up before any deadline but the display's own: nothing but
    /// time passed, so no state, tone, LED or round changed and nothing is
    /// to be remembered; only the frame is drawn again. This is most of a
    /// count's wake-ups (one a second for MM:SS), and costs a frame instead
    /// of a full batch. Debug builds check each against a full batch.
    mutating func quietTick(at now: Now, _ quiet: QuietTick.Until, into out: inout Output) {
        let p: Presentation
        let motion: (monotonic: Instant?, wall: WallTime?)
        var count: Int64?
        if let moved = quietPresentation(at: now, count: &count) {
            // (no label or scroll: `QuietTick.Base`)
            p = moved
            motion = motionDeadlines(p, count: count, at: now)
        } else {
            p = presentation(at: now)
            motion = displayDeadlines(p, at: now)
        }
        let frame = frame(p, count: count, at: now)
        time.applied(to: now.monotonic)
        // Emptied from the end (`removeAll(keepingCapacity:)` goes through
        // the general `replaceSubrange`, 200 instructions for two items).
        while !out.items.isEmpty { out.items.removeLast() }
        if frame != reported.shown.frame { out.append(.render(frame)); reported.shown.frame = frame }
        out.append(.wake(monotonic: Instant.earliest(quiet.monotonic, motion.monotonic),
                         wall: quiet.wall.map { w in motion.wall.map { min(w, $0) } ?? w } ?? motion.wall))
    }

    /// What shows at a quiet tick, from the last full batch's: the same
    /// count moved on by the time since, on the clock it moves with (a
    /// count's end, a phase's, a snooze's are deadlines that end the quiet
    /// first); the time of day read again. Nil when there is no such
    /// presentation, or the wall clock's verdict changed since.
    /// `mutating` though it changes nothing (`displayDeadlines` says why).
    /// `count`: the moved count's value in nanoseconds, for the frame.
    @inline(__always)
    mutating func quietPresentation(at now: Now, count: inout Int64?) -> Presentation? {
        guard quiet.base.holds, quiet.base.at.wallSynchronised == now.wallSynchronised else { return nil }
        let content: DisplayContent
        switch quiet.base.motion {
        case nil:
            content = quiet.base.content
            count = quiet.base.count
        case .monotonic?:
            let d = now.monotonic.nanoseconds - quiet.base.at.monotonic.nanoseconds
            content = quiet.base.content.moved(by: d, count: &count, from: quiet.base.count)
        case .wall?:
            if case .timeOfDay(_, _, let blinkColon) = quiet.base.content {
                content = timeOfDay(now, blinkColon: blinkColon)
            } else {
                let d = now.wall.nanoseconds - quiet.base.at.wall.nanoseconds
                content = quiet.base.content.moved(by: d, count: &count, from: quiet.base.count)
            }
        }
        return Presentation(content, motion: quiet.base.motion, blink: quiet.base.blink)
    }
}

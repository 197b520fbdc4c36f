/// The front panel's own state (Machine+Panel.swift says who has the
/// panel when): the view over the counts or the alarm list, the last
/// activity (the idle clock follows it), the count a long Stop picked and
/// the one labelled on the display, the preset the last long Start took,
/// and the address scroll.
extension Machine {
    @usableFromInline struct Panel: Sendable {
        enum View: Equatable, Sendable {
            /// The counts (or the idle clock, or a snooze).
            case counts
            /// The alarm list (a long press of Start in ready).
            case alarmList(AlarmBrowser)
        }

        /// The panel's side of the extra timers: nothing while the box's
        /// own count is alone; while extra timers are in progress, the count
        /// a long Stop stepped to (or Stop paused), the count labelled on
        /// the display and since when, and the preset the last long Start
        /// took. `timersIdle` ends it all at once.
        enum Counting: Sendable {
            case alone
            case several(Several)
        }

        struct Several: Sendable {
            var pick: CountRef?
            var labelled: (ref: CountRef, since: Instant)?
            var gesturePreset: Int?
        }

        var view = View.counts
        /// The last press, flip or change of state: the idle clock shows
        /// `display.idleAfter` after it.
        var activeAt: Instant
        var counting = Counting.alone
        /// What the display needs of the counts, as of the last full batch.
        var shownCounts = CountsShown()
        /// The box's addresses and name as the network watcher last
        /// reported them (nil before its first report), and the address
        /// scrolling or waiting to (Machine+Address.swift).
        @usableFromInline var network: NetworkIdentity?
        var scroll: AddressScroll?

        init(activeAt: Instant) { self.activeAt = activeAt }

        /// The alarm list, while it is open.
        var browser: AlarmBrowser? {
            if case .alarmList(let b) = view { return b }
            return nil
        }

        /// The alarm list is on the display at `t`.
        func browsing(at t: Instant) -> Bool {
            guard case .alarmList(let b) = view else { return false }
            return t < b.lastPress + AlarmBrowser.leaveAfter
        }

        mutating func open(_ list: AlarmBrowser?) { view = list.map(View.alarmList) ?? .counts }
        mutating func closeList() { view = .counts }

        /// Activity at `t`: the idle clock waits from then.
        mutating func active(at t: Instant) { activeAt = max(activeAt, t) }

        /// No extra timer is in progress: nothing is picked or labelled,
        /// and the next gesture starts from the box's own preset.
        mutating func timersIdle() { counting = .alone }

        /// The extra timers' side, made when first set to something (a
        /// nil set while alone leaves it alone).
        private var several: Several {
            get { if case .several(let s) = counting { s } else { Several() } }
            set {
                if case .alone = counting, newValue.pick == nil, newValue.labelled == nil, newValue.gesturePreset == nil { return }
                counting = .several(newValue)
            }
        }

        /// The count a long Stop stepped to, while extra timers are in progress.
        var pick: CountRef? {
            get { if case .several(let s) = counting { s.pick } else { nil } }
            set { several.pick = newValue }
        }

        /// The count shown and since when (its name shows first).
        var labelled: (ref: CountRef, since: Instant)? {
            if case .several(let s) = counting { s.labelled } else { nil }
        }

        /// The preset the last long Start took.
        var gesturePreset: Int? {
            get { if case .several(let s) = counting { s.gesturePreset } else { nil } }
            set { several.gesturePreset = newValue }
        }

        /// `ref` is shown from `t` on, unless it already was.
        mutating func label(_ ref: CountRef, at t: Instant) {
            if labelled?.ref != ref { several.labelled = (ref, t) }
        }

        /// The shown count's name, in place of its count: for `labelFor`
        /// after the shown count changed, then at each `labelEvery` while
        /// more than one count runs. Nil when the count shows.
        @inline(__always)
        func label(at t: Instant) -> String? {
            guard let text = shownCounts.label, let since = shownCounts.since, t >= since else { return nil }
            let into = (t - since).nanoseconds
            guard into < labelFor.nanoseconds || shownCounts.severalRun && into % labelEvery.nanoseconds < labelFor.nanoseconds else { return nil }
            return text
        }

        /// When the name next comes or goes.
        @inline(__always)
        func labelDeadline(at t: Instant) -> Instant? {
            guard shownCounts.label != nil, let since = shownCounts.since else { return nil }
            // A name noted at an instant ahead of this one (an input
            // handed in dated before the last one applied) comes at it.
            if t < since { return since }
            let into = (t - since).nanoseconds
            let every = labelEvery.nanoseconds, on = labelFor.nanoseconds
            if into < on { return since + labelFor }
            guard shownCounts.severalRun else { return nil }
            let phase = into % every
            return t + .nanoseconds(phase < on ? on - phase : every - phase)
        }

        private var labelFor: Duration { Machine.labelFor }
        private var labelEvery: Duration { Machine.labelEvery }
    }
}

/// The address on the display (docs/display.md, "The address on the
/// display"): the box scrolls its IPv4 addresses and its `.local` name
/// when an address appears that it did not have, and when Stop is held in
/// ready or done.
///
/// The scroll shows only while the box is at rest: ready or done, no
/// extra timer in progress, no daily alarm ringing or snoozed, the alarm
/// list closed. An address that appears while a count is in progress
/// waits and scrolls once the box is back at rest; a scroll under way
/// ends when a count starts (from the page, MQTT or the socket). Any
/// press or flip on the box ends it and does nothing else, as a press
/// that wakes the idle clock.
extension Machine {
    /// The box is at rest: a scroll may show.
    @inline(__always)  // (Machine+Quiet.swift)
    func scrollMayShow(at t: Instant) -> Bool {
        program.isIdle && !timers.anyActive && alarms.state == .quiet && !browsing(at: t)
    }

    /// A scroll is on the display at `t`.
    @inline(__always)  // (Machine+Quiet.swift)
    func scrollShowing(at t: Instant) -> Bool {
        guard let s = panel.scroll, s.window(at: t, digits: renderer.digits) != nil else { return false }
        return scrollMayShow(at: t)
    }

    /// Stop held in ready or done (with no extra timer in progress, whose
    /// held Stop steps between the counts) shows the address.
    var addressGestureAvailable: Bool { program.isIdle && !timers.anyActive }

    /// What the network watcher saw. The first report after the start is
    /// what the box already had; from then on an address not seen in the
    /// last report starts a scroll (or makes one wait for the box to be at
    /// rest). An address that goes and comes back scrolls again.
    mutating func noteNetwork(_ identity: NetworkIdentity) {
        defer { panel.network = identity }
        guard let before = panel.network else { return }
        if identity.addresses.contains(where: { !before.addresses.contains($0) }) {
            panel.scroll = AddressScroll(identity)
        }
    }

    /// The gesture: the scroll starts at once, in this batch (`no Addr`
    /// and the name when the box has no address; before the watcher's
    /// first report the name is not known either: `no Addr` alone).
    mutating func showAddress(at t: Instant) {
        panel.scroll = AddressScroll(panel.network ?? NetworkIdentity(addresses: [], name: ""))
        note([], at: t)
    }

    /// At each full batch: a waiting scroll starts if the box is at rest
    /// (its line is returned, for the report), one that ended or that a
    /// count cut short is dropped.
    mutating func settleScroll(at t: Instant) -> String? {
        guard var s = panel.scroll else { return nil }
        guard s.start != nil else {
            guard scrollMayShow(at: t) else { return nil }
            s.start = t
            panel.scroll = s
            return s.line
        }
        if !scrollShowing(at: t) { panel.scroll = nil }
        return nil
    }

    /// When the scroll ends (a full batch drops it then).
    var scrollEnd: Instant? { panel.scroll?.end(digits: renderer.digits) }

    /// The scroll's next step, while it shows.
    @inline(__always)  // (Machine+Quiet.swift)
    func scrollStep(after t: Instant) -> Instant? {
        guard scrollShowing(at: t) else { return nil }
        return panel.scroll?.nextStep(after: t, digits: renderer.digits)
    }

    /// The scroll's frame text at `t`, while it shows.
    @inline(__always)  // (Machine+Quiet.swift)
    func scrollPresentation(at t: Instant) -> Presentation? {
        // The scroll first: most wake-ups have none, and the box's rest is
        // the dearer question (it looks at the program).
        guard let w = panel.scroll?.window(at: t, digits: renderer.digits), scrollMayShow(at: t) else { return nil }
        return Presentation(.text(w))
    }
}

/// What one batch changed on the box's outside: the one typed stream the
/// shell hands out (`Shell.observe`) to everything that tells the world or
/// remembers: the control socket's watchers, MQTT, the state file, the
/// fleet group, the screens and the timing log. Each field is set only when
/// it changed in this batch (at power-on every output is reported afresh),
/// worked out once by the shell rather than by each listener from the
/// core's outputs against a "last seen" of its own.
public struct BoxChange: Equatable, Sendable {
    /// The core's outputs in order, as carried out (a frame of the core's
    /// kept back under a notice is left out).
    public var output = Machine.Output()
    /// The display now shows this frame (the core's, or a notice's).
    public var frame: Frame?
    /// The frame is a notice put up or taken down, not the core's count.
    public var notice = false
    /// The buzzer went on (true) or off.
    public var buzzer: Bool?
    public var state: StateName?
    /// A named program's round (or set) changed.
    public var round: RoundReport?
    /// The Up/Down switch moved, by the lever or by a request.
    public var switchPosition: SwitchPosition?
    /// A state to remember across a restart.
    public var persist: Snapshot? {
        get { persisted?.value }
        set { persisted = newValue.map(HeldSnapshot.init) }
    }
    /// Whether there is a state to remember: looked at without copying
    /// it out (each wake-up asks).
    public var persists: Bool { persisted != nil }
    /// A press for the fleet group to carry out.
    public var group: GroupChange? {
        get { grouped?.value }
        set { grouped = newValue.map(HeldGroup.init) }
    }
    // The two large and rare ones are held by reference: a change is made
    // and handed to every follower on each wake-up, and with them in place
    // it was 464 bytes to fill, copy and destroy (`make bench-tick`).
    fileprivate var persisted: HeldSnapshot?
    fileprivate var grouped: HeldGroup?
    /// A daily alarm's notice, or an LED, changed.
    public var alarmsOrLEDs = false
    /// The wall clock's verdict changed: synchronised, no longer, or stepped.
    public var clock = false
    /// The extra timers changed (`Machine.timers` holds them now).
    public var timers = false
    /// Extra timers that reached zero, in order.
    public var timersRang: [String] = []

    public init() {}

    /// A value held by reference, compared by value. One class for each,
    /// not one generic class: a generic class's metadata is built at run
    /// time from its name when the first change is made (50 k instructions
    /// each at start, `make bench-startup`); a plain class's is in the binary.
    fileprivate final class HeldSnapshot: Sendable, Equatable {
        let value: Snapshot
        init(_ value: Snapshot) { self.value = value }
        static func == (a: HeldSnapshot, b: HeldSnapshot) -> Bool { a.value == b.value }
    }
    fileprivate final class HeldGroup: Sendable, Equatable {
        let value: GroupChange
        init(_ value: GroupChange) { self.value = value }
        static func == (a: HeldGroup, b: HeldGroup) -> Bool { a.value == b.value }
    }

    /// Only the display changed (the count's digits, a blink, a notice):
    /// what follows the count's time is all a listener need look at.
    public var displayOnly: Bool {
        frame != nil && buzzer == nil && state == nil && round == nil && switchPosition == nil && persisted == nil && grouped == nil && !alarmsOrLEDs && !clock && !timers && timersRang.isEmpty
    }

    /// Whether anything someone outside the box could see changed.
    public var isVisible: Bool {
        frame != nil || buzzer != nil || state != nil || round != nil || switchPosition != nil || persisted != nil || alarmsOrLEDs || clock || timers || !timersRang.isEmpty
    }
}

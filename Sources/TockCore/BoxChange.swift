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
    public var persist: Snapshot?
    /// A press for the fleet group to carry out.
    public var group: GroupChange?
    /// A daily alarm's notice, or an LED, changed.
    public var alarmsOrLEDs = false
    /// The wall clock's verdict changed: synchronised, no longer, or stepped.
    public var clock = false
    /// The extra timers changed (`Machine.timers` holds them now).
    public var timers = false
    /// Extra timers that reached zero, in order.
    public var timersRang: [String] = []

    public init() {}

    /// Only the display changed (the count's digits, a blink, a notice):
    /// what follows the count's time is all a listener need look at.
    public var displayOnly: Bool {
        frame != nil && buzzer == nil && state == nil && round == nil && switchPosition == nil && persist == nil && group == nil && !alarmsOrLEDs && !clock && !timers && timersRang.isEmpty
    }

    /// Whether anything someone outside the box could see changed.
    public var isVisible: Bool {
        frame != nil || buzzer != nil || state != nil || round != nil || switchPosition != nil || persist != nil || alarmsOrLEDs || clock || timers || !timersRang.isEmpty
    }
}

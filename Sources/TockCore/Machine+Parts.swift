/// The machine's public face over its parts: what the shell, the control
/// socket, MQTT and the page read (and the tests reach).
extension Machine {
    @inlinable public var settings: Settings { setup.settings }
    /// The mode the configuration file asks for; `settings.mode` may differ
    /// after `tock mode` changed it at run time.
    @inlinable public var fileMode: Settings.Mode { setup.fileMode }
    /// A configuration (reloaded, or read at a restart) that waits for the
    /// count in progress to be reset (`Setup.pending`).
    public internal(set) var pendingSettings: Settings? {
        @inlinable get { setup.pending }
        set { setup.pending = newValue }
    }
    public internal(set) var program: Program {
        @inlinable get { counts.program }
        set { counts.program = newValue }
        _modify { yield &counts.program }
    }
    /// Named count-downs beside the box's own count (`Machine+Timers`).
    public internal(set) var timers: ExtraTimers {
        @inlinable get { counts.timers }
        set { counts.timers = newValue }
        _modify { yield &counts.timers }
    }
    public internal(set) var alarms: AlarmClock {
        @inlinable get { alarmPart.clock }
        set { alarmPart.clock = newValue }
        _modify { yield &alarmPart.clock }
    }
    /// The brightness by day and the night schedule in use (`Dimming`).
    @inlinable public var dimming: Dimming { devices.dimming }
    /// The level the room's light asks for (`Settings.light`).
    @inlinable public var ambient: AmbientLight? { devices.ambient }
    /// The fleet group can be reached: presses go through it.
    public internal(set) var groupLinked: Bool {
        get { group.isLinked }
        set { group.linkChanged(newValue) }
    }
    /// The box's addresses and name as the network watcher last reported
    /// them (nil before its first report).
    @inlinable public var network: NetworkIdentity? { panel.network }

    var renderer: Renderer { devices.renderer }
    var setAside: SetAsideEdits { setup.setAside }
    var provisional: ProvisionalRestore? { counts.provisional }
    var scroll: AddressScroll? { panel.scroll }
    /// Wake-ups served by a quiet tick (for the tests).
    var quietTicks: Int { quiet.ticks }
}

import TockCore

/// When the box opens its setup hotspot and when it closes it again
/// (docs/raspberry-pi.md, "No network: the setup hotspot"), as rules
/// apart from the radio: `step` is given what the box sees once a second
/// and says what to do. A wrong passphrase, a renamed router, a moved box
/// all end in `waiting` with no address, so on the hotspot; a router that
/// comes back later is tried again every `retry` while no one is on the
/// hotspot.
public struct HotspotPolicy: Sendable {
    public struct Timing: Sendable {
        /// No address this long after boot, a lost address or a new
        /// setting, while Wi-Fi is configured or an Ethernet cable is in.
        public var wait: Duration = .seconds(90)
        /// The same with no Wi-Fi configured and no cable: the time for a
        /// cable's carrier to show after boot.
        public var settle: Duration = .seconds(15)
        /// The hotspot with no device on it this long: the configured
        /// network is tried again (a router that was down comes back).
        public var retry: Duration = .seconds(300)
        /// The hotspot at most this long even with a device on it, while
        /// there is a network to try.
        public var hold: Duration = .seconds(1800)
        public init() {}
    }

    /// What the box sees.
    public struct Observation: Equatable, Sendable {
        /// An IPv4 address, not link-local, on any interface but the hotspot.
        public var hasAddress = false
        /// A carrier on a wired interface.
        public var carrier = false
        /// A Wi-Fi network is set (tock-setup.txt, rpi-preseed.toml or the page).
        public var wifiConfigured = false
        /// The Wi-Fi interface exists (no hotspot without one).
        public var wifiDevice = true
        /// Devices joined to the hotspot.
        public var clients = 0
        /// The page's setting was taken (checked and kept) since the last step.
        public var newSetting = false
        public init(hasAddress: Bool = false, carrier: Bool = false, wifiConfigured: Bool = false, wifiDevice: Bool = true,
                    clients: Int = 0, newSetting: Bool = false) {
            self.hasAddress = hasAddress
            self.carrier = carrier
            self.wifiConfigured = wifiConfigured
            self.wifiDevice = wifiDevice
            self.clients = clients
            self.newSetting = newSetting
        }
    }

    public enum State: Equatable, Sendable {
        /// No address since `since`.
        case waiting(since: Instant)
        case online
        /// Open since `since`; with no device on it since `quiet` (nil: one is on it).
        case hotspot(since: Instant, quiet: Instant?)
    }

    public enum Action: Equatable, Sendable {
        /// Keep the networks scanned, switch the radio to the hotspot, serve the page.
        case open
        /// Stop the page, give the radio back to the configured network (read anew).
        case join
    }

    public let timing: Timing
    public private(set) var state: State

    public init(timing: Timing = Timing(), now: Instant) {
        self.timing = timing
        state = .waiting(since: now)
    }

    public var isOpen: Bool { if case .hotspot = state { true } else { false } }

    /// The radio did not become the hotspot (the driver refused, a scan
    /// stuck): the configured network is joined again (`.join` carried
    /// out by the caller) and the hotspot tried after the wait once more.
    public mutating func openFailed(now: Instant) {
        state = .waiting(since: now)
    }

    public mutating func step(_ o: Observation, now: Instant) -> Action? {
        switch state {
        case .online:
            if o.newSetting {
                state = o.hasAddress ? .online : .waiting(since: now)
                return .join
            }
            if !o.hasAddress { state = .waiting(since: now) }
            return nil
        case .waiting(let since):
            if o.newSetting {
                state = .waiting(since: now)
                return .join
            }
            if o.hasAddress {
                state = .online
                return nil
            }
            guard o.wifiDevice else { return nil }
            let limit = o.wifiConfigured || o.carrier ? timing.wait : timing.settle
            guard now - since >= limit else { return nil }
            state = .hotspot(since: now, quiet: o.clients > 0 ? nil : now)
            return .open
        case .hotspot(let since, var quiet):
            if o.newSetting || !o.wifiDevice {
                state = .waiting(since: now)
                return .join
            }
            if o.hasAddress {
                state = .online
                return .join
            }
            if o.clients > 0 { quiet = nil } else if quiet == nil { quiet = now }
            state = .hotspot(since: since, quiet: quiet)
            // With nothing to try (no Wi-Fi set, no cable) the hotspot stays.
            guard o.wifiConfigured || o.carrier else { return nil }
            let idle = quiet.map { now - $0 >= timing.retry } ?? false
            guard idle || now - since >= timing.hold else { return nil }
            state = .waiting(since: now)
            return .join
        }
    }
}

/// What one client may make tock-web hold, and for how long. The page's
/// requests are small (the largest body is an alarm's JSON, under 200
/// bytes; a browser's head is 0.5-2 KiB), so the limits sit far above
/// what a person's browser sends and far below what would matter to a
/// process capped at 64 MiB (`MemoryMax=64M`).
public struct HTTPLimits: Sendable {
    /// Request line and headers together (431 beyond; nginx's default
    /// buffers are 1 KiB, then 4 x 8 KiB).
    public var head = 16 * 1024
    /// A request body, by `Content-Length` or counted while chunked (413 beyond).
    public var body = 16 * 1024
    /// From a connection's first byte (or the end of the previous reply)
    /// to the end of the request's head, and then to the end of its body:
    /// a client that sends a byte every few seconds is cut at this.
    public var requestTime: Duration = .seconds(10)
    /// How long a reply may wait for the client to take it.
    public var writeTime: Duration = .seconds(10)
    /// Connections served at once. Beyond, the unpaired one that has
    /// waited longest without sending a byte is closed for the new one,
    /// else the oldest on probation, else an idle paired one; if none, the
    /// new one is answered 503 and closed (`ConnectionSlots`). systemd's
    /// default soft limit is 1,024 descriptors.
    public var connections = 128
    /// A new connection's moment to send its request: until its first
    /// byte, or for this long, it is not closed to make room for another
    /// newcomer (both are equally unproven; a browser sends its request
    /// within a millisecond of connecting, a busy phone or a loaded network
    /// within this: one second lost a paired owner's load now and then
    /// under load, `slots_test.py`). A newcomer that finds only such
    /// connections in its share is let in on probation instead
    /// (`ConnectionSlots`).
    public var newborn: Duration = .seconds(3)
    /// Of `connections`, the slots browsers that are not paired can never
    /// fill: whatever they hold, a request with a valid token gets in
    /// (`ConnectionSlots`).
    public var pairedReserve = 32
    /// Connections one address may hold while not paired, so that one
    /// machine on the LAN cannot take every slot by staying one under the
    /// total: beyond, that address's own idlest connection makes room, or
    /// the new one must show a token. A phone's browser opens six.
    public var perAddress = 16
    /// The same for one IPv4 /24 or IPv6 /64: a host can hold several IPv4
    /// addresses and any number of IPv6 ones in its /64, which is also the
    /// whole home's. Paired browsers in it are not counted.
    public var perNetwork = 32
    /// The machine itself is exempt from both while `loopbackExempt` (a
    /// reverse proxy on the box brings everyone from 127.0.0.1: the proxy
    /// limits them).
    public var loopbackExempt = true
    /// Live displays (`/api/events`) at once; more are answered 503.
    public var eventStreams = 16
    /// A live display gets a comment line this often when nothing
    /// happens, so that a peer that went away is found by the write.
    public var eventHeartbeat: Duration = .seconds(15)
    /// Display changes a second the live display gets at most (the
    /// appliance holds back the rest, the newest wins): a stopwatch's
    /// hundredths would be 100 events a second for every page, more than
    /// a phone can show or the box should spend. Changes of state, buzzer,
    /// round and switch always go at once.
    public var eventFPS = 10
    /// A live display is ended after this (the page reconnects at once).
    public var eventLifetime: Duration = .seconds(30 * 60)
    /// Requests to the appliance at once; more are answered 503 at once.
    public var boxCalls = 4
    /// After accept(2) fails for want of descriptors or memory.
    public var acceptPause: Duration = .milliseconds(250)

    public init() {}
}

extension HTTPLimits {
    /// The setup hotspot's page: one person's phone or laptop at a time,
    /// whose form is under 300 bytes.
    public static var hotspot: HTTPLimits {
        var l = HTTPLimits()
        l.head = 8 * 1024
        l.body = 2 * 1024
        l.connections = 32
        l.pairedReserve = 0
        l.perAddress = 8
        l.perNetwork = 32
        l.loopbackExempt = false
        l.eventStreams = 0
        // No token to show here: a phone's next connection must be able to
        // take the place of its own silent ones (captive-portal probes,
        // preconnects) at once, or it would be refused.
        l.newborn = .zero
        return l
    }
}

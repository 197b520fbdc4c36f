/// Who holds tock-web's connection slots, and who gets the next one: the
/// rules alone, no sockets and no clock, so that tests can play every
/// attacker against them (`WebServer` keeps one under its lock).
///
/// A connection is **unpaired** until one of its requests carries a valid
/// token, then **paired** for good. Unpaired connections are held to
/// shares: `perAddress` from one address, `perNetwork` from one IPv4 /24
/// or IPv6 /64 (a host holds as many IPv6 addresses in its /64 as it
/// likes, and a few IPv4 ones on a home's /24), and `connections -
/// reserved` in all. Paired ones count only against the total.
///
/// A newcomer is unpaired when it arrives: nothing is read before it is
/// let in. One that fits no share still gets a slot **on probation**: its
/// first request must carry a valid token, or it is answered 503 with the
/// share it broke and closed. Probation is the way in for the owner's
/// phone when strangers fill every share it would count against (its /24,
/// the unpaired total); a stranger on probation gains nothing, since the
/// oldest probation slot is the first a newcomer takes once every slot is
/// held, whether or not its request has begun: a browser sends its whole
/// request the moment it connects, and is paired within a millisecond.
/// When the machine is too busy for that, a slot whose bytes are still
/// unread (the browser's request, not yet judged) outlasts the stalling
/// ones whose bytes were read (`quiet`), oldest first among each; and
/// before an unread one is closed, its pending head is judged
/// (`carriesToken`): one with a valid token is paired there and then, so
/// a starved server never closes the owner's request for a stranger's.
public struct ConnectionSlots<Key: Hashable>: Sendable where Key: Sendable {
    /// Where a connection comes from.
    public struct Peer: Hashable, Sendable {
        public var address: String
        /// The IPv4 /24 or IPv6 /64 the address is in.
        public var network: String
        /// This machine (loopback): no share, as a reverse proxy on the box
        /// brings everyone from 127.0.0.1 and must limit them itself.
        public var exempt: Bool

        public init(address: String, network: String, exempt: Bool = false) {
            self.address = address
            self.network = network
            self.exempt = exempt
        }
    }

    public enum Kind: Equatable, Sendable {
        /// Unpaired, within its shares.
        case open
        /// Unpaired beyond a share (`why`): its first request must be paired.
        case probation(why: String)
        case paired
    }

    struct Slot {
        var peer: Peer
        var kind: Kind
        /// When it began waiting for a request (a counter), nil while a request is on its way.
        var idleSince: Int?
        var admitted: Int
    }

    public enum Admission: Equatable, Sendable {
        /// Let in, as `kind`, after closing `evicting` (whose slot it takes).
        case admitted(Kind, evicting: [Key])
        /// No slot: answer 503 with `why` and close.
        case refused(why: String)
    }

    public let connections: Int
    public let reserved: Int
    public let perAddress: Int
    public let perNetwork: Int
    private var slots: [Key: Slot] = [:]
    private var ticket = 0

    /// `perAddress` or `perNetwork` 0: no such share. `reserved` is at most
    /// a quarter of `connections`: the rest stay open to browsers that are
    /// about to pair, whatever the total is set to.
    public init(connections: Int, reserved: Int, perAddress: Int, perNetwork: Int) {
        self.connections = connections
        self.reserved = min(max(0, reserved), connections / 4)
        self.perAddress = perAddress
        self.perNetwork = perNetwork
    }

    public var count: Int { slots.count }
    public func count(where kind: (Kind) -> Bool) -> Int { slots.values.count { kind($0.kind) } }
    public var idleCount: Int { slots.values.count { $0.idleSince != nil } }
    public func kind(of key: Key) -> Kind? { slots[key]?.kind }

    /// A newcomer from `peer`. `quiet(key)`: an idle connection has no
    /// request on its way (no bytes pending) and is not itself a newcomer
    /// still within its moment to send one (`HTTPLimits.newborn`), so
    /// closing it loses nothing. `silent(key)`: such a newcomer, nothing
    /// pending yet: on probation it goes after those whose bytes wait
    /// unread (the owner held up between connecting and sending is not
    /// closed for a stranger's busy server's backlog).
    /// `carriesToken(key)`: the bytes pending on a connection not yet read
    /// hold a whole request head with a valid token (asked only of unread
    /// ones on probation, oldest first, when one of them must go).
    public mutating func admit(_ key: Key, from peer: Peer, quiet: (Key) -> Bool,
                               silent: (Key) -> Bool = { _ in false },
                               carriesToken: (Key) -> Bool = { _ in false }) -> Admission {
        var evicting: [Key] = []
        /// The idlest quiet unpaired (open) connection that `matches`, closed to make room.
        func evictIdle(_ matches: (Slot) -> Bool) -> Bool {
            guard let victim = slots.filter({ $0.value.kind == .open && $0.value.idleSince != nil && matches($0.value) })
                .sorted(by: { $0.value.idleSince! < $1.value.idleSince! })
                .first(where: { quiet($0.key) })?.key else { return false }
            slots[victim] = nil
            evicting.append(victim)
            return true
        }
        var why: String?
        let open = { (s: Slot) in s.kind == .open }
        if !peer.exempt {
            if perAddress > 0, slots.values.count(where: { open($0) && $0.peer.address == peer.address }) >= perAddress,
               !evictIdle({ $0.peer.address == peer.address }) {
                why = "too many connections from your address (\(perAddress))"
            } else if perNetwork > 0, slots.values.count(where: { open($0) && $0.peer.network == peer.network }) >= perNetwork,
                      !evictIdle({ $0.peer.network == peer.network }) {
                why = "too many connections from your network \(peer.network) (\(perNetwork))"
            }
        }
        if why == nil, slots.values.count(where: open) >= connections - reserved, !evictIdle({ _ in true }) {
            why = "too many connections from browsers that are not paired (\(connections - reserved))"
        }
        if slots.count >= connections {
            // Every slot held: the idlest unpaired, else the oldest on
            // probation, else the idlest paired makes room. Among those on
            // probation, one whose bytes were all read and whose request
            // is still not whole (stalling) goes before one with bytes
            // not yet read (its request not yet judged: a browser that
            // sent its token at once, when this machine is busy).
            if !evictIdle({ _ in true }) {
                let probation = slots.filter { if case .probation = $0.value.kind { true } else { false } }
                let stalling = probation.filter { quiet($0.key) }
                var unread: Key?
                if stalling.isEmpty {
                    // Judged before it is closed: the owner's request waiting
                    // for a busy server is paired, not cut. One that has not
                    // yet had its moment to send anything goes last.
                    let byAge = probation.sorted(by: { $0.value.admitted < $1.value.admitted })
                    for (k, _) in byAge where !silent(k) {
                        guard carriesToken(k) else { unread = k; break }
                        slots[k]?.kind = .paired
                    }
                    unread = unread ?? byAge.first(where: { silent($0.key) })?.key
                }
                let pairedIdle = slots.filter { $0.value.kind == .paired && $0.value.idleSince != nil && quiet($0.key) }
                if let victim = stalling.min(by: { $0.value.admitted < $1.value.admitted })?.key ?? unread
                    ?? pairedIdle.min(by: { $0.value.idleSince! < $1.value.idleSince! })?.key {
                    slots[victim] = nil
                    evicting.append(victim)
                } else {
                    return .refused(why: why ?? "too many connections (\(connections))")
                }
            }
        }
        ticket += 1
        let kind: Kind = why.map { .probation(why: $0) } ?? .open
        slots[key] = Slot(peer: peer, kind: kind, idleSince: ticket, admitted: ticket)
        return .admitted(kind, evicting: evicting)
    }

    /// A request arrived on `key`, carrying a valid token or not: the
    /// refusal to send (then close) for one on probation without a token.
    public mutating func request(on key: Key, paired: Bool) -> String? {
        guard let slot = slots[key] else { return nil }
        if paired {
            slots[key]?.kind = .paired
            return nil
        }
        if case .probation(let why) = slot.kind { return why }
        return nil
    }

    /// `key` began (true) or stopped waiting for a request's first byte.
    public mutating func idle(_ key: Key, _ isIdle: Bool) {
        guard slots[key] != nil else { return }
        if !isIdle {
            slots[key]?.idleSince = nil
        } else if slots[key]?.idleSince == nil {
            ticket += 1
            slots[key]?.idleSince = ticket
        }
    }

    /// `key` ended; false if it held no slot (it was evicted).
    @discardableResult
    public mutating func release(_ key: Key) -> Bool { slots.removeValue(forKey: key) != nil }

    /// The IPv4 /24 or IPv6 /64 of a numeric address as the server writes
    /// it (dotted quad; eight groups of hex).
    public static func network(of address: String) -> String {
        if address.contains(":") {
            return address.split(separator: ":", omittingEmptySubsequences: false).prefix(4).joined(separator: ":") + "::/64"
        }
        let parts = address.split(separator: ".")
        guard parts.count == 4 else { return address }
        return parts.prefix(3).joined(separator: ".") + ".0/24"
    }
}

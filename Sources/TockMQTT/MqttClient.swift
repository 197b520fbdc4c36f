import CMosquitto
import Glibc
import Logging
import TockConfig
import TockCore
import TockJSON
import TockLinux
import TockLoop
import TockHardware

/// One MQTT connection (libmosquitto) driven by the appliance's own reactor:
/// no blocking call on the loop (the MQTT 5 connect runs on a thread of its
/// own, `MqttConnectThread`, and falls back to 3.1.1 for a broker that
/// speaks only that). The socket is
/// non-blocking and watched for input, and for output only while
/// libmosquitto has something queued; keepalive pings and reconnects are
/// the reactor's deadlines. A lost or refused connection is retried with a
/// doubling backoff (1 s to 60 s), and each change of the link's state is
/// logged once.
///
/// Memory stays bounded: nothing is published while the link is down (all is
/// sent afresh on connecting), at most `MqttOutbox.maxInFlight` QoS 1 messages
/// await their acknowledgement, beyond that a retained topic keeps its latest;
/// a state value (QoS 0) goes only while nothing waits to be written, and the
/// kernel keeps at most `unsentBound` bytes unsent (`MqttOutbox`).
public final class MqttClient: MqttTransport {

    static let longestBackoff: Duration = .seconds(60)
    /// The socket's `TCP_NOTSENT_LOWAT`, tcp(7): the kernel takes no more
    /// from libmosquitto while this many bytes are unsent, so a change on a
    /// slow or stalled link waits behind at most this much, not behind
    /// minutes of seconds ticking by.
    static let unsentBound: CInt = 1024

    public private(set) var link = MqttLink.down
    /// The longest time one call into the MQTT code kept the loop busy
    /// (monotonic clock: preemption by other processes included), and the
    /// most CPU time one call took (this thread's CPU clock: the code's own
    /// cost).
    private(set) var worstStall: Duration = .zero
    private(set) var worstStallCPU: Duration = .zero
    /// Replies dropped because the broker was not taking messages.
    internal(set) var dropped = 0
    public var onConnected: (() -> Void)?
    public var onMessage: ((_ topic: String, _ payload: UnsafeRawBufferPointer, _ retained: Bool) -> Void)?
    public var onDisconnected: (() -> Void)?
    public var status: JSONObject {
        ["link": .string(link.rawValue), "worst_stall_us": (worstStall.nanoseconds / 1000).json, "worst_stall_cpu_us": (worstStallCPU.nanoseconds / 1000).json, "replies_dropped": dropped.json]
    }

    private let config: MqttConfig
    private let loop: any EventLoop
    /// A reconnect, a lookup to check or a keepalive: whichever is first.
    private var timer: LoopTimer!
    private let log: Logger
    /// Failed publishes follow outside commands: one line a minute.
    let publishFailedLog: LimitedLog
    let mosq: OpaquePointer
    private var watched: CInt = -1
    private var wantsWrite = false
    private var retryAt: Instant?
    private var backoff: Duration = .seconds(1)
    private var nextMisc: Instant?
    var outbox: MqttOutbox
    private var inCall = false
    /// MQTT 5 until a broker says it speaks only 3.1.1.
    private var protocol5 = true
    /// An MQTT 5 connect running on its thread: the handle is its until done.
    private var connectThread: MqttConnectThread?
    /// The broker's name being looked up, and when to ask again.
    private var lookup: HostLookup?
    private var lookupCheckAt: Instant?
    private var connectedAt: Instant?
    private var briefInARow = 0

    /// libmosquitto, opened at the first client (docs/mqtt.md): nil once
    /// loaded and initialised, else why it cannot be.
    private static let library: String? = load("libmosquitto.so.1")

    static func load(_ name: String) -> String? {
        var error = [CChar](repeating: 0, count: 512)
        guard tock_mosquitto_load(name, &error, error.count) == 0 else {
            return String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        _ = tock_mosquitto_lib_init()
        return nil
    }

    public init(config: MqttConfig, loop: any EventLoop, log: Logger) throws {
        if let why = Self.library {
            throw HardwareError(.io, "mqtt: cannot load libmosquitto (\(why)): install it (apt install libmosquitto1) or remove the mqtt: section")
        }
        self.config = config
        outbox = MqttOutbox(discoveryPrefix: config.discoveryPrefix)
        self.loop = loop
        self.log = log
        publishFailedLog = LimitedLog(log: log, loop: loop)
        guard let m = tock_mosquitto_new(config.clientID, true, nil) else {
            throw HardwareError(.io, "mqtt: cannot create the client (out of memory?)")
        }
        mosq = m
        tock_mosquitto_user_data_set(mosq, Unmanaged.passUnretained(self).toOpaque())
        tock_mosquitto_int_option(mosq, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V5)
        let will = Array("offline".utf8)
        try check(tock_mosquitto_will_set(mosq, "\(config.topicPrefix)/availability", CInt(will.count), will, 1, true), "the last will")
        if let user = config.username {
            try check(tock_mosquitto_username_pw_set(mosq, user, config.password), "the user name")
        }
        if let tls = config.tls {
            try check(tock_mosquitto_tls_set(mosq, tls.caFile, nil, tls.certFile, tls.keyFile, nil), "mqtt.tls")
        }
        tock_mosquitto_connect_callback_set(mosq) { _, me, rc in MqttClient.from(me).connected(rc) }
        tock_mosquitto_message_callback_set(mosq) { _, me, message in
            guard let message else { return }
            let m = message.pointee
            let payload = UnsafeRawBufferPointer(start: m.payload, count: Int(max(m.payloadlen, 0)))
            MqttClient.from(me).onMessage?(String(cString: m.topic), payload, m.retain)
        }
        tock_mosquitto_publish_callback_set(mosq) { _, me, mid in MqttClient.from(me).acknowledged(mid) }
        timer = loop.makeTimer { [weak self] in self?.expire() }
    }

    private func now() -> Instant { loop.now().monotonic }

    deinit { tock_mosquitto_destroy(mosq) }

    private static func from(_ p: UnsafeMutableRawPointer?) -> MqttClient { Unmanaged<MqttClient>.fromOpaque(p!).takeUnretainedValue() }

    private func check(_ rc: CInt, _ what: String) throws {
        guard rc == MOSQ_ERR_SUCCESS.rawValue else { throw HardwareError(.io, "mqtt: \(what): \(Self.text(rc))") }
    }

    /// The client's own next deadline: a reconnect, a lookup or a keepalive check.
    private var deadline: Instant? {
        func earlier(_ a: Instant?, _ b: Instant?) -> Instant? {
            guard let a else { return b }
            guard let b else { return a }
            return min(a, b)
        }
        return earlier(earlier(retryAt, nextMisc), lookupCheckAt)
    }

    /// Start connecting (it completes on the loop).
    public func start() { measure { connect() } }

    private func expire() {
        let t = now()
        if let r = retryAt, r <= t {
            retryAt = nil
            measure { connect() }
        }
        if let l = lookupCheckAt, l <= t {
            lookupCheckAt = nil
            measure { looked() }
        }
        if let m = nextMisc, m <= t, connectThread == nil {
            nextMisc = nil
            measure {
                let rc = tock_mosquitto_loop_misc(mosq)
                if rc != MOSQ_ERR_SUCCESS.rawValue, rc != MOSQ_ERR_NO_CONN.rawValue { lost(rc) }
            }
        }
    }

    public func subscribe(_ topic: String) {
        let rc = tock_mosquitto_subscribe(mosq, nil, topic, 1)
        if rc != MOSQ_ERR_SUCCESS.rawValue { log.error("mqtt: cannot subscribe to \(topic): \(Self.text(rc))") }
    }

    /// Say `offline` and close (a clean stop; the broker sends the will
    /// only when the connection is lost).
    public func close() {
        if link == .connected, connectThread == nil {
            publish("\(config.topicPrefix)/availability", Array("offline".utf8))
            _ = tock_mosquitto_loop_write(mosq, 1)
            tock_mosquitto_disconnect(mosq)
        }
        unwatch()
        lookup = nil
        link = .down
    }

    /// Runs MQTT work and keeps the worst time it took.
    public func measure(_ body: () -> Void) {
        if inCall { return body() }
        inCall = true
        let t0 = Self.nanoseconds(CLOCK_MONOTONIC), c0 = Self.nanoseconds(CLOCK_THREAD_CPUTIME_ID)
        body()
        sync()
        timer.schedule(at: deadline)
        inCall = false
        worstStall = max(worstStall, .nanoseconds(Self.nanoseconds(CLOCK_MONOTONIC) - t0))
        worstStallCPU = max(worstStallCPU, .nanoseconds(Self.nanoseconds(CLOCK_THREAD_CPUTIME_ID) - c0))
    }

    // MARK: - The connection

    /// Look the broker up first, without blocking: libmosquitto's own
    /// lookup (getaddrinfo) would hold the loop for as long as a slow or
    /// absent resolver takes.
    private func connect() {
        link = .connecting
        lookup = HostLookup(host: config.host)
        looked()
    }

    private func looked() {
        guard let lookup else { return }
        switch lookup.poll() {
        case .pending:
            lookupCheckAt = now() + .milliseconds(20)
        case .failed(let why):
            self.lookup = nil
            failed("cannot look up \(config.host) (\(why))")
        case .address(let ip):
            self.lookup = nil
            unwatch()  // libmosquitto closes the old socket; its number may come back
            // With TLS the name itself goes to libmosquitto, which checks the
            // certificate against it (and looks it up again: the resolver has
            // just answered). Without, the address found.
            let host = config.tls != nil ? config.host : ip
            let keepalive = Int(config.keepalive.nanoseconds / 1_000_000_000)
            do {
                connectThread = try MqttConnectThread(mosq: mosq, host: host, port: config.port, keepalive: keepalive,
                                                      maxPacket: protocol5 ? MqttConnectThread.maxPacket : nil, owner: self,
                                                      loop: loop) { [unowned self] rc, error in
                    connectThread = nil
                    measure {
                        if rc != MOSQ_ERR_SUCCESS.rawValue { failed("cannot connect to \(address) (\(Self.text(rc, errno: error)))") }
                    }
                }
            } catch {
                failed("cannot connect to \(address) (\(error))")
            }
        }
    }

    /// A broker that speaks only MQTT 3.1.1 refused the MQTT 5 connect:
    /// connect again at once with 3.1.1, where a message's size is bounded
    /// only by the broker's own limit.
    private func fallBackTo311() {
        protocol5 = false
        tock_mosquitto_int_option(mosq, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V311)
        link = .down
        unwatch()
        retryAt = now()
        report("\(address) speaks MQTT 3.1.1, not 5: connecting with 3.1.1, where the broker does not bound the size of what it sends (set max_packet_size in its configuration)",
               level: .notice)
    }

    private var address: String { "\(config.host):\(config.port)" }
    private var keepaliveText: String { "\(DurationText.format(config.keepalive)), the mqtt.keepalive" }

    private func connected(_ rc: CInt) {
        guard rc == 0 else {
            // CONNACK refusal codes: MQTT 3.1.1 section 3.2.2.3 (1-5) and
            // MQTT 5 section 3.2.2.2 (128 and up). libmosquitto reports a
            // 3.1.1 broker's refusal of protocol level 5 as 132.
            let login = [4, 5, Int32(MQTT_RC_BAD_USERNAME_OR_PASSWORD.rawValue), Int32(MQTT_RC_NOT_AUTHORIZED.rawValue)]
            if protocol5, rc == 1 || rc == MQTT_RC_UNSUPPORTED_PROTOCOL_VERSION.rawValue { return fallBackTo311() }
            let why = login.contains(rc)
                ? "\(address) refused the login (\(rc == 4 || rc == login[2] ? "bad user name or password" : "not authorised")); check mqtt.username and mqtt.password_file"
                : "\(address) refused the connection (\(String(cString: protocol5 ? tock_mosquitto_reason_string(rc) : tock_mosquitto_connack_string(rc))))"
            failed(why)
            return
        }
        link = .connected
        connectedAt = now()
        report("connected to \(address)", level: .notice)
        onConnected?()
    }

    /// The socket is ready: read what came, write what waits.
    private func ready() {
        measure {
            var rc = tock_mosquitto_loop_read(mosq, 1)
            if rc == MOSQ_ERR_SUCCESS.rawValue, tock_mosquitto_socket(mosq) >= 0 { rc = tock_mosquitto_loop_write(mosq, 1) }
            if rc != MOSQ_ERR_SUCCESS.rawValue { lost(rc) }
        }
    }

    /// A call failed or the socket went away; nothing to do when the link
    /// is already down (a refused login closes the socket after saying so).
    private func lost(_ rc: CInt) {
        switch link {
        case .connected:
            // Two boxes with one client_id (two Pis both called raspberrypi)
            // take the connection from each other: the broker closes the
            // older one as soon as the newer one logs in. Said when it
            // happens twice in a row within seconds of connecting.
            let brief = connectedAt.map { now() - $0 < .seconds(10) } ?? false
            briefInARow = brief ? briefInARow + 1 : 0
            let hint = briefInARow >= 2 ? "; it keeps closing soon after connecting: if another client uses client_id \(config.clientID), give each box its own mqtt.client_id" : ""
            failed("connection lost (\(rc == MOSQ_ERR_KEEPALIVE.rawValue ? "no answer to a keepalive ping within \(keepaliveText)" : Self.text(rc))) to \(address)\(hint)")
        case .connecting where rc == MOSQ_ERR_KEEPALIVE.rawValue:
            // The TCP connection was taken and CONNECT sent; no CONNACK came
            // within a keepalive (libmosquitto then closes the socket).
            failed("cannot connect to \(address) (it took the TCP connection but never answered the MQTT CONNECT within \(keepaliveText); check that an MQTT broker listens on this port\(config.tls == nil ? ", without TLS unless mqtt.tls is set" : ""))")
        case .connecting: failed("cannot connect to \(address) (\(Self.text(rc)))")
        case .down: break
        }
    }

    /// The link is down: say why (once per reason) and try again later.
    private func failed(_ why: String) {
        let wasConnected = link == .connected
        link = .down
        lookup = nil
        lookupCheckAt = nil
        outbox.clear()
        unwatch()
        // The backoff starts over only after a connection that lasted.
        if wasConnected, let c = connectedAt, now() - c >= Self.longestBackoff { backoff = .seconds(1) }
        let wait = backoff
        backoff = min(backoff * 2, Self.longestBackoff)
        retryAt = now() + wait
        report("\(why); retrying in \(DurationText.format(wait)) and then up to every \(DurationText.format(Self.longestBackoff))", level: .warning,
               key: why)
        if wasConnected { onDisconnected?() }
    }

    private var reportKey = ""
    private func report(_ line: String, level: Logger.Level, key: String? = nil) {
        let k = key ?? line
        guard k != reportKey else { return }
        reportKey = k
        log.log(level: level, "mqtt: \(line)")
    }

    /// Send what waited and can go; watch the socket libmosquitto has now,
    /// for output only while it has some queued, and keep the keepalive
    /// check armed while connected.
    private func sync() {
        guard connectThread == nil else { return }  // the connect thread has the handle
        // A backlog may have cleared in any call (a write, another publish).
        if link == .connected, !outbox.waiting.isEmpty { sendWaiting() }
        let fd = tock_mosquitto_socket(mosq)
        if fd != watched {
            unwatch()
            if fd >= 0 {
                do {
                    try loop.watch(fd) { [unowned self] in ready() }
                    watched = fd
                    var lowat = Self.unsentBound
                    if setsockopt(fd, CInt(IPPROTO_TCP), TCP_NOTSENT_LOWAT, &lowat, socklen_t(MemoryLayout<CInt>.size)) != 0 {
                        log.warning("mqtt: cannot bound the socket's unsent bytes (TCP_NOTSENT_LOWAT): \(String(cString: strerror(errno)))")
                    }
                } catch {
                    log.error("mqtt: cannot watch the socket: \(error)")
                }
            }
        }
        if watched >= 0 {
            let want = tock_mosquitto_want_write(mosq)
            if want != wantsWrite {
                try? loop.setWritable(watched, want)
                wantsWrite = want
            }
        }
        if watched < 0, link != .down, lookup == nil { lost(MOSQ_ERR_CONN_LOST.rawValue) }
        // libmosquitto pings after `keepalive` without traffic and gives up
        // after another without an answer; a quarter of it is close enough.
        if link == .down {
            nextMisc = nil
        } else if nextMisc == nil {
            nextMisc = now() + config.keepalive / 4
        }
    }

    private func unwatch() {
        if watched >= 0 { try? loop.unwatch(watched) }  // EBADF once libmosquitto has closed it: the handler is gone all the same
        watched = -1
        wantsWrite = false
    }

    private static func nanoseconds(_ clock: clockid_t) -> Int64 {
        var ts = timespec()
        clock_gettime(clock, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }
}

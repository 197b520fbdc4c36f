import CMosquitto
import Glibc
import TockHardware
import TockLinux
import TockLoop

/// The MQTT connect, carrying (with MQTT 5) the CONNECT property Maximum
/// Packet Size, so that the broker never sends this box a message larger
/// than it will read (libmosquitto reads a message whole before anyone
/// sees its size).
///
/// libmosquitto 2.0 sends CONNECT properties only from its blocking
/// connect (`mosquitto_connect_bind_v5`); its non-blocking one sends none.
/// So that call runs here, on a thread of its own, and its result comes
/// back to the loop through a pipe the reactor watches. While it runs the
/// thread owns the handle: the client touches it again only after `done`.
/// The thread keeps the client (and so the handle) alive until it ends.
final class MqttConnectThread {
    /// The largest MQTT packet the box accepts: a command is at most 1024
    /// bytes and a group message 16 KiB, with room for topic and header.
    static let maxPacket: UInt32 = 32 * 1024

    private let loop: any EventLoop
    private let readEnd: CInt

    /// Start the connect; `done` is called on the loop with libmosquitto's
    /// result and the errno that goes with it (the CONNACK comes later, on
    /// the socket, as usual).
    init(mosq: OpaquePointer, host: String, port: Int, keepalive: Int, maxPacket: UInt32?, owner: AnyObject, loop: any EventLoop,
         done: @escaping (_ rc: CInt, _ errno: CInt) -> Void) throws {
        var fds: [CInt] = [-1, -1]
        guard pipe(&fds) == 0 else { throw HardwareError(.io, "mqtt: cannot make a pipe (\(String(cString: strerror(errno))))") }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
        self.loop = loop
        readEnd = fds[0]
        let job = Job(mosq: mosq, host: host, port: CInt(port), keepalive: CInt(keepalive), maxPacket: maxPacket, writeEnd: fds[1],
                      owner: Unmanaged.passRetained(owner))
        do {
            try loop.watch(readEnd) { [readEnd, loop] in
                // libmosquitto's result and the thread's errno (errno is per thread).
                var result: (rc: CInt, errno: CInt) = (MOSQ_ERR_UNKNOWN.rawValue, 0)
                let n = read(readEnd, &result, MemoryLayout.size(ofValue: result))
                guard n != -1 || errno != EAGAIN else { return }
                try? loop.unwatch(readEnd)
                Glibc.close(readEnd)
                done(n == MemoryLayout.size(ofValue: result) ? result.rc : MOSQ_ERR_UNKNOWN.rawValue, result.errno)
            }
        } catch {
            Glibc.close(fds[0])
            Glibc.close(fds[1])
            job.owner.release()
            throw error
        }
        Threads.detach { job.run() }
    }

    /// What the thread needs, and nothing of the loop's.
    private final class Job: @unchecked Sendable {
        let mosq: OpaquePointer
        let host: String
        let port: CInt
        let keepalive: CInt
        let maxPacket: UInt32?
        let writeEnd: CInt
        let owner: Unmanaged<AnyObject>

        init(mosq: OpaquePointer, host: String, port: CInt, keepalive: CInt, maxPacket: UInt32?, writeEnd: CInt, owner: Unmanaged<AnyObject>) {
            self.mosq = mosq
            self.host = host
            self.port = port
            self.keepalive = keepalive
            self.maxPacket = maxPacket
            self.writeEnd = writeEnd
            self.owner = owner
        }

        func run() {
            // Without properties (MQTT 3.1.1) the same call also clears any a
            // previous MQTT 5 connect left on the handle.
            var properties: OpaquePointer?
            var rc = maxPacket.map { tock_mosquitto_property_add_int32(&properties, Int32(MQTT_PROP_MAXIMUM_PACKET_SIZE.rawValue), $0) }
                ?? MOSQ_ERR_SUCCESS.rawValue
            if rc == MOSQ_ERR_SUCCESS.rawValue {
                rc = tock_mosquitto_connect_bind_v5(mosq, host, port, keepalive, nil, properties)
            }
            var result = (rc: rc, errno: errno)
            tock_mosquitto_property_free_all(&properties)
            _ = write(writeEnd, &result, MemoryLayout.size(ofValue: result))
            Glibc.close(writeEnd)
            owner.release()
        }
    }
}

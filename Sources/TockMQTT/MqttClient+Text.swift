import CMosquitto
import Glibc

extension MqttClient {
    /// What libmosquitto's return code `rc` means, in words for the log.
    static func text(_ rc: CInt, errno: CInt = Glibc.errno) -> String {
        if rc == MOSQ_ERR_ERRNO.rawValue { return String(cString: strerror(errno)) }
        if rc == MOSQ_ERR_TLS.rawValue || rc == MOSQ_ERR_TLS_HANDSHAKE.rawValue {
            return "TLS failed: is the broker's certificate signed by mqtt.tls.ca_file, and does it name mqtt.host? "
                + "does the broker want a client certificate (mqtt.tls.cert_file, key_file)?"
        }
        // libmosquitto 2.0.11's mosquitto_strerror has no text for some of
        // its own codes (MOSQ_ERR_KEEPALIVE, MOSQ_ERR_TIMEOUT, ...): it says
        // "Unknown error.", which tells the owner nothing.
        if rc == MOSQ_ERR_KEEPALIVE.rawValue { return "no answer from the broker within mqtt.keepalive" }
        if rc == MOSQ_ERR_TIMEOUT.rawValue { return "timed out" }
        let text = String(cString: tock_mosquitto_strerror(rc))
        return text == "Unknown error." ? "libmosquitto error \(rc)" : text
    }
}

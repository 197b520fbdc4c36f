import Foundation
import TockControl
import TockJSON

extension BoxStatus {
    /// The status as a client reads it off the wire (its bytes through
    /// Foundation's reader), for tests that look its fields up by name.
    var object: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(JSON.object(json).bytes()))) as? [String: Any] ?? [:] }

    subscript(key: String) -> Any? { object[key] }
}

extension ControlReply {
    /// The reply as a client reads it off the wire, for tests that look
    /// its fields up by name (`"ok"`, `"error"`, `"state"`).
    var object: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] ?? [:] }

    subscript(key: String) -> Any? { object[key] }
}

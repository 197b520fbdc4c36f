import Foundation
import TockJSON

/// An object as a subscriber reads it off the wire (its bytes through
/// Foundation's reader), for tests that look its fields up by name.
func wire(_ o: JSONObject) -> [String: Any] {
    (try? JSONSerialization.jsonObject(with: Data(JSON.object(o).bytes()))) as? [String: Any] ?? [:]
}

/// A client_id or a group name: one MQTT topic level, safe in every
/// broker, checked wherever one is read (the configuration, a group
/// message's sender).
public enum TopicName {
    static let characters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")
    static let rule = "1 to 64 letters, digits, - or _"
    public static func isValid(_ s: String) -> Bool { (1...64).contains(s.count) && s.allSatisfy(characters.contains) }
}

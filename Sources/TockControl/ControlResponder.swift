import TockCore
import TockJSON

/// What carries out control requests for a transport (the socket, MQTT):
/// the box's command interpreter, `ControlService` in TockHost. The
/// protocol, its transports and its clients live here, below the shell, so
/// a client such as tock-web links none of the box.
public protocol ControlResponder: AnyObject {
    /// Carry out `request` and say how it went (the status, or a refusal).
    func reply(to request: ControlRequest) -> ControlReply
    /// The status, as `{"cmd":"status"}` answers it.
    func status() -> BoxStatus
    /// Where the Up/Down switch is (watchers hear when it moves).
    var switchPosition: SwitchPosition { get }
    /// Further fields a transport adds to every status (the MQTT link, the
    /// fleet group).
    func addStatusFields(_ fields: @escaping (inout BoxStatus) -> Void)
}

/// Pieces of the status every transport writes the same way.
public enum ControlStatus {
    /// The segment bits the display gets, one number per digit (bit 0 is
    /// segment a ... bit 6 g, bit 7 the point), and the colon.
    public static func segments(_ f: Frame, into s: inout JSONObject) {
        s["segments"] = .array((0..<f.digits).map { .int(Int64(f.segments(at: $0))) })
        s["colon"] = .bool(f.colon)
    }

    /// Where the Up/Down switch is (the lever's, or where a request set it).
}

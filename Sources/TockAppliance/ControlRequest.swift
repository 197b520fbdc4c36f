import Foundation

/// One request on the control socket: a JSON object on one line,
/// `{"cmd":"status"}`, `{"cmd":"set","duration":"12m30s"}`,
/// `{"cmd":"mode","mode":"stopwatch"}`, `{"cmd":"watch"}`; also `start`,
/// `stop`, `reset`. Anything else is refused with a reason; nothing a
/// client sends can disturb the timer.
public enum ControlRequest: Equatable, Sendable {
    case status, start, stop, reset, watch
    case set(Duration)
    case mode(String)

    /// Longest request line accepted, newline excluded.
    public static let maxLine = 1024
    public static let modes = ["timer", "stopwatch", "countdown", "interval"]

    public struct Invalid: Error, Equatable, CustomStringConvertible {
        public var description: String
    }

    public static func parse(_ line: [UInt8]) throws(Invalid) -> ControlRequest {
        guard line.count <= maxLine else { throw Invalid(description: "request longer than \(maxLine) bytes") }
        guard let object = try? JSONSerialization.jsonObject(with: Data(line)), let fields = object as? [String: Any] else {
            throw Invalid(description: "not a JSON object; send e.g. {\"cmd\":\"status\"}")
        }
        guard let cmd = fields["cmd"] as? String else { throw Invalid(description: "no \"cmd\" string") }
        func only(_ allowed: Set<String>) throws(Invalid) {
            if let extra = fields.keys.first(where: { !allowed.contains($0) }) {
                throw Invalid(description: "unknown field \"\(extra)\" for \(cmd)")
            }
        }
        switch cmd {
        case "status": try only(["cmd"]); return .status
        case "start": try only(["cmd"]); return .start
        case "stop": try only(["cmd"]); return .stop
        case "reset": try only(["cmd"]); return .reset
        case "watch": try only(["cmd"]); return .watch
        case "set":
            try only(["cmd", "duration"])
            guard let text = fields["duration"] as? String else { throw Invalid(description: "set needs \"duration\", e.g. \"12m30s\"") }
            do { return .set(try DurationText.parse(text)) } catch { throw Invalid(description: error.description) }
        case "mode":
            try only(["cmd", "mode"])
            guard let m = fields["mode"] as? String, modes.contains(m) else {
                throw Invalid(description: "mode needs \"mode\": one of \(modes.joined(separator: ", "))")
            }
            return .mode(m)
        default:
            throw Invalid(description: "unknown cmd \"\(cmd)\"; use status, start, stop, reset, set, mode or watch")
        }
    }

    /// The request as a line, for the client.
    public var line: String {
        switch self {
        case .status: #"{"cmd":"status"}"#
        case .start: #"{"cmd":"start"}"#
        case .stop: #"{"cmd":"stop"}"#
        case .reset: #"{"cmd":"reset"}"#
        case .watch: #"{"cmd":"watch"}"#
        case .set(let d): #"{"cmd":"set","duration":"\#(DurationText.format(d))"}"#
        case .mode(let m): #"{"cmd":"mode","mode":"\#(m)"}"#
        }
    }
}

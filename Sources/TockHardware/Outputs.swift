import TockCore
/// A digital output line in domain terms: `true` is active (LED lit,
/// buzzer sounding), polarity already applied by the backend.
public protocol DigitalOutput: AnyObject {
    func set(_ active: Bool) throws
}

/// A 7-segment display: shows a frame.
public protocol SegmentDisplay: AnyObject {
    func show(_ frame: Frame) throws
}

/// Something that can sound a tone or be silent (active or passive buzzer).
public protocol Sounder: AnyObject {
    func sound(_ tone: Tone?) throws
}

/// An active buzzer: an on/off line; it has one pitch of its own.
public final class ActiveBuzzer: Sounder {
    public let line: any DigitalOutput
    public init(line: any DigitalOutput) { self.line = line }
    public func sound(_ tone: Tone?) throws { try line.set(tone != nil) }
}

/// The shared error kind for hardware, with what a person should do.
public struct HardwareError: Error, Equatable, CustomStringConvertible {
    public enum Kind: String, Equatable, Sendable {
        case notFound, busy, permission, noAcknowledge, bus, unsupported, io
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}

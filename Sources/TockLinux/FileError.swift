import SystemPackage

/// A file Tock cannot use, naming the path: the kernel's refusal, or a
/// kind of file Tock does not read or write there (a FIFO where the state
/// file belongs, a directory given as a trace).
public struct FileError: Error, Equatable, CustomStringConvertible {
    public enum Reason: Equatable, Sendable {
        case system(Errno)
        /// The path is this kind of file, which is not accepted there.
        case kind(FileKind)
    }

    public var path: String
    public var reason: Reason
    /// What is accepted, said after a refused kind ("a regular file").
    public var accepted: String

    public init(_ path: String, _ reason: Reason, accepted: String = FileKind.regular.description) {
        self.path = path
        self.reason = reason
        self.accepted = accepted
    }

    public var description: String {
        switch reason {
        case .system(let e): "\(path): \(e)"
        case .kind(let k): "\(path) is \(k), not \(accepted)"
        }
    }

    public var errno: Errno? { if case .system(let e) = reason { e } else { nil } }
}

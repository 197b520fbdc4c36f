import Foundation

/// A state file's path in a new directory of its own under the system's
/// temporary one, named `tock-<what>-<uuid>` (the file is not created).
public func temporaryStateFile(_ what: String) throws -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tock-\(what)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir.appendingPathComponent("state.json").path
}

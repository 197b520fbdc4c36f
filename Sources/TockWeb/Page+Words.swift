import TockControl
import TockCore

extension Page {
    /// The words of the status the script compares with, made from the
    /// core's enums: `STATE.running`, `POSITION.up`, `MODE.timer`,
    /// `UPDATE.current` (a case renamed or gone leaves a name the page's
    /// test finds undefined; the script writes no state word itself).
    static let wordsJS = [
        ("STATE", StateName.allCases.map(\.rawValue)),
        ("POSITION", SwitchPosition.allCases.map(\.rawValue)),
        ("MODE", Settings.Mode.allCases.map(\.rawValue)),
        ("UPDATE", UpdateCheck.Result.allCases.map(\.rawValue)),
    ].map { name, words in
        "const \(name) = Object.freeze({\(words.map { "\($0): \"\($0)\"" }.joined(separator: ", "))});"
    }.joined(separator: "\n")
}

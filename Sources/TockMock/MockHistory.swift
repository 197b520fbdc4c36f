/// How much of what it records a mock part keeps: everything (a test
/// reads the whole run), or the latest entries only, for the appliance
/// on the mock backend (`tock run` on a PC, `tock sim`), which runs for
/// days: a stopwatch draws 100 frames a second, 8.6 million a day.
public enum MockHistory: Equatable, Sendable {
    case all
    /// At least the latest `n` entries: a record is trimmed back to `n`
    /// when it reaches twice that (one move per `n` entries).
    case latest(Int)
    /// Nothing: a record no one reads (the buzzer's tones in the service
    /// on the mock backend, `Devices.mock`); what a part shows or sounds
    /// now is still kept.
    case nothing

    /// What the appliance on the mock backend keeps of each record.
    public static let service = MockHistory.latest(4096)
}

extension Array {
    /// Append `element`, then trim the oldest as `keeping` says.
    mutating func record(_ element: @autoclosure () -> Element, keeping: MockHistory) {
        if case .nothing = keeping { return }
        append(element())
        if case .latest(let n) = keeping, count >= 2 * Swift.max(1, n) { removeFirst(count - Swift.max(1, n)) }
    }
}

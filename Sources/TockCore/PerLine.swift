/// A value for each of a board's input lines, kept at the line's place
/// (`InputLine.index`): the four lines a box has need no hashing, and the
/// first use of a dictionary keyed by line cost the runtime a scan of the
/// binary's conformance records at start-up (a quarter of a million
/// instructions, `make bench-startup`). Written and read as a dictionary.
public struct PerLine<Value> {
    private var values: [Value?] = Array(repeating: nil, count: InputLine.all.count)

    public init() {}

    public subscript(line: InputLine) -> Value? {
        get { values[line.index] }
        set { values[line.index] = newValue }
    }

    /// The lines that have a value, in `InputLine.all`'s order.
    public var lines: [InputLine] { InputLine.all.filter { values[$0.index] != nil } }

    public func mapValues<T>(_ transform: (Value) throws -> T) rethrows -> PerLine<T> {
        var out = PerLine<T>()
        for line in InputLine.all { if let v = values[line.index] { out[line] = try transform(v) } }
        return out
    }
}

extension PerLine: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (InputLine, Value)...) {
        for (line, value) in elements { self[line] = value }
    }
}

extension PerLine: Equatable where Value: Equatable {}
extension PerLine: Sendable where Value: Sendable {}

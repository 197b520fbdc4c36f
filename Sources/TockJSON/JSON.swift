/// One JSON value, as every edge of the box writes and reads it: the state
/// file, a fleet group's message, the control socket, MQTT and Home
/// Assistant's discovery, the page's API and the command line. Numbers keep
/// their kind: a whole number written as one (`12`) is an exact `.int`, any
/// other (`0.5`, `1e3`) a `.double`. An object keeps its keys in the order
/// they were given or read; the writer orders them (`JSON.Style`).
///
/// One writer (`bytes(_:)`, JSONWriter.swift) and one reader
/// (`JSON.parse`, JSONReader.swift), neither with Foundation.
public indirect enum JSON: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSON])
    case object(JSONObject)

    public var string: String? { if case .string(let s) = self { s } else { nil } }
    public var bool: Bool? { if case .bool(let b) = self { b } else { nil } }
    /// A whole number written as one (`3`, not `3.0` or `true`) that fits an `Int`.
    public var int: Int? { if case .int(let n) = self { Int(exactly: n) } else { nil } }
    public var int64: Int64? { if case .int(let n) = self { n } else { nil } }
    /// Any number, as a `Double`.
    public var double: Double? {
        switch self {
        case .int(let n): Double(n)
        case .double(let d): d
        default: nil
        }
    }
    public var array: [JSON]? { if case .array(let a) = self { a } else { nil } }
    public var object: JSONObject? { if case .object(let o) = self { o } else { nil } }
    public var isNull: Bool { self == .null }

    /// A field of an object; nil when this is no object or has no such key.
    public subscript(key: String) -> JSON? { object?[key] }

    /// The value's name in an error message: `a string`, `an object`.
    public var kind: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .int, .double: "a number"
        case .string: "a string"
        case .array: "a list"
        case .object: "an object"
        }
    }
}

/// A JSON object: its fields in order, each key once. Two objects are equal
/// when they hold the same fields, in whatever order.
public struct JSONObject: Sendable, Equatable, Sequence {
    public typealias Field = (key: String, value: JSON)
    public private(set) var fields: [Field] = []

    public init() {}

    /// Fields in this order; a key given again replaces the earlier value.
    public init(_ fields: [Field]) {
        for f in fields { self[f.key] = f.value }
    }

    public var count: Int { fields.count }
    public var isEmpty: Bool { fields.isEmpty }
    public var keys: [String] { fields.map(\.key) }
    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    /// The value of `key`; setting nil removes the field, setting a value
    /// replaces it where it stands or adds it at the end.
    public subscript(key: String) -> JSON? {
        get { fields.first(where: { $0.key == key })?.value }
        set {
            let at = fields.firstIndex(where: { $0.key == key })
            switch (at, newValue) {
            case (let at?, let v?): fields[at].value = v
            case (let at?, nil): fields.remove(at: at)
            case (nil, let v?): fields.append((key, v))
            case (nil, nil): break
            }
        }
    }

    /// A field when the value is there (`nil` leaves it out).
    public mutating func set(_ key: String, _ value: (some JSONRepresentable)?) {
        self[key] = value?.json
    }

    /// Appends without looking for the key (the reader has checked it).
    mutating func append(_ key: String, _ value: JSON) { fields.append((key, value)) }

    public static func == (a: JSONObject, b: JSONObject) -> Bool {
        guard a.count == b.count else { return false }
        return a.fields.allSatisfy { f in b[f.key] == f.value }
    }
}

/// A Swift value that has one JSON form.
public protocol JSONRepresentable {
    var json: JSON { get }
}

extension JSON: JSONRepresentable { public var json: JSON { self } }
extension JSONObject: JSONRepresentable { public var json: JSON { .object(self) } }
extension Bool: JSONRepresentable { public var json: JSON { .bool(self) } }
extension String: JSONRepresentable { public var json: JSON { .string(self) } }
extension Substring: JSONRepresentable { public var json: JSON { .string(String(self)) } }
extension Int: JSONRepresentable { public var json: JSON { .int(Int64(self)) } }
extension Int64: JSONRepresentable { public var json: JSON { .int(self) } }
extension Int32: JSONRepresentable { public var json: JSON { .int(Int64(self)) } }
extension UInt8: JSONRepresentable { public var json: JSON { .int(Int64(self)) } }
extension Double: JSONRepresentable { public var json: JSON { .double(self) } }
extension Array: JSONRepresentable where Element: JSONRepresentable {
    public var json: JSON { .array(map(\.json)) }
}

extension JSON: ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSON...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSON)...) { self = .object(JSONObject(elements.map { (key: $0.0, value: $0.1) })) }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, JSON)...) { self.init(elements.map { (key: $0.0, value: $0.1) }) }
}

/// `"\(a)/\(b)"` as a JSON string.
extension JSON: ExpressibleByStringInterpolation {}

extension JSONObject {
    /// These fields, then those of `other` whose keys are not here.
    public func adding(_ other: JSONObject) -> JSONObject {
        var o = self
        for f in other where o[f.key] == nil { o.append(f.key, f.value) }
        return o
    }
}

extension JSON {
    /// An object of these fields in this order, those whose value is nil
    /// left out (a record's optional fields).
    public static func fields(_ fields: [(String, JSON?)]) -> JSON {
        .object(JSONObject(fields.compactMap { key, value -> JSONObject.Field? in value.map { (key: key, value: $0) } }))
    }

    public static func ints(_ v: [Int64]) -> JSON { .array(v.map { .int($0) }) }
    public static func strings(_ v: [String]) -> JSON { .array(v.map { .string($0) }) }
}

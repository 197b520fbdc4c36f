/// `Decodable` types read from a `JSON` value, for records whose shape is
/// declared field by field (the state file, a fleet group's message): the
/// reader's limits hold first, then the type's own checks. Every failure is
/// a `DecodingError` naming the path (`count.phase`) and what is wrong; a
/// text that is no JSON at all is `dataCorrupted` with the reader's error
/// (the byte it found it at) beneath.
///
/// Numbers are read as written: an integer field takes a whole number
/// written as one (`3`, not `3.0`) that fits its type; a floating-point
/// field takes any number.
extension JSON {
    public static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8], limits: Limits = Limits()) throws -> T {
        let value: JSON
        do { value = try parse(bytes, limits: limits) } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: error.description, underlyingError: error))
        }
        return try decode(type, from: value)
    }

    public static func decode<T: Decodable>(_ type: T.Type, from value: JSON) throws -> T {
        try T(from: ValueDecoder(value: value, codingPath: []))
    }
}

private struct ValueDecoder: Decoder {
    let value: JSON
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard let o = value.object else { throw mismatch([String: JSON].self, value, codingPath) }
        return KeyedDecodingContainer(Keyed<Key>(object: o, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard let a = value.array else { throw mismatch([JSON].self, value, codingPath) }
        return Unkeyed(items: a, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { Single(value: value, codingPath: codingPath) }
}

private func mismatch(_ type: Any.Type, _ value: JSON, _ path: [any CodingKey]) -> DecodingError {
    if value.isNull { return .valueNotFound(type, .init(codingPath: path, debugDescription: "null where a value is expected")) }
    return .typeMismatch(type, .init(codingPath: path, debugDescription: "\(value.kind) where \(expected(type)) is expected"))
}

private func expected(_ type: Any.Type) -> String {
    switch type {
    case is String.Type: "a string"
    case is Bool.Type: "true or false"
    case is [JSON].Type: "a list"
    case is [String: JSON].Type: "an object"
    case is any FixedWidthInteger.Type: "a whole number"
    default: "a number"
    }
}

/// A primitive out of a value, or why not.
private func primitive<T>(_ type: T.Type, _ value: JSON, _ path: [any CodingKey]) throws -> T {
    switch (type, value) {
    case (is Bool.Type, .bool(let b)): return b as! T
    case (is String.Type, .string(let s)): return s as! T
    case (is Double.Type, _) where value.double != nil: return value.double! as! T
    case (is Float.Type, _) where value.double != nil: return Float(value.double!) as! T
    default: break
    }
    guard let integer = type as? any FixedWidthInteger.Type else { throw mismatch(type, value, path) }
    guard case .int(let n) = value else { throw mismatch(type, value, path) }
    guard let fits = integer.init(exactly: n) else {
        throw DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: "\(n) does not fit \(type)"))
    }
    return fits as! T
}

private func isPrimitive(_ type: Any.Type) -> Bool {
    type is Bool.Type || type is String.Type || type is Double.Type || type is Float.Type || type is any FixedWidthInteger.Type
}

private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue }
    init(intValue: Int) { (stringValue, self.intValue) = ("\(intValue)", intValue) }
}

private struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let object: JSONObject
    let codingPath: [any CodingKey]

    var allKeys: [Key] { object.keys.compactMap(Key.init(stringValue:)) }
    func contains(_ key: Key) -> Bool { object[key.stringValue] != nil }

    func value(_ key: Key) throws -> JSON {
        guard let v = object[key.stringValue] else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "no \"\(key.stringValue)\""))
        }
        return v
    }

    func decodeNil(forKey key: Key) throws -> Bool { try value(key).isNull }
    func decode(_ t: Bool.Type, forKey key: Key) throws -> Bool { try primitive(t, value(key), codingPath + [key]) }
    func decode(_ t: String.Type, forKey key: Key) throws -> String { try primitive(t, value(key), codingPath + [key]) }
    func decode(_ t: Double.Type, forKey key: Key) throws -> Double { try primitive(t, value(key), codingPath + [key]) }
    func decode(_ t: Float.Type, forKey key: Key) throws -> Float { try primitive(t, value(key), codingPath + [key]) }
    func decode(_ t: Int.Type, forKey key: Key) throws -> Int { try primitive(t, value(key), codingPath + [key]) }
    func decode(_ t: Int8.Type, forKey key: Key) throws -> Int8 { try primitive(t, value(key), codingPath + [key]) }
    func decode(_ t: Int16.Type, forKey key: Key) throws -> Int16 { try primitive(t, value(key), codingPath + [key]) }
    func decode(_ t: Int32.Type, forKey key: Key) throws -> Int32 { try primitive(t, value(key), codingPath + [key]) }
    func decode(_ t: Int64.Type, forKey key: Key) throws -> Int64 { try primitive(t, value(key), codingPath + [key]) }
    func decode(_ t: UInt.Type, forKey key: Key) throws -> UInt { try primitive(t, value(key), codingPath + [key]) }
    func decode(_ t: UInt8.Type, forKey key: Key) throws -> UInt8 { try primitive(t, value(key), codingPath + [key]) }
    func decode(_ t: UInt16.Type, forKey key: Key) throws -> UInt16 { try primitive(t, value(key), codingPath + [key]) }
    func decode(_ t: UInt32.Type, forKey key: Key) throws -> UInt32 { try primitive(t, value(key), codingPath + [key]) }
    func decode(_ t: UInt64.Type, forKey key: Key) throws -> UInt64 { try primitive(t, value(key), codingPath + [key]) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let v = try value(key)
        if isPrimitive(type) { return try primitive(type, v, codingPath + [key]) }
        return try T(from: ValueDecoder(value: v, codingPath: codingPath + [key]))
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try ValueDecoder(value: value(key), codingPath: codingPath + [key]).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try ValueDecoder(value: value(key), codingPath: codingPath + [key]).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { ValueDecoder(value: object[AnyKey(stringValue: "super").stringValue] ?? .null, codingPath: codingPath) }
    func superDecoder(forKey key: Key) throws -> any Decoder { ValueDecoder(value: try value(key), codingPath: codingPath + [key]) }
}

private struct Unkeyed: UnkeyedDecodingContainer {
    let items: [JSON]
    let codingPath: [any CodingKey]
    var currentIndex = 0

    init(items: [JSON], codingPath: [any CodingKey]) { (self.items, self.codingPath) = (items, codingPath) }

    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    mutating func next(_ type: Any.Type) throws -> (JSON, [any CodingKey]) {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, .init(codingPath: codingPath, debugDescription: "the list ends after \(items.count) items"))
        }
        defer { currentIndex += 1 }
        return (items[currentIndex], codingPath + [AnyKey(intValue: currentIndex)])
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, items[currentIndex].isNull else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ t: Bool.Type) throws -> Bool { let (v, p) = try next(t); return try primitive(t, v, p) }
    mutating func decode(_ t: String.Type) throws -> String { let (v, p) = try next(t); return try primitive(t, v, p) }
    mutating func decode(_ t: Double.Type) throws -> Double { let (v, p) = try next(t); return try primitive(t, v, p) }
    mutating func decode(_ t: Float.Type) throws -> Float { let (v, p) = try next(t); return try primitive(t, v, p) }
    mutating func decode(_ t: Int.Type) throws -> Int { let (v, p) = try next(t); return try primitive(t, v, p) }
    mutating func decode(_ t: Int8.Type) throws -> Int8 { let (v, p) = try next(t); return try primitive(t, v, p) }
    mutating func decode(_ t: Int16.Type) throws -> Int16 { let (v, p) = try next(t); return try primitive(t, v, p) }
    mutating func decode(_ t: Int32.Type) throws -> Int32 { let (v, p) = try next(t); return try primitive(t, v, p) }
    mutating func decode(_ t: Int64.Type) throws -> Int64 { let (v, p) = try next(t); return try primitive(t, v, p) }
    mutating func decode(_ t: UInt.Type) throws -> UInt { let (v, p) = try next(t); return try primitive(t, v, p) }
    mutating func decode(_ t: UInt8.Type) throws -> UInt8 { let (v, p) = try next(t); return try primitive(t, v, p) }
    mutating func decode(_ t: UInt16.Type) throws -> UInt16 { let (v, p) = try next(t); return try primitive(t, v, p) }
    mutating func decode(_ t: UInt32.Type) throws -> UInt32 { let (v, p) = try next(t); return try primitive(t, v, p) }
    mutating func decode(_ t: UInt64.Type) throws -> UInt64 { let (v, p) = try next(t); return try primitive(t, v, p) }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (v, path) = try next(type)
        if isPrimitive(type) { return try primitive(type, v, path) }
        return try T(from: ValueDecoder(value: v, codingPath: path))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let (v, path) = try next([String: JSON].self)
        return try ValueDecoder(value: v, codingPath: path).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (v, path) = try next([JSON].self)
        return try ValueDecoder(value: v, codingPath: path).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let (v, path) = try next(JSON.self)
        return ValueDecoder(value: v, codingPath: path)
    }
}

private struct Single: SingleValueDecodingContainer {
    let value: JSON
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool { value.isNull }
    func decode(_ t: Bool.Type) throws -> Bool { try primitive(t, value, codingPath) }
    func decode(_ t: String.Type) throws -> String { try primitive(t, value, codingPath) }
    func decode(_ t: Double.Type) throws -> Double { try primitive(t, value, codingPath) }
    func decode(_ t: Float.Type) throws -> Float { try primitive(t, value, codingPath) }
    func decode(_ t: Int.Type) throws -> Int { try primitive(t, value, codingPath) }
    func decode(_ t: Int8.Type) throws -> Int8 { try primitive(t, value, codingPath) }
    func decode(_ t: Int16.Type) throws -> Int16 { try primitive(t, value, codingPath) }
    func decode(_ t: Int32.Type) throws -> Int32 { try primitive(t, value, codingPath) }
    func decode(_ t: Int64.Type) throws -> Int64 { try primitive(t, value, codingPath) }
    func decode(_ t: UInt.Type) throws -> UInt { try primitive(t, value, codingPath) }
    func decode(_ t: UInt8.Type) throws -> UInt8 { try primitive(t, value, codingPath) }
    func decode(_ t: UInt16.Type) throws -> UInt16 { try primitive(t, value, codingPath) }
    func decode(_ t: UInt32.Type) throws -> UInt32 { try primitive(t, value, codingPath) }
    func decode(_ t: UInt64.Type) throws -> UInt64 { try primitive(t, value, codingPath) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if isPrimitive(type) { return try primitive(type, value, codingPath) }
        return try T(from: ValueDecoder(value: value, codingPath: codingPath))
    }
}

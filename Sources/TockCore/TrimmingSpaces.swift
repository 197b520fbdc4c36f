extension StringProtocol {
    /// The text without the white space (spaces, tabs, line ends) at
    /// either end.
    public var trimmingSpaces: String {
        var s = self[...]
        while s.first?.isWhitespace == true { s = s.dropFirst() }
        while s.last?.isWhitespace == true { s = s.dropLast() }
        return String(s)
    }
}

extension Array where Element == String {
    /// The strings with `separator` between them, as `joined(separator:)`
    /// gives, by a loop: the generic `joined` resolves its associated
    /// types at run time on its first call, 0.2 M instructions, which the
    /// service's start-up paid for its first log line and its READY=1.
    public func joinedText(separator: String) -> String {
        var text = ""
        for (i, s) in enumerated() {
            if i > 0 { text += separator }
            text += s
        }
        return text
    }
}

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

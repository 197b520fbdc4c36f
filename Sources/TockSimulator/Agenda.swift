/// Events known in advance (a script's edges, its clock steps), taken in
/// time order: sorted once, then read from the front by a cursor, so each
/// step costs the same however long the script is. (Removing the first
/// element of an array moves all the others: a script of n lines then
/// costs n² / 2 moves.)
public struct Agenda<Element> {
    private var items: [Element]
    private var next = 0
    /// Elements looked at or moved by `removeFirst`: a count of the work,
    /// for the tests that check it grows linearly with the script.
    public private(set) var work = 0

    /// `items` in the order `areInIncreasingOrder` gives; the caller breaks
    /// ties (a sequence number), as `sort` is not guaranteed stable.
    public init(_ items: [Element], by areInIncreasingOrder: (Element, Element) -> Bool) {
        self.items = items.sorted(by: areInIncreasingOrder)
    }

    public var first: Element? { next < items.count ? items[next] : nil }

    var count: Int { items.count - next }

    /// The first element, taken off the agenda. There must be one.
    public mutating func removeFirst() -> Element {
        precondition(next < items.count, "Agenda.removeFirst on an empty agenda")
        defer { next += 1 }
        work += 1
        return items[next]
    }
}

/// Where the box can be reached: its IPv4 addresses (loopback and
/// link-local left out by whoever reads them from the kernel) and its
/// `.local` name, as the network watcher last saw them.
public struct NetworkIdentity: Equatable, Sendable {
    /// Dotted quads, in the kernel's order (interface index, then address).
    public var addresses: [String]
    /// The name mDNS announces, `tock.local` by default.
    public var name: String

    public init(addresses: [String], name: String) {
        self.addresses = addresses
        self.name = name
    }

    /// At most this many addresses scroll (a box has one or two: wired
    /// and Wi-Fi); the rest are in `tock status`.
    public static let shownAddresses = 3

    /// The line that scrolls: each address, then the name, two blanks
    /// apart; `no Addr` before the name when there is no address.
    public var line: String {
        let shown = addresses.prefix(Self.shownAddresses)
        return ((shown.isEmpty ? ["no Addr"] : Array(shown)) + (name.isEmpty ? [] : [name])).joined(separator: "  ")
    }
}

/// The address scrolling across the display (docs/display.md, "The
/// address on the display"): the line enters from the right, one cell a
/// `step`, and leaves on the left; then the display is the timer's again.
///
/// A scroll asked for while the box is busy waits (`start` nil) and begins
/// when the box is next at rest (`Machine.scrollMayShow`).
public struct AddressScroll: Equatable, Sendable {
    /// The line in display cells: a glyph, with `.` when its point is lit.
    public let cells: [String]
    /// The line as it was asked for, before the font (for the log).
    public let line: String
    /// When it began to move; nil while it waits for the box to be at rest.
    public internal(set) var start: Instant?

    /// One cell every 300 ms: a 15-character address and `tock.local` take
    /// about 8 s on four digits, slow enough to read each group of digits.
    public static let step: Duration = .milliseconds(300)

    public init(_ identity: NetworkIdentity) {
        line = identity.line
        cells = Self.cells(line)
    }

    /// The line in display cells: a `.` lights the point of the cell
    /// before it (`192.168.1.20` takes 9 cells), a letter the font lacks
    /// is drawn as its nearest glyph (`NamedProgram.label`'s table, then
    /// `standIns`), anything else as `_`.
    static func cells(_ line: String) -> [String] {
        var out: [String] = []
        for ch in line {
            if ch == ".", let last = out.last, !last.hasSuffix(".") {
                out[out.count - 1] = last + "."
                continue
            }
            if ch == "." { out.append(" ."); continue }
            out.append(String(glyph(ch)))
        }
        return out
    }

    /// Letters with neither a glyph nor a near one in the program names'
    /// table, drawn by the one that looks most like them.
    static let standIns: [Character: Character] = ["k": "H", "K": "H", "m": "n", "M": "n", "w": "U", "W": "U",
                                                   "x": "H", "X": "H", "q": "9", "Q": "9", "z": "2", "Z": "2"]

    static func glyph(_ ch: Character) -> Character {
        if let near = NamedProgram.label(String(ch)), let g = near.first { return g }
        return standIns[ch] ?? "_"
    }

    /// Steps from the line's first cell entering on the right to its last
    /// alone on the left; the step after it is the timer's display again.
    func steps(digits: Int) -> Int { cells.count + digits - 1 }

    /// When the last cell has left (nil while it waits).
    func end(digits: Int) -> Instant? { start.map { $0 + Self.step * steps(digits: digits) } }

    /// The display's text at `t`, in display notation (nil before the
    /// start and from the end).
    func window(at t: Instant, digits: Int) -> String? {
        guard let start, t >= start else { return nil }
        let k = Int((t - start).nanoseconds / Self.step.nanoseconds)
        guard k < steps(digits: digits) else { return nil }
        // Step k shows cells k-digits+1 ... k (the ones before the line, blank).
        var text = ""
        for i in (k - digits + 1)...k {
            text += (0..<cells.count).contains(i) ? cells[i] : " "
        }
        return text
    }

    /// The next step after `t` (nil while it waits and after the end).
    func nextStep(after t: Instant, digits: Int) -> Instant? {
        guard let start, let end = end(digits: digits), t < end else { return nil }
        guard t >= start else { return start }
        let k = (t - start).nanoseconds / Self.step.nanoseconds
        return start + .nanoseconds((k + 1) * Self.step.nanoseconds)
    }
}

import TockCore

/// Pairing by presence, as rules on given time: a browser asks, the box
/// shows a code for `codeLifetime`, whoever types it gets a token. Codes
/// are four digits; a code takes at most `triesPerCode` wrong guesses and
/// is then void, and after `triesPerCode` wrong guesses in a row asking
/// for a new code waits `lockout`, doubling with each round up to
/// `maxLockout`. A guesser gets at most `triesPerCode` tries per
/// `lockout` instead of 10,000 codes' worth, and whoever stands at the box
/// sees each new code appear.
public struct Pairing: Sendable {
    public static let codeLifetime: Duration = .seconds(60)
    public static let triesPerCode = 5
    public static let lockout: Duration = .seconds(30)
    public static let maxLockout: Duration = .seconds(15 * 60)

    public enum Outcome: Equatable, Sendable {
        case paired
        /// Wrong; this many tries left on this code.
        case wrong(left: Int)
        /// No code is shown (none asked for, or it ran out).
        case noCode
        /// Too many wrong guesses: nothing is accepted before `until`.
        case locked(until: Instant)
    }

    public private(set) var code: String?
    public private(set) var expires: Instant?
    private var tries = 0
    /// Rounds of wrong guesses in a row (the lockout doubles with each).
    private var rounds = 0
    public private(set) var lockedUntil: Instant?

    public init() {}

    /// A browser asks to pair: the code to show, or the lockout's end.
    public mutating func begin(code: String, at now: Instant) -> Result<String, Locked> {
        if let l = lockedUntil, now < l { return .failure(Locked(until: l)) }
        self.code = code
        expires = now + Self.codeLifetime
        tries = 0
        return .success(code)
    }

    public struct Locked: Error, Equatable {
        public var until: Instant
    }

    /// A code typed at `now`.
    public mutating func attempt(_ typed: String, at now: Instant) -> Outcome {
        if let l = lockedUntil, now < l { return .locked(until: l) }
        guard let code, let expires, now < expires else {
            self.code = nil
            return .noCode
        }
        if Self.same(typed, code) {
            self.code = nil
            self.expires = nil
            rounds = 0
            return .paired
        }
        tries += 1
        if tries >= Self.triesPerCode {
            self.code = nil
            self.expires = nil
            rounds += 1
            var wait = Self.lockout
            for _ in 1..<rounds where wait < Self.maxLockout { wait = wait + wait }
            let until = now + min(wait, Self.maxLockout)
            lockedUntil = until
            return .locked(until: until)
        }
        return .wrong(left: Self.triesPerCode - tries)
    }

    /// Whether the shown code should come down (it ran out or was used).
    public func showing(at now: Instant) -> Bool {
        guard code != nil, let expires else { return false }
        return now < expires
    }

    /// Compared without stopping at the first difference.
    static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var diff: UInt8 = 0
        for i in x.indices { diff |= x[i] ^ y[i] }
        return diff == 0
    }

    /// A new code: four decimal digits from the system's generator.
    public static func newCode() -> String {
        var g = SystemRandomNumberGenerator()
        let n = Int.random(in: 0..<10_000, using: &g)
        let s = String(n)
        return String(repeating: "0", count: 4 - s.count) + s
    }
}

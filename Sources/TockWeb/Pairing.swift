import TockCore

/// Pairing by presence, as rules on given time: a browser asks, the box
/// shows a code for `codeLifetime`, whoever types it gets a token.
///
/// The guard is one counter for the whole box, not one per code or per
/// client: `wrongInARow` wrong guesses in a row, whatever code they were
/// aimed at, lock pairing for `lockout`, doubling with each round up to
/// `maxLockout`; only a right code clears it, so asking for a new code
/// after every few guesses gains nothing. Asking for codes is limited too:
/// `codesPerWindow` codes per `codeWindow`, none while locked. The counter
/// is `Pairing.Guard`, kept in a file across restarts (`PairingFile`).
///
/// Over 10 minutes a guesser gets 15 guesses (5 on each of 3 codes, at 0,
/// 30 and 90 s), odds of 0.15 % against 10,000 codes; later at most 5
/// per lockout, which grows to 15 minutes.
public struct Pairing: Sendable {
    public static let codeLifetime: Duration = .seconds(60)
    public static let wrongInARow = 5
    public static let lockout: Duration = .seconds(30)
    public static let maxLockout: Duration = .seconds(15 * 60)
    public static let codesPerWindow = 3
    public static let codeWindow: Duration = .seconds(10 * 60)

    /// What must outlive the process: the wrong guesses in a row, the
    /// rounds of lockout, its end, and when the last codes were asked.
    public struct Guard: Equatable, Sendable {
        public var wrong = 0
        public var rounds = 0
        public var lockedUntil: Instant?
        public var codesAsked: [Instant] = []

        public init(wrong: Int = 0, rounds: Int = 0, lockedUntil: Instant? = nil, codesAsked: [Instant] = []) {
            self.wrong = wrong
            self.rounds = rounds
            self.lockedUntil = lockedUntil
            self.codesAsked = codesAsked
        }
    }

    public enum Outcome: Equatable, Sendable {
        case paired
        /// Wrong; this many wrong guesses left before a lockout.
        case wrong(left: Int)
        /// No code is shown (none asked for, or it ran out).
        case noCode
        /// Too many wrong guesses: nothing is accepted before `until`.
        case locked(until: Instant)
    }

    public enum Refusal: Error, Equatable, Sendable {
        /// Too many wrong guesses: no code before `until`.
        case locked(until: Instant)
        /// `codesPerWindow` codes asked within `codeWindow`: the next one at `until`.
        case tooManyCodes(until: Instant)
    }

    public private(set) var code: String?
    public private(set) var expires: Instant?
    public private(set) var guarded: Guard

    public init(guarded: Guard = Guard()) {
        self.guarded = guarded
    }

    /// A guard read back at `now` (after a restart): a lockout whose end
    /// lies further ahead than `maxLockout` (the clock was set back) is
    /// cut to `maxLockout`, and so are codes asked "in the future".
    public static func restored(_ g: Guard, at now: Instant) -> Guard {
        var g = g
        if let l = g.lockedUntil, l > now + maxLockout { g.lockedUntil = now + maxLockout }
        g.codesAsked = Array(g.codesAsked.map { min($0, now) }.suffix(codesPerWindow))
        return g
    }

    public var lockedUntil: Instant? { guarded.lockedUntil }

    /// A browser asks to pair: the code to show, or why not.
    public mutating func begin(code: String, at now: Instant) -> Result<String, Refusal> {
        if let l = guarded.lockedUntil, now < l { return .failure(.locked(until: l)) }
        guarded.codesAsked.removeAll { now - $0 >= Self.codeWindow }
        if guarded.codesAsked.count >= Self.codesPerWindow, let first = guarded.codesAsked.first {
            return .failure(.tooManyCodes(until: first + Self.codeWindow))
        }
        guarded.codesAsked.append(now)
        self.code = code
        expires = now + Self.codeLifetime
        return .success(code)
    }

    /// The code asked for at `at` could not be shown (the box did not
    /// answer): it is withdrawn and does not count against the limit.
    public mutating func withdraw(codeAskedAt at: Instant) {
        if expires == at + Self.codeLifetime {
            code = nil
            expires = nil
        }
        if let i = guarded.codesAsked.lastIndex(of: at) { guarded.codesAsked.remove(at: i) }
    }

    /// A code typed at `now`.
    public mutating func attempt(_ typed: String, at now: Instant) -> Outcome {
        if let l = guarded.lockedUntil, now < l { return .locked(until: l) }
        guard let code, let expires, now < expires else {
            self.code = nil
            return .noCode
        }
        if Self.same(typed, code) {
            self.code = nil
            self.expires = nil
            guarded.wrong = 0
            guarded.rounds = 0
            guarded.lockedUntil = nil
            return .paired
        }
        guarded.wrong += 1
        guard guarded.wrong >= Self.wrongInARow else { return .wrong(left: Self.wrongInARow - guarded.wrong) }
        self.code = nil
        self.expires = nil
        guarded.wrong = 0
        guarded.rounds += 1
        var wait = Self.lockout
        for _ in 1..<guarded.rounds where wait < Self.maxLockout { wait = wait + wait }
        let until = now + min(wait, Self.maxLockout)
        guarded.lockedUntil = until
        return .locked(until: until)
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

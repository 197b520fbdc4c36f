import TockCore

/// Pairing by presence, as rules on given time: a browser asks, the box
/// shows `HoLd` for `promptLifetime`, someone at the box holds Start and
/// the code appears for `codeLifetime`; whoever types it gets a token.
///
/// A code counts for nothing until the box says that Start was held
/// (`confirmed`): a guess before that is refused and weighed against
/// nothing, so a stranger on the LAN alone never has a guess weighed
/// against a code. Only one code is out at a time (a second browser
/// asking meanwhile is refused), so a stranger cannot swap the code the
/// person at the box is about to reveal.
///
/// Against a guesser once a code is shown (someone at the box revealed
/// it, and a stranger guesses along): one counter for the whole box, not
/// one per code or per client. `wrongInARow` wrong guesses in a row,
/// whatever code they were aimed at, lock pairing for `lockout`, doubling
/// with each round up to `maxLockout` (a day); only a right code clears
/// the rounds. The hand on the box lifts a lockout: Start held on a
/// prompt clears it, so the owner is never locked out, while nobody
/// without a hand on the box gets a code anyway. Asking for codes is
/// limited too: `codesPerWindow` per `codeWindow`. The counter is
/// `Pairing.Guard`, kept in a file across restarts (`PairingFile`).
public struct Pairing: Sendable {
    /// The code on the display, from the hold that revealed it.
    public static let codeLifetime: Duration = .seconds(120)
    /// `HoLd` on the display, waiting for Start to be held.
    public static let promptLifetime: Duration = .seconds(30)
    public static let prompt = "HoLd"
    public static let wrongInARow = 5
    public static let lockout: Duration = .seconds(30)
    public static let maxLockout: Duration = .seconds(24 * 3600)
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
        /// No code is out (none asked for, or it ran out).
        case noCode
        /// A code is out, but nobody has held Start on the box yet: not
        /// weighed. The prompt waits until `until`.
        case unconfirmed(until: Instant)
        /// Too many wrong guesses: nothing is accepted before `until`.
        case locked(until: Instant)
    }

    public enum Refusal: Error, Equatable, Sendable {
        /// `codesPerWindow` codes asked within `codeWindow`: the next one at `until`.
        case tooManyCodes(until: Instant)
        /// A code asked for already waits for the box, or is shown, until `until`.
        case busy(until: Instant)
    }

    public private(set) var code: String?
    /// When the code was asked, and when it runs out (the prompt's end
    /// and the code's time on the display, until it was confirmed; then
    /// `codeLifetime` from when tock-web learnt of the hold).
    public private(set) var asked: Instant?
    public private(set) var expires: Instant?
    /// Start was held on the box for this code.
    public private(set) var confirmed = false
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

    /// Whether a code is out that the box has not yet confirmed: only then
    /// must the box be asked whether Start was held.
    public func waitsForBox(at now: Instant) -> Bool {
        code != nil && !confirmed && expires.map { now < $0 } == true
    }

    /// What the box said at `now` about the code out: Start was held on
    /// its prompt (`boxConfirmed`), or not. A hold makes the code count,
    /// for `codeLifetime` from now, and lifts a lockout; a prompt that ran
    /// out without one takes the code back.
    /// `codeAskedAt`: the code the box was asked about (when it was
    /// asked), so an answer about one code never confirms the next.
    public mutating func learn(boxConfirmed: Bool, codeAskedAt: Instant?, at now: Instant) {
        guard waitsForBox(at: now), let asked, asked == codeAskedAt else { return }
        if boxConfirmed {
            confirmed = true
            expires = min(expires ?? now, now + Self.codeLifetime)
            guarded.lockedUntil = nil
            guarded.wrong = 0
        } else if now >= asked + Self.promptLifetime {
            clear()
        }
    }

    /// A browser asks to pair: the code to show, or why not. Asked while
    /// locked, too: the hold that reveals it lifts the lockout.
    public mutating func begin(code: String, at now: Instant) -> Result<String, Refusal> {
        if self.code != nil, let asked, let expires {
            // The prompt, or the code it revealed, is still up.
            let until = confirmed ? expires : asked + Self.promptLifetime
            if now < until { return .failure(.busy(until: until)) }
        }
        guarded.codesAsked.removeAll { now - $0 >= Self.codeWindow }
        if guarded.codesAsked.count >= Self.codesPerWindow, let first = guarded.codesAsked.first {
            return .failure(.tooManyCodes(until: first + Self.codeWindow))
        }
        guarded.codesAsked.append(now)
        self.code = code
        asked = now
        confirmed = false
        expires = now + Self.promptLifetime + Self.codeLifetime
        return .success(code)
    }

    /// The code asked for at `at` could not be shown (the box did not
    /// answer): it is withdrawn and does not count against the limit.
    public mutating func withdraw(codeAskedAt at: Instant) {
        if asked == at { clear() }
        if let i = guarded.codesAsked.lastIndex(of: at) { guarded.codesAsked.remove(at: i) }
    }

    /// A code typed at `now` (after `learn`, if the box was asked).
    public mutating func attempt(_ typed: String, at now: Instant) -> Outcome {
        if let l = guarded.lockedUntil, now < l { return .locked(until: l) }
        guard let code, let expires, let asked, now < expires else {
            clear()
            return .noCode
        }
        guard confirmed else {
            if now >= asked + Self.promptLifetime {
                // The prompt ran out without a hold.
                clear()
                return .noCode
            }
            return .unconfirmed(until: asked + Self.promptLifetime)
        }
        if Self.same(typed, code) {
            clear()
            guarded.wrong = 0
            guarded.rounds = 0
            guarded.lockedUntil = nil
            return .paired
        }
        guarded.wrong += 1
        guard guarded.wrong >= Self.wrongInARow else { return .wrong(left: Self.wrongInARow - guarded.wrong) }
        clear()
        guarded.wrong = 0
        guarded.rounds += 1
        var wait = Self.lockout
        for _ in 1..<guarded.rounds where wait < Self.maxLockout { wait = wait + wait }
        let until = now + min(wait, Self.maxLockout)
        guarded.lockedUntil = until
        return .locked(until: until)
    }

    private mutating func clear() {
        code = nil
        asked = nil
        expires = nil
        confirmed = false
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

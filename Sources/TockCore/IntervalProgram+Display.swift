/// What an interval program shows: the phase's count, a lead-in, and for a
/// moment the program's name or the round.
extension IntervalProgram {
    public func presentation(at now: Now) -> Presentation {
        let t = now.monotonic
        if let n = notice, n.until > t {
            switch n.kind {
            case .name: return Presentation(.text(NamedProgram.label(current?.name ?? "") ?? ""))
            case .round:
                let p = phase(atElapsed: elapsed(at: t))
                return Presentation(.round(p.round, set: plan.sets > 1 ? p.set : nil))
            }
        }
        if case .running(let run) = lifecycle.state, let s = roundStart(atElapsed: run.elapsed(at: t)) {
            return Presentation(.round(s.round, set: plan.sets > 1 ? s.set : nil))
        }
        if case .done = lifecycle.state, let f = finish { return Presentation(.up(f)) }
        return lifecycle.presentation(at: t, final: total) { e in
            if plan.countsUp { return .up(min(max(e, .zero), total)) }
            let p = phase(atElapsed: min(e, total))
            return .interval(p.left, round: p.round, of: plan.rounds, resting: p.resting)
        }
    }
}

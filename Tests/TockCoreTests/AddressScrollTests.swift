import Testing
@testable import TockCore

/// The address on the display on virtual time: what scrolls, how fast,
/// when (a new address, Stop held at rest), what a press or a count does
/// to it, and that it waits for a count to end.
@Suite struct AddressScrollTests {
    let home = NetworkIdentity(addresses: ["192.168.1.20"], name: "tock.local")

    /// A box that has had its first report (no address yet) at 0 s.
    func box(_ settings: Settings = .timer()) -> VirtualMachine {
        var v = VirtualMachine(settings)
        v.take(v.core.handle(.network(NetworkIdentity(addresses: [], name: "tock.local")), at: v.clock))
        return v
    }

    func report(_ v: inout VirtualMachine, _ addresses: [String], at s: Double) {
        v.run(to: s)
        v.take(v.core.handle(.network(NetworkIdentity(addresses: addresses, name: "tock.local")), at: v.clock))
    }

    func shownLines(_ v: VirtualMachine) -> [String] {
        v.log.compactMap { if case .report(.addressShown(let l)) = $0.1 { l } else { nil } }
    }

    @Test func theLineInCells() {
        #expect(AddressScroll.cells("192.168.1.20") == ["1", "9", "2.", "1", "6", "8.", "1.", "2", "0"])
        // Letters by the font, the nearest glyph, then the stand-ins; `_` for the rest.
        #expect(AddressScroll.cells("tock.local") == ["t", "o", "c", "H.", "L", "o", "c", "A", "L"])
        #expect(AddressScroll.cells("Kitchen-2") == ["H", "1", "t", "c", "h", "e", "n", "-", "2"])
        #expect(AddressScroll.cells("é..x") == ["_.", " .", "H"])
        #expect(home.line == "192.168.1.20  tock.local")
        #expect(NetworkIdentity(addresses: [], name: "tock.local").line == "no Addr  tock.local")
        let many = NetworkIdentity(addresses: ["10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.4"], name: "t.local")
        #expect(many.line == "10.0.0.1  10.0.0.2  10.0.0.3  t.local")
    }

    @Test func aNewAddressScrollsAcrossTheDisplayAtItsSpeed() {
        var v = box()
        let before = v.displays.count
        report(&v, ["192.168.1.20"], at: 5)
        #expect(shownLines(v) == ["192.168.1.20  tock.local"])
        // Step 0 at 5 s: the first cell enters on the right; one cell each 300 ms.
        v.run(to: 5.0)
        #expect(v.display == "   1")
        v.run(to: 5.3)
        #expect(v.display == "  19")
        v.run(to: 5.6)
        #expect(v.display == " 192.")
        v.run(to: 6.5)
        #expect(v.display == "2.168.")
        // 20 cells on 4 digits: 23 steps, the last cell alone at 5 + 22 × 0.3 = 11.6 s.
        v.run(to: 11.89)
        #expect(v.display == "L   ")
        v.run(to: 11.9)
        #expect(v.display == "05:00")
        let frames = Array(v.displays[before...])
        #expect(frames.count == 24)  // 23 steps and the timer again
        #expect(v.core.scroll == nil)
        // Every step's instant is a wake-up the core asked for: nothing late, nothing early.
        let times = v.times { if case .command(.render) = $0 { true } else { false } }.suffix(24)
        #expect(times.map { ($0 - at(5)).nanoseconds / 100_000_000 } == (0..<24).map { Int64($0 * 3) })
    }

    @Test func theFirstReportIsWhatTheBoxHadAndAKnownAddressDoesNotScroll() {
        var v = VirtualMachine(.timer())
        v.take(v.core.handle(.network(home), at: v.clock))  // at the start: the baseline
        report(&v, ["192.168.1.20"], at: 3)  // the same again
        #expect(shownLines(v).isEmpty)
        #expect(v.display == "05:00")
        report(&v, [], at: 4)  // gone (the cable out) ...
        report(&v, ["192.168.1.20"], at: 6)  // ... and back: a new address again
        #expect(shownLines(v).count == 1)
    }

    @Test func aPressEndsTheScrollAndDoesNothingElse() {
        var v = box()
        report(&v, ["192.168.1.20"], at: 5)
        v.press(.start, at: 7)
        v.run(to: 7.1)
        #expect(v.core.scroll == nil)
        #expect(v.state == .ready)  // the press only ended the scroll
        #expect(v.display == "05:00")
        #expect(v.chirps.isEmpty)
        v.press(.start, at: 8)
        v.run(to: 8.1)
        #expect(v.state == .running)
    }

    @Test func stopHeldInReadyShowsTheAddressAndAShortStopStillChirps() {
        var v = box()
        report(&v, ["10.1.2.3"], at: 1)
        v.run(to: 20)  // that scroll is over
        v.press(.stop, at: 20, hold: 1.2)  // input.long_press: 1 s
        #expect(shownLines(v).count == 2)
        #expect(v.core.scroll?.start == at(21))
        #expect(v.display != "05:00")
        v.run(to: 23)
        #expect(v.state == .ready)
        #expect(v.chirps.isEmpty)  // the long press is not also a short one
        v.run(to: 40)
        v.press(.stop, at: 40)  // short: the "no" chirp, on release
        v.run(to: 41)
        #expect(v.chirps.count == 1)
        #expect(v.core.scroll == nil)
    }

    @Test func anAddressThatAppearsDuringACountWaitsForTheEnd() {
        var v = box(.timer([.seconds(60)]))
        v.press(.start, at: 1)
        report(&v, ["192.168.1.20"], at: 10)
        #expect(shownLines(v).isEmpty)
        #expect(v.display == "00:51")
        v.run(to: 30)
        #expect(v.display == "00:31")  // the count keeps the display
        v.run(to: 62)
        #expect(v.state == .ringing)
        #expect(shownLines(v).isEmpty)
        v.press(.reset, at: 63)  // silence and back to ready
        v.run(to: 63.5)
        #expect(v.state == .ready)
        #expect(shownLines(v) == ["192.168.1.20  tock.local"])
    }

    @Test func aCountStartedFromElsewhereCutsTheScrollShort() {
        var v = box()
        report(&v, ["192.168.1.20"], at: 5)
        v.act(.pressed(.start), at: 6)
        #expect(v.state == .running)
        v.run(to: 6.5)
        #expect(v.core.scroll == nil)
        #expect(v.display == "05:00")  // the count's first second
        v.act(.pressed(.stop), at: 8)
        v.act(.pressed(.reset), at: 9)
        v.run(to: 10)
        #expect(v.display == "05:00")  // it does not come back
    }

    @Test func withAnExtraTimerStopHeldStillStepsTheCounts() throws {
        var v = box()
        report(&v, ["10.1.2.3"], at: 1)
        v.run(to: 20)
        try v.request(.timer(.add(name: "EGG", duration: .seconds(360))))
        v.press(.stop, at: 21, hold: 1.2)
        #expect(shownLines(v).count == 1)  // the one at 1 s only
        #expect(v.core.scroll == nil)
    }

    @Test func whileTheIdleClockShowsAHeldStopOnlyWakesTheTimerView() {
        var s = Settings.timer()
        s.display.idleClock = true
        s.display.idleAfter = .seconds(30)
        var v = box(s)
        report(&v, ["10.1.2.3"], at: 1)
        v.run(to: 60)  // the scroll is long over; the idle clock shows
        #expect(v.display != "05:00")
        v.press(.stop, at: 60, hold: 1.5)
        v.run(to: 62)
        #expect(shownLines(v).count == 1)  // the one at 1 s only
        #expect(v.display == "05:00")
        v.press(.stop, at: 63, hold: 1.2)  // now on the timer view
        #expect(shownLines(v).count == 2)
    }

    @Test func theDisplaysMeaningIsTheWholeLine() {
        var v = box()
        report(&v, ["192.168.1.20"], at: 5)
        v.run(to: 6)
        #expect(v.core.displayMeaning(at: v.clock).text == "192.168.1.20  tock.local")
        v.run(to: 20)
        #expect(v.core.displayMeaning(at: v.clock).text == "05:00")
    }
}

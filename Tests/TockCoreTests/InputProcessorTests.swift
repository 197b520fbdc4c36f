import Testing
@testable import TockCore

@Suite struct DebouncerTests {
    @Test func chatterSettlesOnceDatedAtTheFirstEdge() {
        var d = Debouncer(period: .milliseconds(20), level: false)
        // Closed at 0, chattering for 4 ms, then held.
        d.edge(to: true, at: at(0))
        d.edge(to: false, at: at(0.001))
        d.edge(to: true, at: at(0.002))
        d.edge(to: false, at: at(0.003))
        d.edge(to: true, at: at(0.004))
        #expect(d.deadline == at(0.024))
        #expect(d.settle(at: at(0.023)) == nil)
        let change = d.settle(at: at(0.024))
        #expect(change?.level == true && change?.since == at(0))
        #expect(d.deadline == nil)
    }

    @Test func aPulseShorterThanThePeriodIsNoise() {
        var d = Debouncer(period: .milliseconds(20), level: false)
        d.edge(to: true, at: at(0))
        d.edge(to: false, at: at(0.010))
        #expect(d.deadline == nil)
        #expect(d.settled == false)
    }

    @Test func aPressLongAfterANoiseSpikeIsDatedFromItsOwnEdge() {
        var d = Debouncer(period: .milliseconds(20), level: false)
        d.edge(to: true, at: at(0))
        d.edge(to: false, at: at(0.001))
        d.edge(to: true, at: at(5))
        #expect(d.settle(at: at(5.02))?.since == at(5))
    }

    @Test func duplicateReportsOfTheSameLevelAreIgnored() {
        var d = Debouncer(period: .milliseconds(20), level: false)
        d.edge(to: true, at: at(0))
        d.edge(to: true, at: at(0.015))
        #expect(d.deadline == at(0.020))
    }
}

@Suite struct InputProcessorTests {
    let settings = InputSettings()

    /// Feed edges in time order as a loop would, firing whatever falls due
    /// before each one, then everything due until `s`.
    func run(_ p: inout InputProcessor, _ edges: [(InputLine, Bool, Double)], until s: Double, style: PressStyle) -> [(InputProcessor.Occurrence, Instant)] {
        var out: [(InputProcessor.Occurrence, Instant)] = []
        for (line, active, t) in edges {
            out += fireAll(&p, until: t - 1e-9, style: style)
            p.edge(line, active: active, at: at(t))
        }
        return out + fireAll(&p, until: s, style: style)
    }

    func fireAll(_ p: inout InputProcessor, until s: Double, style: PressStyle) -> [(InputProcessor.Occurrence, Instant)] {
        var out: [(InputProcessor.Occurrence, Instant)] = []
        while let d = p.deadline, d <= at(s) { out += p.fireNext(at: d, style: { _ in style }) }
        return out
    }

    @Test func onPressFiresOnceAtThePressWhateverTheChatter() {
        var p = InputProcessor(settings: settings, switchPosition: .down)
        var edges = [0, 0.0007, 0.0015, 0.002, 0.0031, 0.004, 0.0048].enumerated().map { (InputLine.button(.start), $0 % 2 == 0, $1) }
        edges.append((.button(.start), false, 0.08))
        let out = run(&p, edges, until: 1, style: .onPress)
        #expect(out.count == 1)
        #expect(out.first?.0 == .action(.pressed(.start)) && out.first?.1 == at(0))
    }

    @Test func shortOrLongFiresTheShortActionOnRelease() {
        var p = InputProcessor(settings: settings, switchPosition: .down)
        let out = run(&p, [(.button(.reset), true, 0), (.button(.reset), false, 0.3)], until: 2, style: .shortOrLong)
        #expect(out.map(\.0) == [.action(.pressed(.reset))])
        #expect(out.first?.1 == at(0.3))
    }

    @Test func aLongPressFiresAtTheThresholdWhileHeldAndNeverTheShortAction() {
        var p = InputProcessor(settings: settings, switchPosition: .down)
        p.edge(.button(.reset), active: true, at: at(0))
        var out = fireAll(&p, until: 0.99, style: .shortOrLong)
        #expect(out.isEmpty)
        out = fireAll(&p, until: 1.0, style: .shortOrLong)
        #expect(out.map(\.0) == [.action(.longPressed(.reset))] && out.first?.1 == at(1.0))
        p.edge(.button(.reset), active: false, at: at(1.5))
        out = fireAll(&p, until: 3, style: .shortOrLong)
        #expect(out.isEmpty)
    }

    @Test func holdingRepeatsAndAccelerates() {
        var p = InputProcessor(settings: settings, switchPosition: .down)
        p.edge(.button(.start), active: true, at: at(0))
        let out = fireAll(&p, until: 3, style: .repeating)
        let times = out.map { ($0.1 - at(0)).nanoseconds / 1_000_000 }
        // Press at 0; first repeat after 500 ms; 200 ms apart for 5
        // repeats, then 100 ms, then 50 ms.
        #expect(out.first?.0 == .action(.pressed(.start)))
        #expect(Array(times.prefix(8)) == [0, 500, 700, 900, 1100, 1300, 1400, 1500])
        let gaps = zip(times.dropFirst(), times.dropFirst(2)).map { $1 - $0 }
        #expect(gaps.last == 50)
        #expect(gaps == gaps.sorted(by: >))
    }

    @Test func theSwitchIsDebouncedToo() {
        var p = InputProcessor(settings: settings, switchPosition: .down)
        p.edge(.directionSwitch, active: true, at: at(0))
        p.edge(.directionSwitch, active: false, at: at(0.002))
        p.edge(.directionSwitch, active: true, at: at(0.003))
        let out = fireAll(&p, until: 1, style: .onPress)
        #expect(out.map(\.0) == [.switched(.up)])
        #expect(p.switchPosition == .up)
    }
}

/// The places the input processor keeps its lines and buttons at, and the
/// loop that joins text where the generic `joined` cost start-up time.
@Suite struct InputPlacesTests {
    @Test func eachLineAndButtonHasItsOwnPlaceInOrder() {
        #expect(InputLine.all.map(\.index) == Array(0..<InputLine.all.count))
        #expect(Button.allCases.map(\.index) == Array(0..<Button.allCases.count))
        #expect(Set(InputLine.all).count == InputLine.all.count)
    }

    @Test func aValuePerLineIsADictionaryByLine() {
        var levels: PerLine<Bool> = [.directionSwitch: true, .button(.start): false]
        #expect(levels.lines == [.button(.start), .directionSwitch])  // in InputLine.all's order
        #expect(levels[.directionSwitch] == true && levels[.button(.start)] == false && levels[.button(.stop)] == nil)
        #expect(!levels.lines.isEmpty && PerLine<Int>().lines.isEmpty)
        levels[.button(.stop)] = true
        levels[.button(.start)] = nil
        #expect(levels.lines == [.button(.stop), .directionSwitch])
        #expect(levels.mapValues { $0 ? 1 : 0 } == [.button(.stop): 1, .directionSwitch: 1])
        #expect(levels != [.button(.stop): true])
        // Every line has a place of its own: setting each leaves the others.
        var each = PerLine<Int>()
        for (i, line) in InputLine.all.enumerated() { each[line] = i }
        #expect(InputLine.all.map { each[$0] } == Array(0..<InputLine.all.count))
    }

    @Test func joinedTextIsJoined() {
        for parts in [[], [""], ["a"], ["a", "b"], ["10.0.0.2", "", "fe80::1"], Array(repeating: "x", count: 100)] {
            #expect(parts.joinedText(separator: ", ") == parts.joined(separator: ", "))
            #expect(parts.joinedText(separator: "") == parts.joined())
        }
    }
}

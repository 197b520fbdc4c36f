import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import TockCore
@testable import TockSimulator

@Suite struct SegmentSVGTests {
    private func occurrences(of needle: String, in haystack: String) -> Int {
        haystack.components(separatedBy: needle).count - 1
    }

    private func popcount(_ frame: Frame) -> Int {
        (0..<frame.digits).reduce(0) { $0 + frame.segments(at: $1).nonzeroBitCount }
    }

    static let samples: [(String, Int)] = [
        ("05:00", 4), ("59:99", 4), (" 1:40", 4), (" 140", 4), ("3d04", 4), (" 45d", 4),
        ("00:10.", 4), ("over", 4), ("8.8.:8.8.", 4), ("", 4),
        ("   0.23.45", 8), ("12d 04.30", 8), ("8.8.8.8.8.8.8.8.", 8),
    ]

    @Test(arguments: samples)
    func litSegmentsAreTheFramesBits(text: String, digits: Int) {
        let frame = Frame(text: text, digits: digits)
        let svg = SegmentSVG.svg(for: frame)
        #expect(occurrences(of: "class=\"seg on\"", in: svg) == popcount(frame))
        // Every digit draws all seven segments and its point, lit or not.
        #expect(occurrences(of: "class=\"seg ", in: svg) == 8 * digits)
        #expect(occurrences(of: "fill=\"\(SegmentSVG.litColor)\"", in: svg)
            == popcount(frame) + (frame.colon ? 2 : 0))
    }

    @Test func rawSegmentBitsAreDrawnOneByOne() {
        for bit in 0..<8 {
            let frame = Frame.segments([0, UInt8(1) << UInt8(bit), 0, 0])
            let svg = SegmentSVG.svg(for: frame)
            #expect(occurrences(of: "class=\"seg on\"", in: svg) == 1)
            let names = ["a", "b", "c", "d", "e", "f", "g", "dp"]
            #expect(svg.contains("class=\"seg on\" data-seg=\"\(names[bit])\""))
        }
    }

    @Test func colonOnlyWhenLit() {
        let lit = SegmentSVG.svg(for: Frame(text: "05:00", digits: 4))
        #expect(occurrences(of: "class=\"colon on\"", in: lit) == 2)
        #expect(occurrences(of: "class=\"colon off\"", in: lit) == 0)
        let dark = SegmentSVG.svg(for: Frame(text: " 140", digits: 4))
        #expect(occurrences(of: "class=\"colon on\"", in: dark) == 0)
        #expect(occurrences(of: "class=\"colon off\"", in: dark) == 2)
        let eight = SegmentSVG.svg(for: Frame(text: "12d 04.30", digits: 8))
        #expect(!eight.contains("class=\"colon"))
    }

    @Test func deterministic() {
        let frame = Frame(text: "12:34", digits: 4)
        #expect(SegmentSVG.svg(for: frame) == SegmentSVG.svg(for: frame))
        #expect(SegmentSVG.svg(for: frame) != SegmentSVG.svg(for: Frame(text: "12:35", digits: 4)))
    }

    @Test(arguments: samples)
    func wellFormedXML(text: String, digits: Int) throws {
        let svg = SegmentSVG.svg(for: Frame(text: text, digits: digits))
        let parser = XMLParser(data: Data(svg.utf8))
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        #expect(svg.hasPrefix("<?xml"))
        #expect(svg.hasSuffix("</svg>\n"))
    }
}

import Testing
import TockCore
import TockHardware

/// The one edge reader over a board that reports what it is told to: what
/// any backend could hand it, hostile cases included.
@Suite struct InputReaderTests {
    final class Scripted: LevelReader {
        let descriptor: CInt = -1
        let initialLevels: PerLine<Bool>
        var next: [LevelChange] = []
        init(_ levels: PerLine<Bool>) { initialLevels = levels }
        func readLevels() throws -> [LevelChange] {
            defer { next = [] }
            return next
        }
    }

    static func t(_ ns: Int64) -> Instant { Instant(nanoseconds: ns) }
    static func change(_ line: InputLine, _ high: Bool, _ ns: Int64) -> LevelChange { LevelChange(line: line, high: high, timestamp: t(ns)) }

    @Test func polarityIsTheReadersAlone() throws {
        for activeLow in [true, false] {
            let board = Scripted([.button(.start): true])
            let reader = InputReader(board, activeLow: activeLow)
            #expect(reader.active == [.button(.start): !activeLow])
            board.next = [Self.change(.button(.start), false, 1), Self.change(.button(.start), true, 2)]
            #expect(try reader.readEdges().map(\.active) == [activeLow, !activeLow])
        }
    }

    /// Two reports of the same level: the change between was lost (a
    /// kernel buffer overflowed); it is put back, said once for the read.
    @Test func aLostEdgeIsPutBackAndSaid() throws {
        let board = Scripted([.button(.stop): true])
        var problems: [String] = []
        let reader = InputReader(board, activeLow: true, onProblem: { problems.append($0) })
        board.next = [Self.change(.button(.stop), false, 10), Self.change(.button(.stop), false, 20), Self.change(.button(.stop), false, 30)]
        #expect(try reader.readEdges() == [
            Edge(line: .button(.stop), active: true, timestamp: Self.t(10)),
            Edge(line: .button(.stop), active: false, timestamp: Self.t(20)),
            Edge(line: .button(.stop), active: true, timestamp: Self.t(20)),
            Edge(line: .button(.stop), active: false, timestamp: Self.t(30)),
            Edge(line: .button(.stop), active: true, timestamp: Self.t(30)),
        ])
        #expect(problems == ["stop: 2 edges lost between two reports of the same level, put back"])
    }

    /// A board reporting a line it was not opened for: dropped and said
    /// once per line; the edges around it are kept.
    @Test func anEdgeOnALineNotOpenedIsDroppedAndSaidOnce() throws {
        let board = Scripted([.button(.start): true])
        var problems: [String] = []
        let reader = InputReader(board, activeLow: true, onProblem: { problems.append($0) })
        board.next = [Self.change(.directionSwitch, false, 1), Self.change(.button(.start), false, 2),
                      Self.change(.directionSwitch, true, 3), Self.change(.button(.start), true, 4)]
        #expect(try reader.readEdges().map(\.timestamp) == [Self.t(2), Self.t(4)])
        board.next = [Self.change(.directionSwitch, false, 5)]
        #expect(try reader.readEdges().isEmpty)
        #expect(problems == ["an edge on switch, a line these inputs were not opened for, ignored"])
        #expect(reader.active[.directionSwitch] == nil)
    }

    /// Timestamps going backwards, within a read and across reads: each
    /// edge is dated no earlier than the one handed on before it.
    @Test func timestampsGoingBackwardsAreDatedAtTheEdgeBefore() throws {
        let board = Scripted([.button(.start): true, .button(.stop): true])
        let reader = InputReader(board, activeLow: true)
        board.next = [Self.change(.button(.start), false, 1_000), Self.change(.button(.stop), false, 400)]
        #expect(try reader.readEdges().map(\.timestamp) == [Self.t(1_000), Self.t(1_000)])
        board.next = [Self.change(.button(.start), true, 200), Self.change(.button(.stop), true, 2_000),
                      Self.change(.button(.start), false, Int64.min)]
        #expect(try reader.readEdges().map(\.timestamp) == [Self.t(1_000), Self.t(2_000), Self.t(2_000)])
    }

    /// 10,000 changes in one read (chatter on one line): all handed on in
    /// order, alternating, without the reader taking quadratic time.
    @Test func aFloodOfTenThousandEdgesInOneRead() throws {
        let board = Scripted([.button(.reset): true])
        let reader = InputReader(board, activeLow: true)
        board.next = (0..<10_000).map { Self.change(.button(.reset), $0 % 2 == 1, Int64($0)) }
        let edges = try reader.readEdges()
        #expect(edges.count == 10_000)
        #expect(edges.enumerated().allSatisfy { $0.element.active == ($0.offset % 2 == 0) })
        #expect(reader.active[.button(.reset)] == false)
    }
}

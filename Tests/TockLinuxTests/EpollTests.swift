import Glibc
import SystemPackage
import Testing
import TockCore
@testable import TockLinux

@Suite(.serialized)
struct EpollTests {
    @Test func emptyWaitEndsAtItsTimeout() throws {
        let epoll = try Epoll()
        let clock = SystemClock()
        let start = clock.now().monotonic
        let ready = try epoll.wait(timeout: .milliseconds(20))
        let elapsed = clock.now().monotonic - start
        #expect(ready.isEmpty)
        print("empty epoll wait for 20 ms returned after \(millisecondsText(elapsed))")
    }

    @Test func readableDescriptorIsReportedUntilRemoved() throws {
        let epoll = try Epoll()
        let pipe = try TestPipe()
        try epoll.add(pipe.readEnd)
        #expect(try epoll.wait(timeout: .zero).isEmpty)

        try pipe.send([7])
        #expect(try epoll.wait(timeout: .seconds(1)) == [pipe.readEnd])
        // Level-triggered: still ready until read.
        #expect(try epoll.wait(timeout: .zero) == [pipe.readEnd])
        try epoll.remove(pipe.readEnd)
        #expect(try epoll.wait(timeout: .zero).isEmpty)
    }

    @Test func hangUpIsReportedAsReady() throws {
        let epoll = try Epoll()
        let (readEnd, writeEnd) = try FileDescriptor.pipe()
        defer { try? readEnd.close() }
        try epoll.add(readEnd)
        try writeEnd.close()
        #expect(try epoll.wait(timeout: .seconds(1)) == [readEnd])
    }

    @Test func addingTwiceIsReportedByTheKernel() throws {
        let epoll = try Epoll()
        let pipe = try TestPipe()
        try epoll.add(pipe.readEnd)
        #expect(throws: Errno.fileExists) { try epoll.add(pipe.readEnd) }
    }

    @Test func manyReadyDescriptorsAreReportedAcrossWaits() throws {
        let epoll = try Epoll(capacity: 2)
        let pipes = try (0..<3).map { _ in try TestPipe() }
        for pipe in pipes {
            try epoll.add(pipe.readEnd)
            try pipe.send([1])
        }
        let first = try epoll.wait(timeout: .zero)
        #expect(first.count == 2)
        for fd in first {
            _ = try pipes.first { $0.readEnd == fd }?.receive()
        }
        #expect(try epoll.wait(timeout: .zero).count == 1)
    }

    /// The loop's form: the array handed in is emptied of the last
    /// wake-up's descriptors and filled with this one's, in its own
    /// storage (no allocation per wake-up once it has grown).
    @Test func waitingIntoAnArrayReplacesItsContentsInPlace() throws {
        let epoll = try Epoll(capacity: 4)
        let pipes = try (0..<3).map { _ in try TestPipe() }
        for pipe in pipes { try epoll.add(pipe.readEnd) }
        var ready: [FileDescriptor] = [pipes[2].readEnd, pipes[2].readEnd]
        ready.reserveCapacity(8)
        let storage = ready.withUnsafeBufferPointer { $0.baseAddress }
        try pipes[0].send([1])
        try pipes[1].send([1])
        try epoll.wait(into: &ready, timeout: .zero)
        #expect(Set(ready.map(\.rawValue)) == [pipes[0].readEnd.rawValue, pipes[1].readEnd.rawValue] && ready.count == 2)
        #expect(ready.withUnsafeBufferPointer { $0.baseAddress } == storage)
        for pipe in pipes.prefix(2) { _ = try pipe.receive() }
        try epoll.wait(into: &ready, timeout: .zero)
        #expect(ready.isEmpty && ready.capacity >= 8)
        #expect(ready.withUnsafeBufferPointer { $0.baseAddress } == storage)
    }
}

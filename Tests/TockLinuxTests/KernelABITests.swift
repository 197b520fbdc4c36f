import CTockLinux
import Glibc
import SystemPackage
import Testing
@testable import TockLinux

/// The kernel interfaces whose layout or numbers depend on the
/// architecture, worked out by hand from the kernel's and glibc's headers
/// for each architecture tock ships on (x86_64, arm64), and checked against
/// what Swift imports and, for epoll, against the kernel itself.
@Suite struct KernelABITests {
    // <sys/epoll.h>: `struct epoll_event { uint32_t events; epoll_data_t data; } __EPOLL_PACKED;`
    // where __EPOLL_PACKED is __attribute__((packed)) on x86_64 only (the
    // kernel's own struct is packed there, for i386 compatibility). On
    // arm64 the 64-bit union sits at its natural alignment, after 4 bytes
    // of padding.
    #if arch(x86_64)
    static let epollDataOffset = 4
    static let epollEventSize = 12
    #elseif arch(arm64)
    static let epollDataOffset = 8
    static let epollEventSize = 16
    #else
    static let epollDataOffset = MemoryLayout<UInt64>.alignment
    static let epollEventSize = MemoryLayout<UInt64>.alignment + 8
    #endif

    @Test func epollEventLayout() {
        #expect(MemoryLayout<epoll_event>.offset(of: \epoll_event.events) == 0)
        #expect(MemoryLayout<epoll_event>.offset(of: \epoll_event.data) == Self.epollDataOffset)
        #expect(MemoryLayout<epoll_event>.size == Self.epollEventSize)
        #expect(MemoryLayout<epoll_event>.stride == Self.epollEventSize)
    }

    /// The kernel writes `struct epoll_event` records back to back; with a
    /// wrong layout the 64-bit data would come back shifted or torn, and the
    /// record after the first would be overwritten.
    @Test func kernelReturnsTheRegisteredDataIntact() throws {
        let epoll = try Syscall.epollCreate()
        defer { try? epoll.close() }
        let pipe = try TestPipe()
        try pipe.send([1])
        let cookie: UInt64 = 0x0123_4567_89AB_CDEF
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data = epoll_data_t(u64: cookie)
        #expect(epoll_ctl(epoll.rawValue, EPOLL_CTL_ADD, pipe.readEnd.rawValue, &event) == 0)

        let sentinel: UInt8 = 0xA5
        let count = 2
        let raw = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.epollEventSize * count, alignment: 8)
        defer { raw.deallocate() }
        raw.initializeMemory(as: UInt8.self, repeating: sentinel)
        let events = raw.bindMemory(to: epoll_event.self)
        let n = try Syscall.epollWait(epoll, into: events, timeoutMilliseconds: 1000)
        #expect(n == 1)

        // Read back by the hand-computed offsets, not through the struct.
        let bytes = UnsafeRawBufferPointer(raw)
        let reportedEvents = bytes.loadUnaligned(fromByteOffset: 0, as: UInt32.self)
        let reportedData = bytes.loadUnaligned(fromByteOffset: Self.epollDataOffset, as: UInt64.self)
        #expect(reportedEvents & EPOLLIN.rawValue != 0)
        #expect(reportedData == cookie)
        #expect(events[0].data.u64 == cookie)
        // The second record is untouched.
        #expect(bytes[Self.epollEventSize...].allSatisfy { $0 == sentinel })
    }

    /// asm-generic/ioctl.h (used by x86 and arm64 alike): a request number
    /// is dir << 30 | size << 16 | type << 8 | nr, write = 1.
    static func iow(_ type: UInt8, _ nr: UInt, size: Int) -> UInt {
        1 << 30 | UInt(size) << 16 | UInt(type) << 8 | nr
    }

    @Test func spidevRequestNumbers() {
        // linux/spi/spidev.h: SPI_IOC_MAGIC 'k'; modes and word size are
        // __u8, the clock a __u32.
        #expect(TOCK_SPI_IOC_WR_MODE == 0x4001_6B01)
        #expect(TOCK_SPI_IOC_WR_BITS_PER_WORD == 0x4001_6B03)
        #expect(TOCK_SPI_IOC_WR_MAX_SPEED_HZ == 0x4004_6B04)
        #expect(TOCK_SPI_IOC_WR_MODE == Self.iow(UInt8(ascii: "k"), 1, size: 1))
        #expect(TOCK_SPI_IOC_WR_MAX_SPEED_HZ == Self.iow(UInt8(ascii: "k"), 4, size: MemoryLayout<UInt32>.size))
    }

    @Test func i2cSlaveRequestNumber() {
        // linux/i2c-dev.h: a plain number, not built with _IOW.
        #expect(I2C_SLAVE == 0x0703)
    }

    /// Both architectures are 64-bit: time_t is 64 bits wide (no 2038
    /// limit) and the structures built from it have no padding.
    @Test func timeStructures() {
        #expect(MemoryLayout<time_t>.size == 8)
        #expect(MemoryLayout<timespec>.size == 16)
        #expect(MemoryLayout<itimerspec>.size == 32)
        #expect(MemoryLayout<itimerspec>.offset(of: \itimerspec.it_value) == 16)
    }

    @Test func signalfdRecordIs128Bytes() {
        // signalfd(2): "The signalfd_siginfo structure ... is 128 bytes" on every architecture.
        #expect(MemoryLayout<signalfd_siginfo>.size == 128)
    }

    @Test func unixSocketAddress() {
        // sys/un.h: sa_family_t then a 108-byte path.
        #expect(MemoryLayout<sockaddr_un>.offset(of: \sockaddr_un.sun_path) == 2)
        #expect(MemoryLayout<sockaddr_un>.size == 110)
    }
}

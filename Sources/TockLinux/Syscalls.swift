// Swift's Glibc module does not include <sys/epoll.h>, <sys/timerfd.h>,
// <sys/signalfd.h>, <linux/i2c-dev.h> or <linux/spi/spidev.h>; the
// CTockLinux module declares them.
import CTockLinux
import Glibc
import SystemPackage

/// The one path from this module to the kernel.
///
/// Every raw call of TockLinux goes through here, with one errno policy:
/// - `EINTR` is retried when `retryOnInterrupt` is true (the default), and
///   never for `close` (close(2): the descriptor is released even when the
///   call is interrupted, so a retry could close a descriptor another part
///   of the program has just been given);
/// - `EAGAIN` is returned as a value (`nil`) where a caller drains a
///   non-blocking descriptor, not thrown;
/// - errors that can only come from a bug in this module (`EFAULT`, a bad
///   `sigset_t`, `EBADF` on close) trap;
/// - everything else is thrown as an `Errno`.
///
/// The C name of each call is kept in its doc comment.
enum Syscall {

    // MARK: epoll

    /// `epoll_create1(EPOLL_CLOEXEC)`, epoll_create1(2).
    static func epollCreate() throws(Errno) -> FileDescriptor {
        let fd = try check(retryOnInterrupt: false) { epoll_create1(CInt(EPOLL_CLOEXEC)) }
        return FileDescriptor(rawValue: fd)
    }

    /// `epoll_ctl(epfd, op, fd, &event)`, epoll_ctl(2). It does not block,
    /// so it is never interrupted.
    static func epollControl(
        _ epoll: FileDescriptor, _ operation: CInt, _ fd: FileDescriptor, events: UInt32
    ) throws(Errno) {
        var event = epoll_event()
        event.events = events
        event.data = epoll_data_t(fd: fd.rawValue)
        _ = try check(retryOnInterrupt: false) {
            epoll_ctl(epoll.rawValue, operation, fd.rawValue, &event)
        }
    }

    /// `epoll_wait(epfd, events, maxevents, timeout)`, epoll_wait(2).
    /// Returns how many entries of `events` the kernel filled.
    ///
    /// signal(7): epoll_wait is never restarted after a signal handler, and
    /// fails with `EINTR` even without a handler when the process is stopped
    /// and continued (SIGSTOP/SIGCONT), hence the retry.
    static func epollWait(
        _ epoll: FileDescriptor,
        into events: UnsafeMutableBufferPointer<epoll_event>,
        timeoutMilliseconds: CInt,
        retryOnInterrupt: Bool = true
    ) throws(Errno) -> Int {
        precondition(events.count > 0, "epoll_wait(2): maxevents must be greater than zero")
        // Non-nil as count > 0. glibc 2.41 declares `events` __nonnull (a
        // non-optional pointer in Swift); older headers take an optional one.
        let buffer = events.baseAddress!
        let n = try check(retryOnInterrupt: retryOnInterrupt) {
            epoll_wait(epoll.rawValue, buffer, CInt(events.count), timeoutMilliseconds)
        }
        return Int(n)
    }

    // MARK: timerfd

    /// `timerfd_create(clock, TFD_NONBLOCK | TFD_CLOEXEC)`, timerfd_create(2).
    static func timerfdCreate(clock: clockid_t) throws(Errno) -> FileDescriptor {
        let flags = CInt(TFD_NONBLOCK) | CInt(TFD_CLOEXEC)
        let fd = try check(retryOnInterrupt: false) { timerfd_create(clock, flags) }
        return FileDescriptor(rawValue: fd)
    }

    /// `timerfd_settime(fd, flags, &{interval 0, value}, NULL)`,
    /// timerfd_create(2). A one-shot timer: the interval is always zero.
    /// A `value` of zero disarms the timer.
    static func timerfdSetTime(_ fd: FileDescriptor, flags: CInt, value: timespec) throws(Errno) {
        var spec = itimerspec(it_interval: timespec(tv_sec: 0, tv_nsec: 0), it_value: value)
        _ = try check(retryOnInterrupt: false) { timerfd_settime(fd.rawValue, flags, &spec, nil) }
    }

    // MARK: signals

    /// A `sigset_t` holding exactly `signals` (`sigemptyset`, `sigaddset`,
    /// sigsetops(3)). An invalid signal number is a programming error.
    static func signalSet(_ signals: [CInt]) -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals {
            precondition(sigaddset(&set, signal) == 0, "sigaddset(3): \(signal) is not a valid signal number")
        }
        return set
    }

    /// `pthread_sigmask(how, &set, &old)`, pthread_sigmask(3): changes the
    /// calling thread's mask and returns the previous one. It fails only
    /// for an invalid `how`, a programming error.
    @discardableResult
    static func threadSignalMask(_ how: CInt, _ set: sigset_t) -> sigset_t {
        var set = set
        var old = sigset_t()
        let error = pthread_sigmask(how, &set, &old)
        precondition(error == 0, "pthread_sigmask(3) failed: \(Errno(rawValue: error))")
        return old
    }

    /// `signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC)`, signalfd(2).
    /// linux/signalfd.h defines `SFD_NONBLOCK` as `O_NONBLOCK` and
    /// `SFD_CLOEXEC` as `O_CLOEXEC`.
    static func signalfdCreate(_ set: sigset_t) throws(Errno) -> FileDescriptor {
        var set = set
        let flags = O_NONBLOCK | O_CLOEXEC
        let fd = try check(retryOnInterrupt: false) { signalfd(-1, &set, flags) }
        return FileDescriptor(rawValue: fd)
    }

    // MARK: clocks

    /// `clock_gettime(clock, &ts)`, clock_gettime(2), in nanoseconds. It
    /// fails only for an unknown clock or a bad pointer: programming errors.
    static func clockNanoseconds(_ clock: clockid_t) -> Int64 {
        var ts = timespec()
        let result = clock_gettime(clock, &ts)
        precondition(result == 0, "clock_gettime(2) failed for clock \(clock): \(Errno(rawValue: errno))")
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }

    /// Whether the kernel reports the real-time clock synchronised: an NTP
    /// daemon (systemd-timesyncd, chrony) clears `STA_UNSYNC` once it has set
    /// it. `adjtimex(2)` with no modes only reads; nil when even that is
    /// refused (a sandbox's seccomp filter).
    static func clockSynchronised() -> Bool? {
        var tx = timex()
        let state = adjtimex(&tx)
        guard state >= 0 else { return nil }
        return state != TOCK_TIME_ERROR && tx.status & TOCK_STA_UNSYNC == 0
    }

    /// `clock_nanosleep(clock, TIMER_ABSTIME, &deadline, NULL)`,
    /// clock_nanosleep(2). An absolute deadline makes the retry after
    /// `EINTR` sleep exactly the rest. The call returns the error number
    /// instead of setting errno; apart from `EINTR` it fails only for an
    /// unknown clock or an invalid deadline, programming errors.
    static func sleep(until nanoseconds: Int64, clock: clockid_t, retryOnInterrupt: Bool = true) throws(Errno) {
        var deadline = timespec(tv_sec: time_t(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
        while true {
            let result = clock_nanosleep(clock, TIMER_ABSTIME, &deadline, nil)
            if result == 0 { return }
            let error = Errno(rawValue: result)
            if error == .interrupted {
                if retryOnInterrupt { continue }
                throw error
            }
            preconditionFailure("clock_nanosleep(2) failed for clock \(clock): \(error)")
        }
    }

    // MARK: read, write, close

    /// `read(fd, buffer, count)`, read(2). `nil` when the descriptor is
    /// non-blocking and nothing is pending (`EAGAIN`).
    static func read(
        _ fd: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer, retryOnInterrupt: Bool = true
    ) throws(Errno) -> Int? {
        do {
            return try check(retryOnInterrupt: retryOnInterrupt) {
                Glibc.read(fd.rawValue, buffer.baseAddress, buffer.count)
            }
        } catch where error == .wouldBlock {
            return nil
        }
    }

    /// `write(fd, buffer, count)`, write(2). `nil` when the descriptor is
    /// non-blocking and cannot take more now (`EAGAIN`).
    static func write(
        _ fd: FileDescriptor, _ buffer: UnsafeRawBufferPointer, retryOnInterrupt: Bool = true
    ) throws(Errno) -> Int? {
        do {
            return try check(retryOnInterrupt: retryOnInterrupt) {
                Glibc.write(fd.rawValue, buffer.baseAddress, buffer.count)
            }
        } catch where error == .wouldBlock {
            return nil
        }
    }

    /// `write(fd, bytes, count)`, write(2), of a byte array (one write: a
    /// device such as i2c-dev or spidev makes one transaction of it).
    static func write(
        _ fd: FileDescriptor, _ bytes: [UInt8], retryOnInterrupt: Bool = true
    ) throws(Errno) -> Int? {
        // Array.withUnsafeBytes rethrows untyped; Result keeps the Errno.
        try bytes.withUnsafeBytes { buffer in
            Result { () throws(Errno) in try write(fd, buffer, retryOnInterrupt: retryOnInterrupt) }
        }.get()
    }

    /// `close(fd)`, close(2). Never retried: Linux releases the descriptor
    /// before any error is reported. `EBADF` means this descriptor was
    /// already closed, a broken ownership rule; other errors (`EINTR`,
    /// `EIO` from a device flushing) leave nothing to undo.
    static func close(_ fd: FileDescriptor) {
        if Glibc.close(fd.rawValue) == -1 {
            let error = Errno(rawValue: errno)
            precondition(error != .badFileDescriptor, "close(2): descriptor \(fd.rawValue) was already closed")
        }
    }

    // MARK: files

    /// `open(path, flags, mode)`, open(2), always with `O_CLOEXEC`.
    static func open(_ path: String, _ flags: CInt, mode: mode_t = 0o644) throws(Errno) -> FileDescriptor {
        let fd = try check(retryOnInterrupt: true) { Glibc.open(path, flags | O_CLOEXEC, mode) }
        return FileDescriptor(rawValue: fd)
    }

    /// `fstatat(AT_FDCWD, path)`, stat(2): whether `path` is a named pipe (`S_IFIFO`).
    static func isFIFO(_ path: String) throws(Errno) -> Bool {
        var st = stat()
        _ = try check(retryOnInterrupt: false) { fstatat(AT_FDCWD, path, &st, 0) }
        return st.st_mode & S_IFMT == S_IFIFO
    }

    /// `fsync(fd)`, fsync(2): the data and metadata reach the device.
    static func fsync(_ fd: FileDescriptor) throws(Errno) {
        _ = try check(retryOnInterrupt: true) { Glibc.fsync(fd.rawValue) }
    }

    /// `rename(from, to)`, rename(2): atomic within one file system.
    static func rename(_ from: String, _ to: String) throws(Errno) {
        _ = try check(retryOnInterrupt: false) { Glibc.rename(from, to) }
    }

    /// `unlink(path)`, unlink(2).
    static func unlink(_ path: String) throws(Errno) {
        _ = try check(retryOnInterrupt: false) { Glibc.unlink(path) }
    }

    // MARK: scheduling

    /// `sched_setscheduler(0, policy, {priority})`, sched_setscheduler(2).
    static func setScheduler(policy: CInt, priority: CInt) throws(Errno) {
        var p = sched_param(sched_priority: priority)
        _ = try check(retryOnInterrupt: false) { sched_setscheduler(0, policy, &p) }
    }

    /// `setpriority(PRIO_PROCESS, 0, nice)`, setpriority(2).
    static func setNice(_ nice: CInt) throws(Errno) {
        _ = try check(retryOnInterrupt: false) { setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, nice) }
    }

    // MARK: terminals

    /// `isatty(fd)`, isatty(3).
    static func isTerminal(_ fd: FileDescriptor) -> Bool { isatty(fd.rawValue) == 1 }

    /// `tcgetattr(fd, &t)`, termios(3). `ENOTTY` when `fd` is not a terminal.
    static func terminalAttributes(_ fd: FileDescriptor) throws(Errno) -> termios {
        var attributes = termios()
        _ = try check(retryOnInterrupt: false) { tcgetattr(fd.rawValue, &attributes) }
        return attributes
    }

    /// `tcsetattr(fd, TCSANOW, &t)`, termios(3). It can be interrupted
    /// while a background process group is being stopped by `SIGTTOU`.
    static func setTerminalAttributes(
        _ fd: FileDescriptor, _ attributes: termios, retryOnInterrupt: Bool = true
    ) throws(Errno) {
        var attributes = attributes
        _ = try check(retryOnInterrupt: retryOnInterrupt) { tcsetattr(fd.rawValue, TCSANOW, &attributes) }
    }

    // MARK: devices

    /// `access(path, F_OK)`, access(2): whether `path` exists. A missing
    /// file (`ENOENT`, or `ENOTDIR` for a component that is not a
    /// directory) is the answer false, not an error.
    static func exists(_ path: String) throws(Errno) -> Bool {
        do {
            _ = try check(retryOnInterrupt: false) { access(path, F_OK) }
            return true
        } catch where error == .noSuchFileOrDirectory || error == .notDirectory {
            return false
        }
    }

    /// `ioctl(fd, request, value)`, ioctl(2), with an integer argument
    /// (`I2C_SLAVE`, i2c-dev). The requests used here do not block.
    static func ioctl(_ fd: FileDescriptor, _ request: UInt, value: CInt) throws(Errno) {
        _ = try check(retryOnInterrupt: false) { Glibc.ioctl(fd.rawValue, request, value) }
    }

    /// `ioctl(fd, request, &argument)`, ioctl(2), with a pointer argument
    /// (`SPI_IOC_WR_*`, spidev). The requests used here do not block.
    static func ioctl<T>(_ fd: FileDescriptor, _ request: UInt, pointingTo argument: inout T) throws(Errno) {
        _ = try withUnsafeMutableBytes(of: &argument) { bytes throws(Errno) in
            try check(retryOnInterrupt: false) { Glibc.ioctl(fd.rawValue, request, bytes.baseAddress!) }
        }
    }

    // MARK: errno policy

    /// Runs `call` until it does not fail with `EINTR` (when asked), and
    /// turns the C convention (-1 and `errno`) into a thrown `Errno`.
    static func check<I: FixedWidthInteger>(
        retryOnInterrupt: Bool, _ call: () -> I
    ) throws(Errno) -> I {
        while true {
            let result = call()
            if result != -1 { return result }
            let error = Errno(rawValue: errno)
            if error == .interrupted && retryOnInterrupt { continue }
            precondition(error != .badAddress, "EFAULT: a buffer handed to the kernel was invalid")
            throw error
        }
    }
}


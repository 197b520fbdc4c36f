// The Swift floor: the least a program in Swift costs to count down MM:SS
// on Linux, set beside Tock and the peers (Benchmarks/README.md). The
// standard library and Glibc only. It says "ready", waits on its input pipe
// (the peers' arguments, SECONDS INPUT-FIFO OUT-FILE, and their `start 1`
// line) and then, each second: an absolute CLOCK_MONOTONIC deadline on a
// timerfd, epoll_wait, one clock read, MM:SS, one write to OUT-FILE. It
// stops counting at 00:00 and exits when the pipe closes. floor.c is the C one.
import Glibc

func now() -> Int {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return t.tv_sec * 1_000_000_000 + t.tv_nsec
}

func run(_ seconds: Int, _ input: CInt, _ output: CInt) -> Never {
    let timer = timerfd_create(CLOCK_MONOTONIC, CInt(TFD_CLOEXEC)), poll = epoll_create1(CInt(EPOLL_CLOEXEC))
    for fd in [input, timer] {
        var e = epoll_event(events: EPOLLIN.rawValue, data: epoll_data_t(fd: fd))
        epoll_ctl(poll, EPOLL_CTL_ADD, fd, &e)
    }
    print("ready")
    fflush(stdout)
    var end = 0, next = 0, event = epoll_event(), line = [UInt8](repeating: 0, count: 256), text: [UInt8] = Array("00:00\n".utf8)
    while true {
        guard epoll_wait(poll, &event, 1, -1) == 1 else { continue }
        if event.data.fd == input {
            let n = read(input, &line, line.count)
            if n <= 0 { exit(0) }
            guard end == 0, line.starts(with: "start 1".utf8) else { continue }
            end = now() + seconds * 1_000_000_000
            next = end - seconds * 1_000_000_000
        }
        let left = (max(end - now(), 0) + 999_999_999) / 1_000_000_000  // whole seconds, rounded up
        text[0] = UInt8(48 + left / 600); text[1] = UInt8(48 + left / 60 % 10)
        text[3] = UInt8(48 + left % 60 / 10); text[4] = UInt8(48 + left % 10)
        write(output, text, 6)
        next = next < end ? next + 1_000_000_000 : 0  // 0 disarms it at 00:00
        var spec = itimerspec(it_interval: timespec(), it_value: timespec(tv_sec: next / 1_000_000_000, tv_nsec: next % 1_000_000_000))
        timerfd_settime(timer, CInt(TFD_TIMER_ABSTIME), &spec, nil)
    }
}

let arguments = CommandLine.arguments
guard arguments.count == 4, let seconds = Int(arguments[1]), (0..<6000).contains(seconds) else {
    fputs("usage: floor SECONDS(0-5999) INPUT-FIFO OUT-FILE\n", stderr)
    exit(2)
}
let input = open(arguments[2], O_RDONLY | O_CLOEXEC), output = open(arguments[3], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
guard input >= 0, output >= 0 else {
    perror("floor: " + (input < 0 ? arguments[2] : arguments[3]))
    exit(1)
}
run(seconds, input, output)

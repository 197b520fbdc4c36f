// The floor: the least a Swift program costs on this toolchain, to set
// beside Tock and the peers (Benchmarks/README.md, footprint). The Swift
// runtime and standard library only, no Foundation: it prints "ready" as
// the Foundation Timer peer does, then waits on its input pipe (the peer's
// arguments, SECONDS INPUT-FIFO LOG-FILE; only the pipe is used) until the
// pipe closes or a signal ends it. Built twice by `make bench`: with the
// standard library linked in (as Tock is packaged) and against the shared
// one (as the peer is built).
import Glibc

let arguments = CommandLine.arguments
guard arguments.count == 4 else {
    fputs("usage: floor SECONDS INPUT-FIFO LOG-FILE\n", stderr)
    exit(2)
}
let input = open(arguments[2], O_RDONLY)
print("ready")
fflush(stdout)
var buffer = [UInt8](repeating: 0, count: 256)
while input >= 0, read(input, &buffer, buffer.count) > 0 {}

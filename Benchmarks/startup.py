#!/usr/bin/env python3
"""Instructions, not seconds: what a real service pays to start and to count.

Under valgrind's callgrind (the same binary and inputs give the same count,
whatever else the machine is doing), for each binary given:

- start-up: user-space instructions from exec to ready (READY=1 on the
  notification socket for `tock run`; the line "ready" for the Foundation
  Timer peer), the dynamic loader's relocations included;
- counting: instructions per second of an `MM:SS` count-down, with a
  notification socket as systemd gives the service (so its STATUS= lines
  count), measured over 10 s, 3 s into the count; and the heap
  allocations in the same 10 s, as callgrind's count of calls to malloc
  (and calloc, realloc, posix_memalign, aligned_alloc: Swift's
  swift_slowAlloc calls malloc), per second.

    python3 startup.py --tock NAME=BIN [--tock NAME=BIN ...] [--swift-timer BIN] [--floor NAME=BIN ...] [--out DIR]

Several --tock builds are measured side by side in one run (`make
bench-startup BEFORE=path` adds an earlier build). Prints a Markdown table
and writes it to DIR/TABLE.md with the raw figures in DIR/results.json.
"""
import argparse
import glob
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import callgrind as dumps
import outputs


def callgrind(cmd, work, env=None, stdout=subprocess.DEVNULL):
    stripped = os.path.join(work, "program")
    # valgrind 3.19 cannot read this toolchain's DWARF 5: drop it.
    subprocess.run(["strip", "--strip-debug", "-o", stripped, cmd[0]], check=True)
    out = os.path.join(work, "callgrind.out")
    proc = subprocess.Popen(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", stripped] + cmd[1:],
                            env=env, stdout=stdout, stderr=subprocess.DEVNULL)
    return proc, out


def dump(proc, out, allocs=None):
    """Counters so far, then zeroed (callgrind_control -d). With `allocs`
    (a list), the allocator calls in the dump are appended to it."""
    before = set(glob.glob(out + ".*"))
    subprocess.run(["callgrind_control", "-d", str(proc.pid)], capture_output=True, timeout=120)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        new = set(glob.glob(out + ".*")) - before
        if new:
            time.sleep(0.5)  # let the file be written whole
            path = new.pop()
            if allocs is not None:
                allocs.append(dumps.calls_to(path))
            return dumps.totals(path)
        time.sleep(0.2)
    raise RuntimeError("callgrind wrote no dump")


def notify_socket(work):
    path = os.path.join(work, "notify")
    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    s.bind(path)
    s.settimeout(300)
    return s, path


def tock(binary):
    work = tempfile.mkdtemp(prefix="tock-startup-")
    config = os.path.join(work, "config.yaml")
    with open(config, "w") as f:
        f.write("timer: {presets: [30m]}\n")
    sock, path = notify_socket(work)
    control = os.path.join(work, "control.sock")
    env = dict(os.environ, NOTIFY_SOCKET=path)
    proc, out = callgrind([binary, "run", "--backend", "mock", "--config", config, "--socket", control,
                           "--state", os.path.join(work, "state.json")], work, env=env)
    try:
        while b"READY=1" not in sock.recv(4096):
            pass
        startup = dump(proc, out)
        c = socket.socket(socket.AF_UNIX)
        c.connect(control)
        c.sendall(b'{"cmd":"start"}\n')
        c.recv(4096)
        c.close()
        time.sleep(3)
        dump(proc, out)  # zero
        began = time.monotonic()
        time.sleep(10)
        allocs = []
        counted = dump(proc, out, allocs)
        elapsed = time.monotonic() - began
        per_second = counted / elapsed
    finally:
        proc.terminate()
        proc.wait(timeout=120)
    return {"startup": startup, "per_second": per_second, "allocations_per_second": allocs[0] / elapsed}


def swift_timer(binary):
    return ready_line([binary])


def ready_line(cmd, env=None):
    """A program that takes the peers' arguments (SECONDS INPUT-FIFO
    LOG-FILE) and prints "ready": the Foundation Timer peer, the Python
    peer (cmd: the interpreter and its script) and the floor programs."""
    work = tempfile.mkdtemp(prefix="tock-startup-")
    fifo = os.path.join(work, "input")
    os.mkfifo(fifo)
    keep = os.open(fifo, os.O_RDWR)  # the peer's input stays open
    proc, out = callgrind(cmd + ["60", fifo, os.path.join(work, "log")], work, env=env, stdout=subprocess.PIPE)
    try:
        if proc.stdout.readline().strip() != b"ready":
            raise RuntimeError(f"{cmd[-1]} did not start")
        startup = dump(proc, out)
    finally:
        proc.terminate()
        proc.wait(timeout=120)
        os.close(keep)
    return {"startup": startup}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tock", action="append", required=True, metavar="NAME=BIN")
    ap.add_argument("--swift-timer")
    ap.add_argument("--floor", action="append", default=[], metavar="NAME=BIN",
                    help="a floor program (Benchmarks/peers/Floor): says ready, waits")
    ap.add_argument("--out")
    args = ap.parse_args()
    rows = []
    for spec in args.tock:
        name, binary = spec.split("=", 1)
        print(f"startup: {name} ...", file=sys.stderr, flush=True)
        rows.append({"program": name, **tock(binary)})
    if args.swift_timer:
        print("startup: Foundation Timer peer ...", file=sys.stderr, flush=True)
        rows.append({"program": "Foundation Timer peer", **swift_timer(args.swift_timer), "per_second": None})
    for spec in args.floor:
        name, binary = spec.split("=", 1)
        print(f"startup: {name} ...", file=sys.stderr, flush=True)
        rows.append({"program": name, **ready_line([binary]), "per_second": None})
    lines = ["| program | instructions to ready | instructions per second counting MM:SS (with NOTIFY_SOCKET) "
             "| heap allocations per second counting |",
             "|---|---|---|---|"]
    for r in rows:
        per = f"{r['per_second']:,.0f}" if r.get("per_second") else "not measured"
        allocs = f"{r['allocations_per_second']:.1f}" if r.get("allocations_per_second") is not None else "not measured"
        lines.append(f"| {r['program']} | {r['startup'] / 1e6:.1f} M | {per} | {allocs} |")
    outputs.write(args.out, "\n".join(lines) + "\n", rows)


if __name__ == "__main__":
    main()

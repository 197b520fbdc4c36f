"""The footprint of tock run (a mock box, idle in ready) and of tock-web
beside it: resident memory after start-up (VmRSS, VmHWM), and the
instructions of start-up counted by callgrind (from exec until the control
socket answers or the port accepts, plus 2 s idle, then SIGTERM). Each
binary is measured ROUNDS times; the table has the medians.

The binaries are measured stripped, as the package ships them (valgrind
3.19 cannot read the DWARF 5 of a release build either).

Usage: footprint.py OUT.md --tock NAME=PATH... [--web PATH] [--rounds N]"""
import argparse
import glob
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import callgrind  # noqa: E402
import memory  # noqa: E402


def wait(ok, seconds=120):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if ok():
            return
        time.sleep(0.05)
    raise SystemExit("did not come up")


def listening(port):
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
        return True
    except OSError:
        return False


def rss(pid):
    fields = memory.status(pid)
    return fields["VmRSS"], fields["VmHWM"]


def box(tock, d, prefix=()):
    sock = os.path.join(d, "control.sock")
    p = subprocess.Popen([*prefix, tock, "run", "--backend", "mock", "--socket", sock, "--state", os.path.join(d, "state.json")],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait(lambda: os.path.exists(sock))
    return p, sock


def stop(p):
    p.send_signal(signal.SIGTERM)
    p.wait(timeout=60)


def instructions(out):
    total = callgrind.totals(out)
    if not total:
        raise SystemExit(f"{out}: no summary")
    return total


def measure_tock(tock):
    with tempfile.TemporaryDirectory() as d:
        p, _ = box(tock, d)
        time.sleep(2)
        memory = rss(p.pid)
        stop(p)
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "cg.out")
        p, _ = box(tock, d, ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"])
        time.sleep(2)
        stop(p)
        return memory, instructions(out)


def measure_web(tock, web):
    with tempfile.TemporaryDirectory() as d:
        b, sock = box(tock, d)
        port = 18000 + os.getpid() % 1000
        args = [web, "--listen", "127.0.0.1", "--port", str(port), "--socket", sock, "--tokens", os.path.join(d, "t.json")]
        p = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait(lambda: listening(port))
        time.sleep(2)
        memory = rss(p.pid)
        stop(p)
        out = os.path.join(d, "cg.out")
        p = subprocess.Popen(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *args],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait(lambda: listening(port))
        time.sleep(2)
        stop(p)
        stop(b)
        total = sum(instructions(f) for f in glob.glob(out + "*"))
        return memory, total


def main():
    a = argparse.ArgumentParser()
    a.add_argument("out")
    a.add_argument("--tock", action="append", required=True)
    a.add_argument("--web")
    a.add_argument("--rounds", type=int, default=3)
    args = a.parse_args()
    work = tempfile.mkdtemp(prefix="footprint-")

    def stripped(path, name):
        out = os.path.join(work, name)
        subprocess.run(["strip", "--strip-unneeded", "-o", out, path], check=True)
        return out

    args.tock = [f"{n}={stripped(p, 'tock-' + n)}" for n, p in (t.split("=", 1) for t in args.tock)]
    if args.web:
        args.web = stripped(args.web, "tock-web")
    rows = []
    for spec in args.tock:
        name, path = spec.split("=", 1)
        runs = [measure_tock(path) for _ in range(args.rounds)]
        rows.append((f"tock run ({name})", runs))
        print(name, [r[1] for r in runs], flush=True)
    if args.web:
        last = args.tock[-1].split("=", 1)[1]
        rows.append(("tock-web", [measure_web(last, args.web) for _ in range(args.rounds)]))
    with open(args.out, "w") as f:
        f.write("| process | VmRSS (KiB) | VmHWM (KiB) | start-up instructions (callgrind) |\n|---|---|---|---|\n")
        for name, runs in rows:
            f.write(f"| {name} | {statistics.median(r[0][0] for r in runs):.0f} | {statistics.median(r[0][1] for r in runs):.0f} "
                    f"| {statistics.median(r[1] for r in runs):,.0f} |\n")
    print(open(args.out).read())


if __name__ == "__main__":
    main()

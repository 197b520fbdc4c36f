#!/usr/bin/env python3
"""The files one Start press crosses, counted rather than typed.

    Benchmarks/press_path.py TOCK [--write docs/architecture.md]   (make press-path)

`tock run` on the mock backend (the Reactor, epoll and timerfds as on a
board; the mock lines read from a FIFO where libgpiod reads a line's event
descriptor; a TM1637 on mock lines) runs under callgrind with every
instruction's address recorded. Two windows of the same length follow
each other in one run: nothing pressed, then Start pressed and released
(timer mode, ready, a 5-minute preset). Each instruction's cost goes to the
source file the binary's line table names for its address (the innermost
one, where the code is written, however it was inlined). A file is on the
press's path when the press window spends more in it than the quiet one.

The table goes to standard output; --write puts it in the document between
`<!-- press-path -->` and `<!-- /press-path -->`.
"""
import argparse
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import callgrind  # noqa: E402

WINDOW = 1.5  # seconds in each window
CONFIG = "mode: timer\nswitch: down\ntimer: {presets: [5m]}\n"
SOURCES = re.compile(r"(?:^|/)Sources/([^/]+)/(.+)$")


def run(tock, work):
    """(quiet dump, press dump) of one run."""
    with open(os.path.join(work, "config.yaml"), "w") as f:
        f.write(CONFIG)
    fifo = os.path.join(work, "in")
    os.mkfifo(fifo)
    stripped = os.path.join(work, "tock")
    # valgrind 3.19 cannot read this toolchain's DWARF 5: it runs a copy
    # without it; the line table is read from the original by addr2line.
    subprocess.run(["strip", "--strip-debug", "-o", stripped, tock], check=True)
    out = os.path.join(work, "cg.out")
    log = open(os.path.join(work, "log"), "w")
    proc = subprocess.Popen(["valgrind", "--tool=callgrind", "--dump-instr=yes", "--demangle=no",
                             f"--callgrind-out-file={out}", stripped, "run", "--backend", "mock",
                             "--config", os.path.join(work, "config.yaml"), "--mock-input", fifo],
                            stdout=log, stderr=log, cwd=work)
    writer = os.open(fifo, os.O_RDWR)
    try:
        time.sleep(15)  # start-up under valgrind

        def window(action):
            before = set(os.listdir(work))
            subprocess.run(["callgrind_control", "-z", str(proc.pid)], capture_output=True, check=True)
            action()
            time.sleep(WINDOW)
            subprocess.run(["callgrind_control", "-d", str(proc.pid)], capture_output=True, check=True)
            for _ in range(100):
                new = [n for n in set(os.listdir(work)) - before if n.startswith("cg.out.")]
                if new:
                    return os.path.join(work, new[0])
                time.sleep(0.1)
            raise RuntimeError("callgrind wrote no dump; see " + os.path.join(work, "log"))

        def press():
            os.write(writer, b"start 1\n")
            time.sleep(0.2)
            os.write(writer, b"start 0\n")

        quiet = window(lambda: None)
        pressed = window(press)
    finally:
        proc.terminate()
        proc.wait(timeout=60)
        os.close(writer)
    return quiet, pressed


def per_file(tock, dump, bias, cache):
    """{file: Ir} for the instructions of `tock` in `dump`; others by object."""
    costs = collections.Counter()
    mine = {}
    for (obj, addr), ir in callgrind.per_address(dump).items():
        if obj and os.path.basename(obj) == "tock":
            mine[addr - bias] = mine.get(addr - bias, 0) + ir
        else:
            costs["(outside tock) " + os.path.basename(obj or "?")] += ir
    todo = [a for a in mine if a not in cache]
    if todo:
        res = subprocess.run(["addr2line", "-e", tock, "-a", "-i"], input="\n".join(hex(a) for a in todo) + "\n",
                             capture_output=True, text=True, check=True).stdout.splitlines()
        current = None
        for line in res:
            if line.startswith("0x"):
                current = int(line, 16)
            elif current is not None:
                cache[current] = line.rsplit(":", 1)[0]
                current = None
    for addr, ir in mine.items():
        costs[cache.get(addr, "??")] += ir
    return costs


def name(path):
    m = SOURCES.search(path)
    return (m.group(1), f"Sources/{m.group(1)}/{m.group(2)}") if m else (None, path)


def table(quiet, pressed):
    rows = []
    for f in pressed:
        if pressed[f] > quiet.get(f, 0):
            rows.append((name(f), quiet.get(f, 0), pressed[f]))
    rows.sort(key=lambda r: (r[0][0] is None, r[0][0] or "", r[0][1]))
    tock_files = [r for r in rows if r[0][0]]
    modules = sorted({r[0][0] for r in tock_files})
    lines = [f"A Start press (timer mode, ready) crosses **{len(tock_files)} of Tock's files in "
             f"{len(modules)} modules** ({', '.join(modules)}); instructions in each, "
             f"in {WINDOW} s with the press and in {WINDOW} s without, from `make press-path`:", "",
             "| file | pressed | quiet |", "|---|---:|---:|"]
    for (module, f), q, p in rows:
        if module:
            lines.append(f"| `{f}` | {p:,} | {q:,} |")
    outside = [r for r in rows if not r[0][0]]
    lines.append("")
    lines.append("Outside Tock's sources (the Swift runtime and standard library, libc, "
                 "the libraries linked in): " + ", ".join(
                     f"{os.path.basename(f).replace('(outside tock) ', '')} {p - q:+,}" for (_, f), q, p in
                     sorted(outside, key=lambda r: -(r[2] - r[1]))[:8]) + ".")
    return "\n".join(lines) + "\n"


def write(doc, text):
    s = open(doc).read()
    a, b = "<!-- press-path -->\n", "<!-- /press-path -->"
    if a not in s or b not in s:
        sys.exit(f"{doc}: no {a.strip()} ... {b} section to write into")
    s = s[:s.index(a) + len(a)] + text + s[s.index(b):]
    open(doc, "w").write(s)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("tock")
    p.add_argument("--write", metavar="DOC")
    a = p.parse_args()
    for tool in ("valgrind", "callgrind_control", "addr2line", "strip", "nm"):
        if not shutil.which(tool):
            sys.exit(f"press_path: {tool} is missing (apt-get install valgrind binutils)")
    work = tempfile.mkdtemp()
    try:
        quiet, pressed = run(a.tock, work)
        bias = callgrind.load_bias(os.path.join(work, "tock"), pressed)
        cache = {}
        text = table(per_file(a.tock, quiet, bias, cache), per_file(a.tock, pressed, bias, cache))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(text, end="")
    if a.write:
        write(a.write, text)


if __name__ == "__main__":
    main()

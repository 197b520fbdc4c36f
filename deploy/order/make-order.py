#!/usr/bin/env python3
"""The link order of the functions the box runs: deploy/order/tock.order.

    deploy/order/make-order.py TOCK [--out deploy/order/tock.order]   (make order-file)

The kernel maps a program's code in 64 KiB around each page it faults in
(fault-around), so code spread over 7.7 MB of text makes each stage of
start-up and a first press resident in 4-5 MB. Linked with the functions
that run placed together (lld's --symbol-ordering-file, each function in a
section of its own), the same work touches a few hundred KiB.

TOCK, a release build, runs under callgrind on the mock backend (the
reactor, epoll, timerfds and the TM1637 driver on mock lines, as on a
board), its counters dumped after each stage: start-up to ready, a Start
press, a count's seconds, Stop and Reset, the stopwatch's hundredths, and
the count with the MQTT link up to a local mosquitto; then as tock-web
(Tests/web/harness.py's box) while a browser's requests pair, load the
page, read the status and follow the live display. The file lists the
functions of TOCK each stage ran, those of the seconds first (resident for
as long as the box runs), then the presses', then start-up's and the
link's, then the page's: mangled names, one a line. A name the next build no longer has is
skipped by the linker (--no-warn-symbol-ordering); `check-order.py` says
how much of a build the file still covers.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
NAME = re.compile(r"^(c?ob|c?fn)=\((\d+)\)(?: (.*))?$")


def functions(dump, program):
    """The functions of `program` with a cost in one callgrind dump."""
    objects, names, ob, found = {}, {}, None, []
    with open(dump, errors="replace") as f:
        for line in f:
            m = NAME.match(line.rstrip("\n"))
            if not m:
                continue
            kind, ident, name = m.groups()
            table = objects if kind.endswith("ob") else names
            if name:
                table[ident] = name
            if kind == "ob":
                ob = objects[ident]
            elif kind == "fn" and ob == program and names[ident] not in found:
                # Not a symbol: callgrind's name for a recursive call
                # (`f'2`), an address where the table has no name.
                if "'" not in names[ident] and not names[ident].startswith("0x"):
                    found.append(names[ident])
    return found


def dump(pid, work, program):
    """The functions of `program` run since the last dump of process `pid`
    (callgrind acts at its next wake-up and writes `cg.out.N` in `work`)."""
    before = set(os.listdir(work))
    subprocess.run(["callgrind_control", "-d", str(pid)], capture_output=True, check=True)
    end = time.monotonic() + 30
    while time.monotonic() < end:
        new = [n for n in set(os.listdir(work)) - before if n.startswith("cg.out.")]
        if new:
            time.sleep(0.5)  # written whole
            return functions(os.path.join(work, new[0]), program)
        time.sleep(0.2)
    sys.exit(f"make-order: callgrind wrote no dump in {work}")


class Run:
    """`tock run` on the mock backend under callgrind, pressed through a FIFO."""

    def __init__(self, tock, work, config):
        self.work = work
        os.makedirs(work)
        with open(os.path.join(work, "config.yaml"), "w") as f:
            f.write(config)
        fifo = os.path.join(work, "in")
        os.mkfifo(fifo)
        self.program = os.path.join(work, "tock")
        # valgrind 3.19 cannot read this toolchain's DWARF 5.
        subprocess.run(["strip", "--strip-debug", "-o", self.program, tock], check=True)
        self.proc = subprocess.Popen(
            ["valgrind", "--tool=callgrind", "--demangle=no", f"--callgrind-out-file={work}/cg.out",
             self.program, "run", "--backend", "mock", "--config", f"{work}/config.yaml", "--mock-input", fifo,
             "--state", f"{work}/state.json", "--socket", f"{work}/control.sock"],
            stdout=open(f"{work}/log", "w"), stderr=subprocess.STDOUT, cwd=work)
        self.fifo = os.open(fifo, os.O_RDWR)
        self.dumps = 0
        self.wait_for("ready: ", 120)

    def wait_for(self, text, timeout):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if text in open(f"{self.work}/log", errors="replace").read():
                return
            if self.proc.poll() is not None:
                sys.exit(f"make-order: tock stopped: {open(f'{self.work}/log').read()[-2000:]}")
            time.sleep(0.5)
        sys.exit(f"make-order: no `{text}` within {timeout} s: {open(f'{self.work}/log').read()[-2000:]}")

    def press(self, button):
        os.write(self.fifo, f"{button} 1 0\n".encode())
        time.sleep(0.3)
        os.write(self.fifo, f"{button} 0 0\n".encode())

    def dump(self):
        return dump(self.proc.pid, self.work, self.program)

    def count(self, startup, presses, seconds, settle=0):
        """Start-up's functions, then a Start press's and the count's first
        seconds', then a few seconds' more, each added to its list."""
        time.sleep(settle)
        startup += self.dump()
        self.press("start")
        time.sleep(3)
        presses += self.dump()
        time.sleep(3)
        seconds += self.dump()

    def stop(self):
        self.proc.send_signal(2)
        self.proc.wait(60)


def web(tock, work):
    """The functions tock-web ran: (start-up, serving a paired page)."""
    sys.path.insert(0, os.path.join(HERE, "..", "..", "Tests", "web"))
    from harness import Box
    import http.client
    os.makedirs(work)
    program = os.path.join(work, "tock")
    subprocess.run(["strip", "--strip-debug", "-o", program, tock], check=True)
    os.symlink("tock", os.path.join(work, "tock-web"))
    wrapper = os.path.join(work, "tock-web-under-callgrind")
    with open(wrapper, "w") as f:
        f.write(f"#!/bin/sh\nexec valgrind --tool=callgrind --demangle=no --callgrind-out-file={work}/cg.out "
                f"{work}/tock-web \"$@\"\n")
    os.chmod(wrapper, 0o755)
    box = Box(tock, wrapper)
    try:
        started = dump(box.web.pid, work, program)
        cookie = {"Cookie": f"tock_token={box.pair()}"}
        page = http.client.HTTPConnection("127.0.0.1", box.port, timeout=30)
        page.request("GET", "/", headers=cookie)
        page.getresponse().read()
        page.close()
        box.http("GET", "/api/status", headers=cookie)
        live = http.client.HTTPConnection("127.0.0.1", box.port, timeout=30)
        live.request("GET", "/api/events", headers=cookie)
        live.getresponse()
        box.http("POST", "/api/start", headers=cookie)
        time.sleep(4)
        served = dump(box.web.pid, work, program)
        live.close()
        return started, served
    finally:
        box.stop()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("tock")
    ap.add_argument("--out", default=os.path.join(HERE, "tock.order"))
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix="tock-order-")
    broker = None
    try:
        seconds, presses, startup = [], [], []

        timer = Run(args.tock, f"{work}/timer", "mode: timer\nswitch: down\ntimer: {presets: [10m]}\n")
        timer.count(startup, presses, seconds)
        for b in ("stop", "reset", "start", "stop", "reset"):
            timer.press(b)
            time.sleep(1)
        presses += timer.dump()
        timer.stop()

        stopwatch = Run(args.tock, f"{work}/stopwatch", "mode: stopwatch\nswitch: up\n")
        stopwatch.count(startup, presses, seconds)
        stopwatch.stop()

        if shutil.which("mosquitto"):
            port = 20000 + os.getpid() % 20000
            broker = subprocess.Popen(["mosquitto", "-p", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            linked = Run(args.tock, f"{work}/mqtt", "mode: timer\nswitch: down\ntimer: {presets: [10m]}\n"
                         f"mqtt: {{host: 127.0.0.1, port: {port}, client_id: order}}\n")
            linked.count(startup, presses, seconds, settle=3)  # connected first
            linked.stop()
        else:
            print("make-order: no mosquitto here: the MQTT link's functions are left out of the order", file=sys.stderr)

        web_started, web_served = web(args.tock, f"{work}/web")

        order, seen = [], set()
        for name in seconds + presses + startup + web_served + web_started:
            if name not in seen:
                seen.add(name)
                order.append(name)
        with open(args.out, "w") as f:
            f.write("".join(n + "\n" for n in order))
        box = set(seconds) | set(presses) | set(startup)
        print(f"make-order: {len(order)} functions ({len(set(seconds))} in the seconds, "
              f"{len(set(presses) - set(seconds))} more in the presses, {len(box)} in tock run in all, "
              f"{len(order) - len(box)} more in tock-web) -> {args.out}")
    finally:
        if broker:
            broker.terminate()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()

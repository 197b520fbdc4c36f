#!/usr/bin/env python3
"""What an open page costs the box: user-space instructions a second of
`tock-web` and of `tock run` (valgrind's callgrind: a count that does not
depend on the machine's noise) with 0, 1, 2 and 5 live displays open, and
the bytes a second each display is sent, on

- a stopwatch in its first minute (hundredths: 100 display changes a second),
- a count-down (one change a second),

and the page's first load and reload in bytes, and `tock-web`'s resident
memory with 5 displays open (not under valgrind).

Each build is a pair (`tock`, `tock-web`); with --before-tock/--before-web
an older pair is measured in the same run, one phase after the other, so
that the machine's state is the same for both. A live display here is what
the page's EventSource is on the box's side: an HTTP client reading
`/api/events` as it comes.

    python3 web_cost.py --tock T --tock-web W [--before-tock T0 --before-web W0]
                        [--seconds 8] [--json out.json]
"""
import argparse
import contextlib
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "web"))
from harness import free_port  # noqa: E402
import callgrind  # noqa: E402
import memory  # noqa: E402


def wait(ok, what, seconds):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if ok():
            return
        time.sleep(0.1)
    raise RuntimeError(f"{what} did not come within {seconds} s")


def listening(port):
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
        return True
    except OSError:
        return False


def stripped(binary, work):
    """valgrind 3.19 cannot read this toolchain's DWARF 5: a copy without it."""
    out = os.path.join(work, os.path.basename(binary) + "-" + str(abs(hash(binary))))
    subprocess.run(["strip", "--strip-debug", "-o", out, binary], check=True)
    return out


class Callgrind:
    """A process under callgrind: zero, then read, its instruction count."""

    def __init__(self, cmd, work, name, stderr):
        self.out = os.path.join(work, f"cg-{name}")
        self.proc = subprocess.Popen(["valgrind", "--tool=callgrind", f"--callgrind-out-file={self.out}.%p"] + cmd,
                                     stdout=subprocess.DEVNULL, stderr=stderr)
        self.work = work

    def zero(self):
        subprocess.run(["callgrind_control", "-z", str(self.proc.pid)], capture_output=True, timeout=120, check=True)

    def dump(self):
        """Instructions since the last zero (callgrind_control -d writes a file with them)."""
        before = set(os.listdir(self.work))
        subprocess.run(["callgrind_control", "-d", str(self.proc.pid)], capture_output=True, timeout=120, check=True)
        wait(lambda: set(os.listdir(self.work)) - before, "callgrind's dump", 60)
        new = sorted(set(os.listdir(self.work)) - before)
        return callgrind.total(os.path.join(self.work, f) for f in new)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


class Display(threading.Thread):
    """One live display: reads /api/events, counting bytes and events."""

    def __init__(self, port, token):
        super().__init__(daemon=True)
        self.port, self.token = port, token
        self.bytes = self.events = 0
        self.stopping = False
        self.ready = threading.Event()

    def run(self):
        s = socket.create_connection(("127.0.0.1", self.port), timeout=60)
        s.sendall(f"GET /api/events HTTP/1.1\r\nHost: tock.local\r\nCookie: tock_token={self.token}\r\n"
                  f"Accept: text/event-stream\r\n\r\n".encode())
        s.settimeout(0.5)
        while not self.stopping:
            try:
                chunk = s.recv(65536)
            except socket.timeout:
                continue
            if not chunk:
                break
            self.bytes += len(chunk)
            self.events += chunk.count(b"data: ")
            if self.events:
                self.ready.set()
        s.close()

    def close(self):
        self.stopping = True
        self.join(timeout=5)


class Build:
    def __init__(self, name, tock, web, work):
        self.name, self.tock_bin, self.web_bin = name, tock, web
        self.dir = tempfile.mkdtemp(prefix=f"web-cost-{name}-", dir=work)
        self.socket = os.path.join(self.dir, "control.sock")
        self.tokens = os.path.join(self.dir, "tokens.json")
        self.config = os.path.join(self.dir, "config.yaml")
        with open(self.config, "w") as f:
            f.write("switch: up\nmode: stopwatch\ntimer: {presets: [30m]}\n")
        self.log = open(os.path.join(self.dir, "log"), "w")
        self.box = self.web = None

    def cli(self, *args):
        return subprocess.run([self.tock_bin, *args, "--socket", self.socket, "--timeout", "30s"],
                              capture_output=True, text=True, timeout=120)

    def start(self, entry):
        json.dump([entry], open(self.tokens, "w"))
        self.box = Callgrind([stripped(self.tock_bin, self.dir), "run", "--backend", "mock", "--config", self.config,
                              "--socket", self.socket, "--state", os.path.join(self.dir, "state.json")], self.dir, "tock", self.log)
        wait(lambda: os.path.exists(self.socket) and self.cli("status").returncode == 0, f"{self.name}: tock under valgrind", 300)
        self.port = free_port()
        self.web = Callgrind([stripped(self.web_bin, self.dir), "--listen", "127.0.0.1", "--port", str(self.port),
                              "--socket", self.socket, "--tokens", self.tokens], self.dir, "web", self.log)
        wait(lambda: listening(self.port), f"{self.name}: tock-web under valgrind", 300)

    def stop(self):
        for p in (self.web, self.box):
            if p:
                p.stop()


@contextlib.contextmanager
def served(tock, web, work, prefix, tokens_entry=None):
    """A mock box and its tock-web, not under valgrind: yields (control
    socket, tokens file, port); both stopped at the end."""
    d = tempfile.mkdtemp(prefix=prefix, dir=work)
    sock, tokens, port = os.path.join(d, "s"), os.path.join(d, "tokens.json"), free_port()
    if tokens_entry:
        json.dump([tokens_entry], open(tokens, "w"))
    box = subprocess.Popen([tock, "run", "--backend", "mock", "--socket", sock, "--state", os.path.join(d, "state.json")],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    srv = None
    try:
        wait(lambda: os.path.exists(sock), "tock", 30)
        srv = subprocess.Popen([web, "--listen", "127.0.0.1", "--port", str(port), "--socket", sock, "--tokens", tokens],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait(lambda: listening(port), "tock-web", 30)
        yield sock, tokens, port, srv
    finally:
        for p in (srv, box):
            if p:
                p.terminate()
                p.wait()


def pair_token(tock, web, work):
    """A token as tock-web writes it, made by pairing with the display's code
    (the format of the tokens file is tock-web's business)."""
    with served(tock, web, work, "web-cost-pair-") as (sock, tokens, port, _):
        post = lambda path, body: urllib.request.urlopen(urllib.request.Request(
            f"http://127.0.0.1:{port}{path}", data=json.dumps(body).encode(), method="POST",
            headers={"Content-Type": "application/json"}), timeout=10)
        post("/api/pair/request", {})
        code = json.loads(subprocess.run([tock, "status", "--json", "--socket", sock], capture_output=True, text=True).stdout)["display"]
        post("/api/pair", {"code": code, "name": "bench"})
        return json.load(open(tokens))[-1]


def page_bytes(tock, web, token_entry, work):
    """The first load's and a reload's bytes (headers and bodies of the page's
    five files, as a browser asks them: gzip accepted, then with the
    ETags it got), and tock-web's resident memory with 5 displays open."""
    with served(tock, web, work, "web-cost-load-", token_entry) as (_, _, port, srv):
        def load(tags):
            total, got = 0, {}
            for path in ("/", "/app.js", "/app.css", "/icon.svg", "/manifest.webmanifest"):
                s = socket.create_connection(("127.0.0.1", port), timeout=10)
                extra = f"If-None-Match: {tags[path]}\r\n" if path in tags else ""
                s.sendall(f"GET {path} HTTP/1.1\r\nHost: tock.local\r\nAccept-Encoding: gzip, deflate, br\r\n{extra}Connection: close\r\n\r\n".encode())
                data = b""
                while chunk := s.recv(65536):
                    data += chunk
                s.close()
                total += len(data)
                head = data.split(b"\r\n\r\n", 1)[0].decode().lower()
                for line in head.split("\r\n"):
                    if line.startswith("etag:"):
                        got[path] = line.split(":", 1)[1].strip()
            return total, got
        first, tags = load({})
        again, _ = load(tags)
        displays = [Display(port, token_entry["token"]) for _ in range(5)]
        for x in displays:
            x.start()
        for x in displays:
            x.ready.wait(10)
        time.sleep(2)
        rss = memory.status(srv.pid)["VmRSS"]
        for x in displays:
            x.close()
        return {"first_load_bytes": first, "reload_bytes": again, "rss_kib_5_displays": rss}


def measure(build, token, seconds, counts):
    """For each count of displays, instructions a second of tock-web and
    tock, and bytes and events a second per display, on a fresh stopwatch
    (first minute) and on a running 30-minute count-down."""
    rows = []
    for scene in ("stopwatch", "countdown"):
        for n in counts:
            # A fresh count for each: the stopwatch stays in its first minute.
            build.cli("stop"), build.cli("reset")
            if scene == "stopwatch":
                build.cli("mode", "stopwatch"), build.cli("switch", "up")
            else:
                build.cli("mode", "timer"), build.cli("switch", "down"), build.cli("set", "30m")
            build.cli("reset")
            r = build.cli("start")
            if r.returncode != 0:
                raise RuntimeError(f"{build.name}: tock start: {r.stdout}{r.stderr}")
            displays = [Display(build.port, token) for _ in range(n)]
            for x in displays:
                x.start()
            for x in displays:
                if not x.ready.wait(120):
                    raise RuntimeError(f"{build.name}: a live display got nothing in 120 s")
            time.sleep(2)
            b0 = [x.bytes for x in displays]
            e0 = [x.events for x in displays]
            build.web.zero(), build.box.zero()
            began = time.monotonic()
            time.sleep(seconds)
            web, box = build.web.dump(), build.box.dump()
            took = time.monotonic() - began
            per_bytes = [(x.bytes - b) / took for x, b in zip(displays, b0)]
            per_events = [(x.events - e) / took for x, e in zip(displays, e0)]
            for x in displays:
                x.close()
            rows.append({"build": build.name, "scene": scene, "displays": n, "seconds": took,
                         "tock_web_instructions_per_s": web / took, "tock_instructions_per_s": box / took,
                         "bytes_per_s_per_display": statistics.mean(per_bytes) if per_bytes else 0,
                         "events_per_s_per_display": statistics.mean(per_events) if per_events else 0})
            print(f"{build.name:>6} {scene:>9} {n} display(s): tock-web {web / took:>12,.0f} instr/s, tock {box / took:>12,.0f} instr/s, "
                  f"{rows[-1]['events_per_s_per_display']:.1f} events/s and {rows[-1]['bytes_per_s_per_display']:,.0f} B/s a display",
                  file=sys.stderr, flush=True)
    return rows


def table(rows, loads):
    names = list(dict.fromkeys(r["build"] for r in rows))
    out = ["| scene | displays | " + " | ".join(f"tock-web instr/s ({n}) | tock instr/s ({n}) | events/s a display ({n})" for n in names) + " |",
           "|---|---|" + "---|---|---|" * len(names)]
    for scene in ("stopwatch", "countdown"):
        for n in sorted({r["displays"] for r in rows}):
            cells = []
            for name in names:
                r = next(x for x in rows if x["build"] == name and x["scene"] == scene and x["displays"] == n)
                cells += [f"{r['tock_web_instructions_per_s']:,.0f}", f"{r['tock_instructions_per_s']:,.0f}", f"{r['events_per_s_per_display']:.1f}"]
            out.append(f"| {scene} | {n} | " + " | ".join(cells) + " |")
    out.append("")
    out.append("| build | first load, bytes | reload, bytes | tock-web resident with 5 displays |")
    out.append("|---|---|---|---|")
    for name in names:
        l = loads[name]
        out.append(f"| {name} | {l['first_load_bytes']:,} | {l['reload_bytes']:,} | {l['rss_kib_5_displays'] / 1024:.1f} MiB |")
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tock", required=True)
    ap.add_argument("--tock-web", required=True)
    ap.add_argument("--before-tock")
    ap.add_argument("--before-web")
    ap.add_argument("--seconds", type=float, default=8)
    ap.add_argument("--displays", default="0,1,2,5")
    ap.add_argument("--json")
    args = ap.parse_args()
    if not shutil.which("valgrind"):
        sys.exit("web_cost: valgrind is not installed (apt-get install valgrind)")
    work = tempfile.mkdtemp(prefix="web-cost-")
    builds = [("now", args.tock, args.tock_web)]
    if args.before_web:
        builds.insert(0, ("before", args.before_tock or args.tock, args.before_web))
    entry = pair_token(args.tock, args.tock_web, work)
    counts = [int(x) for x in args.displays.split(",")]
    rows, loads = [], {}
    for name, tock, web in builds:
        loads[name] = page_bytes(tock, web, entry, work)
        b = Build(name, tock, web, work)
        try:
            b.start(entry)
            rows += measure(b, entry["token"], args.seconds, counts)
        finally:
            b.stop()
    text = table(rows, loads)
    print(text)
    if args.json:
        json.dump({"rows": rows, "loads": loads, "seconds": args.seconds}, open(args.json, "w"), indent=1)
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()

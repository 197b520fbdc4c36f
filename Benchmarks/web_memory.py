#!/usr/bin/env python3
"""tock-web's resident memory with a live page, for each program given.

    Benchmarks/web_memory.py [--wait S] NAME=TOCK [NAME=TOCK ...]   (make bench-web-memory)

Each TOCK is run as the appliance (mock backend) and, by the name
tock-web, as the page's server (Tests/web/harness.py). A browser's visit
is played over HTTP: paired by the code the box shows, the page loaded,
the status read, the live display (`/api/events`) opened and kept open,
and Start pressed so that the stream carries a count. After --wait
seconds (65 by default: tock-web lets its read-only pages go once a
minute, `ImagePages.every`) tock-web's resident memory is read
(Benchmarks/memory.py), with its peak, its anonymous part, how much of
the program's image is resident, and the minor faults taken from 5 s on.
"""
import argparse
import http.client
import os
import shutil
import sys
import tempfile
import threading
import time

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
sys.path.insert(0, os.path.join(here, "..", "Tests", "web"))
import memory  # noqa: E402
from harness import Box  # noqa: E402


def image_rss(pid, path):
    """kB of the program's own file resident (every mapping of it)."""
    total, mapped = 0, None
    with open(f"/proc/{pid}/smaps") as f:
        for line in f:
            parts = line.split()
            if "-" in parts[0] and len(parts) >= 5:
                mapped = parts[5] if len(parts) > 5 else None
            elif parts[0] == "Rss:" and mapped == path:
                total += int(parts[1])
    return total


def minor_faults(pid):
    with open(f"/proc/{pid}/stat") as f:
        return int(f.read().rsplit(")", 1)[1].split()[7])


def measure(tock, wait):
    work = tempfile.mkdtemp()
    try:
        shutil.copy(tock, os.path.join(work, "tock"))
        os.symlink("tock", os.path.join(work, "tock-web"))
        box = Box(os.path.join(work, "tock"), os.path.join(work, "tock-web"))
        try:
            cookie = {"Cookie": f"tock_token={box.pair()}"}
            page = http.client.HTTPConnection("127.0.0.1", box.port)
            page.request("GET", "/", headers=cookie)
            page.getresponse().read()
            page.close()
            box.http("GET", "/api/status", headers=cookie)
            live = http.client.HTTPConnection("127.0.0.1", box.port)
            live.request("GET", "/api/events", headers=cookie)
            stream = live.getresponse()
            got = [0]

            def read():
                try:
                    while True:
                        chunk = stream.read1(4096)
                        if not chunk:
                            break
                        got[0] += len(chunk)
                except OSError:
                    pass
            threading.Thread(target=read, daemon=True).start()
            box.press("start", 0.1)
            pid = box.web.pid
            time.sleep(5)
            faults = minor_faults(pid)
            time.sleep(max(0, wait - 5))
            status = memory.status(pid)
            return {"rss": status["VmRSS"], "peak": status["VmHWM"], "anon": status["RssAnon"],
                    "image": image_rss(pid, os.path.realpath(os.path.join(work, "tock"))),
                    "faults": minor_faults(pid) - faults, "stream": got[0]}
        finally:
            box.stop()
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--wait", type=float, default=65)
    p.add_argument("programs", nargs="+", metavar="NAME=TOCK")
    args = p.parse_args()
    print(f"| build | tock-web VmRSS kB after {args.wait:g} s | peak (VmHWM) | anonymous | the program's image | "
          f"minor faults from 5 s on | live display bytes |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for spec in args.programs:
        name, _, tock = spec.partition("=")
        m = measure(os.path.abspath(tock), args.wait)
        print(f"| {name} | {m['rss']} | {m['peak']} | {m['anon']} | {m['image']} | {m['faults']} | {m['stream']} |", flush=True)


if __name__ == "__main__":
    main()

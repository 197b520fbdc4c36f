"""Bounded floods against tock-web on loopback, one per class of attack,
measuring tock-web and the appliance (`tock run --backend mock`) from
/proc: resident memory (now and peak), open descriptors, CPU seconds.
Prints one table (a row per flood, before -> after); exits non-zero if
tock-web died or `GET /` did not answer 200 after a flood.

    python3 flood.py .build/release/tock .build/release/tock-web [FLOOD ...]

(FLOOD: idle, pairing, bodies, headers, connections, stalled, timers; all by default.)
"""
import http.client
import json
import os
import resource
import signal
import socket
import sys
import threading
import time

from harness import Box

TICK = os.sysconf("SC_CLK_TCK")


def sample(pid):
    status = open(f"/proc/{pid}/status").read()
    kib = lambda key: int(next(l for l in status.splitlines() if l.startswith(key)).split()[1])
    stat = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return {"rss": kib("VmRSS:") / 1024, "hwm": kib("VmHWM:") / 1024, "fds": len(os.listdir(f"/proc/{pid}/fd")),
            "cpu": (int(stat[11]) + int(stat[12])) / TICK}


def connect(port):
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    return s


def status_of(s):
    data = b""
    try:
        while b"\r\n" not in data:
            chunk = s.recv(4096)
            if not chunk:
                break
            data += chunk
    except OSError:
        pass
    line = data.split(b"\r\n", 1)[0].split()
    return int(line[1]) if len(line) > 1 else None


def get_page(port):
    t = time.monotonic()
    try:
        s = connect(port)
        s.settimeout(30)
        s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        code = status_of(s)
        s.close()
    except OSError as e:
        code = type(e).__name__
    return code, time.monotonic() - t


def idle(box):
    """Nothing for 10 s: what both processes spend on their own."""
    time.sleep(10)
    return "no requests"


def flood_pairing(box):
    """An attacker for 20 s: a new code after every 4 wrong guesses, from many connections."""
    counts = {}
    end = time.monotonic() + 20
    wrong = 0
    while time.monotonic() < end:
        if wrong >= 4:
            try:
                st, _ = box.http("POST", "/api/pair/request")
            except OSError:
                st = "timeout"
            counts[f"code {st}"] = counts.get(f"code {st}", 0) + 1
            wrong = 0
        try:
            st, _ = box.http("POST", "/api/pair", {"code": "0000"})
        except OSError:
            st = "timeout"
        counts[f"guess {st}"] = counts.get(f"guess {st}", 0) + 1
        wrong += 1 if st == 403 else (4 if st in (409, 429) else 0)
    return ", ".join(f"{k}: {v}" for k, v in sorted(counts.items()))


def flood_bodies(box):
    """10 POSTs declaring 200 MiB and sending until refused; 10 chunked ones of 200 MiB."""
    sent_total, codes = 0, []
    for chunked in (False, True):
        for _ in range(10):
            s = connect(box.port)
            head = b"POST /api/pair HTTP/1.1\r\nHost: x\r\n" + (b"Transfer-Encoding: chunked\r\n\r\n" if chunked else
                                                                b"Content-Length: %d\r\n\r\n" % (200 << 20))
            s.sendall(head)
            block = (b"10000\r\n" + b"A" * 65536 + b"\r\n") if chunked else b"A" * 65536
            sent = 0
            try:
                s.settimeout(2)
                while sent < 200 << 20:
                    s.sendall(block)
                    sent += 65536
            except OSError:
                pass
            codes.append(status_of(s))
            sent_total += sent
            s.close()
    return f"statuses {sorted(set(codes), key=str)}, {sent_total / 20 / 1024:.0f} KiB sent per request before the close"


def flood_headers(box):
    """4 requests with one 128 KiB header, 2 with 256 KiB (each waited for 10 s at most)."""
    codes, t = [], time.monotonic()
    for size in [128 << 10] * 4 + [256 << 10] * 2:
        s = connect(box.port)
        try:
            s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * size + b"\r\n\r\n")
        except OSError:
            pass
        codes.append(status_of(s))
        s.close()
    return f"statuses {sorted(set(codes), key=str)}, {time.monotonic() - t:.2f} s for 6"


def flood_connections(box):
    """1,030 idle connections held 3 s, then the page asked for."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 4096), hard))
    held, refused = [], 0
    for _ in range(1030):
        try:
            held.append(connect(box.port))
        except OSError:
            refused += 1
    time.sleep(3)
    if box.web.poll() is not None:
        for s in held:
            s.close()
        return f"{len(held)} held ({refused} refused at connect): tock-web exited"
    mid = sample(box.web.pid)
    code, took = get_page(box.port)
    for s in held:
        s.close()
    return f"{len(held)} held ({refused} refused at connect), tock-web at {mid['fds']} fds while held; GET / {code} in {took * 1000:.0f} ms"


def flood_stall(box):
    """The appliance stopped (SIGSTOP); 8 status requests (paired) at once, then GET /."""
    os.kill(box.appliance.pid, signal.SIGSTOP)
    results = []
    try:
        def ask():
            t = time.monotonic()
            try:
                st, _ = box.http("GET", "/api/status", headers={"Cookie": f"tock_token={box.token}"})
            except OSError:
                st = "timeout"
            results.append((st, time.monotonic() - t))
        threads = [threading.Thread(target=ask) for _ in range(8)]
        for th in threads:
            th.start()
        time.sleep(0.2)
        code, took = get_page(box.port)
        for th in threads:
            th.join()
    finally:
        os.kill(box.appliance.pid, signal.SIGCONT)
    slowest = max(t for _, t in results)
    return f"GET / {code} in {took * 1000:.0f} ms; status {sorted(str(st) for st, _ in results)}, slowest {slowest:.1f} s"


def timer_loop(box, name, until, counts, lock):
    """Add `name` for a minute and cancel it, again and again, on one kept-alive connection (paired)."""
    c = http.client.HTTPConnection("127.0.0.1", box.port, timeout=10)
    auth = {"Authorization": f"Bearer {box.token}", "Content-Type": "application/json"}
    mine = {}
    while time.monotonic() < until:
        for path, body in (("/api/timers", {"name": name, "duration": "1m"}), ("/api/timers/cancel", {"name": name})):
            try:
                c.request("POST", path, json.dumps(body), auth)
                r = c.getresponse()
                r.read()
                st = r.status
            except (OSError, http.client.HTTPException):
                st = "closed"
                c.close()
                c = http.client.HTTPConnection("127.0.0.1", box.port, timeout=10)
            key = f"{path.rsplit('/', 1)[-1]} {st}"
            mine[key] = mine.get(key, 0) + 1
    c.close()
    with lock:
        for k, v in mine.items():
            counts[k] = counts.get(k, 0) + v


def flood_timers(box):
    """Add/cancel from a paired client for 10 s on 3 connections (one under the 4 requests
    the appliance takes at once), then 10 s on 16; a page's status read every 0.1 s meanwhile."""
    out = []
    for streams in (3, 16):
        counts, lock = {}, threading.Lock()
        until = time.monotonic() + 10
        names = [f"{letter}{n}" for n in range(1, 10) for letter in "AbCdEFHJLnoPrUy"][:streams]
        threads = [threading.Thread(target=timer_loop, args=(box, n, until, counts, lock)) for n in names]
        for th in threads:
            th.start()
        page, waits = {}, []
        while time.monotonic() < until:
            t = time.monotonic()
            try:
                st, _ = box.http("GET", "/api/status", headers={"Cookie": f"tock_token={box.token}"})
            except OSError:
                st = "timeout"
            waits.append(time.monotonic() - t)
            page[st] = page.get(st, 0) + 1
            time.sleep(0.1)
        for th in threads:
            th.join()
        left = box.status()["timers"]
        for t in left:
            box.cli("timer", "cancel", t["name"])
        done = sum(counts.values())
        waits.sort()
        out.append(f"{streams} streams: {done / 10:.0f} requests/s ({', '.join(f'{k}: {v}' for k, v in sorted(counts.items()))}); "
                   f"the page's status {sorted(page.items(), key=str)}, median {waits[len(waits) // 2] * 1000:.0f} ms, "
                   f"slowest {waits[-1] * 1000:.0f} ms; {len(left)} timers left (at most 8)")
        if len(left) > 8 or any(t["name"] not in names for t in left):
            out.append("FAILED: the box holds timers it was not asked for")
    return "; ".join(out)


def main():
    tock, tock_web, only = sys.argv[1], sys.argv[2], sys.argv[3:]
    # systemd's default for a service: 1,024 descriptors (the processes started here inherit it).
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(1024, hard), hard))
    box = Box(tock, tock_web)
    box.token = box.pair()
    failed = []
    try:
        rows = []
        print("| flood | tock-web RSS MiB (peak) | fds | CPU s | tock run RSS MiB | fds | CPU s | what happened |")
        print("|---|---|---|---|---|---|---|---|", flush=True)
        for name, flood in [("idle", idle), ("pairing", flood_pairing), ("bodies", flood_bodies), ("headers", flood_headers),
                            ("connections", flood_connections), ("stalled appliance", flood_stall), ("timers", flood_timers)]:
            if only and name.split()[0] not in only:
                continue
            web0, box0 = sample(box.web.pid), sample(box.appliance.pid)
            t = time.monotonic()
            what = flood(box)
            took = time.monotonic() - t
            time.sleep(1)
            if box.web.poll() is not None:
                failed.append(f"{name}: tock-web exited ({box.web.returncode})")
                print(f"| {name} ({took:.0f} s) | exited ({box.web.returncode}) | | | | | | {what} |", flush=True)
                box.start_web()
                continue
            web1, box1 = sample(box.web.pid), sample(box.appliance.pid)
            code, _ = get_page(box.port)
            if code != 200:
                failed.append(f"{name}: GET / answered {code} after the flood")
            if "FAILED" in what:
                failed.append(f"{name}: {what}")
            rows.append((name, what, (web0, web1), (box0, box1), took))
            (w0, w1), (a0, a1) = rows[-1][2], rows[-1][3]
            print(f"| {name} ({took:.0f} s) | {w0['rss']:.1f} -> {w1['rss']:.1f} ({w1['hwm']:.1f}) | {w0['fds']} -> {w1['fds']} | "
                  f"{w1['cpu'] - w0['cpu']:.2f} | {a0['rss']:.1f} -> {a1['rss']:.1f} | {a0['fds']} -> {a1['fds']} | "
                  f"{a1['cpu'] - a0['cpu']:.2f} | {what} |", flush=True)
    finally:
        box.stop()
    for f in failed:
        print("FAILED:", f)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

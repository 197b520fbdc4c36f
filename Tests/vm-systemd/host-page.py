#!/usr/bin/env python3
"""The web page from the host side of the systemd test's VM.

QEMU forwards 127.0.0.1:PORT on this machine to the guest's port 8080,
where tock-web.service listens on all interfaces as packaged. With a count
running in the guest, this:

- gets the page (200, the page's HTML) and is refused the API without a
  token (401);
- asks to pair; the box shows HoLd, the guest's agent holds Start (a
  gpio-sim line) until the code appears, reads it off the box's display
  (`tock status`: the notice) and prints "AGENT-NOTICE <display>" on the
  serial console, which this reads from the console log;
- sends a wrong code (refused), then the right one: a token cookie,
  HttpOnly and SameSite=Strict;
- with the token, reads the status (the count is running) and is refused a
  POST that says it comes from another origin, which changes nothing.

  host-page.py --port PORT --log CONSOLE_LOG [--timeout SECONDS]

Prints "PASS what" / "FAIL what: why" lines; exits 0 when all passed.
"""
import argparse
import http.client
import json
import re
import sys
import time

failed = 0


def check(ok, what, why=""):
    global failed
    if ok:
        print(f"PASS {what}", flush=True)
    else:
        failed += 1
        print(f"FAIL {what}: {why}", flush=True)
    return ok


def request(port, method, path, body=None, headers=None, timeout=20):
    """(status, headers as a list of pairs, body text) of one request."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    h = {"Host": f"127.0.0.1:{port}"}
    h.update(headers or {})
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        h["Content-Type"] = "application/json"
    try:
        conn.request(method, path, body=data, headers=h)
        r = conn.getresponse()
        return r.status, r.getheaders(), r.read().decode("utf-8", "replace")
    finally:
        conn.close()


def wait_notice(log, since, timeout):
    """The digits of the first AGENT-NOTICE line after byte offset `since`."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        with open(log, "rb") as f:
            f.seek(since)
            text = f.read().decode("utf-8", "replace").replace("\r", "")
        m = re.search(r"^AGENT-NOTICE (.*)$", text, re.M)
        if m:
            return re.sub(r"[^0-9]", "", m.group(1))
        time.sleep(0.5)
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--log", required=True)
    ap.add_argument("--timeout", type=float, default=120)
    a = ap.parse_args()
    port = a.port

    # The guest's network may come up after the agent's checks: retry a while.
    end = time.monotonic() + a.timeout
    page = None
    while time.monotonic() < end:
        try:
            page = request(port, "GET", "/")
            break
        except OSError as e:
            page = e
            time.sleep(1)
    if not check(isinstance(page, tuple) and page[0] == 200 and "<html" in page[2].lower(),
                 f"the page from the host (GET http://127.0.0.1:{port}/ forwarded to the guest's port 8080)",
                 repr(page)[:300]):
        return
    status, _, body = request(port, "GET", "/api/status")
    check(status == 401, "the API refuses the host without a token (401)", f"{status} {body[:200]}")

    with open(a.log, "rb") as f:
        f.seek(0, 2)
        since = f.tell()
    status, _, body = request(port, "POST", "/api/pair/request")
    if not check(status == 200, "pairing asked from the host (POST /api/pair/request)", f"{status} {body[:200]}"):
        return
    code = wait_notice(a.log, since, 60)
    if not check(code is not None and len(code) == 4,
                 "the box shows a 4-digit code on its display (read by the guest's agent)", f"{code!r}"):
        return
    wrong = f"{(int(code) + 1) % 10000:04d}"
    status, _, body = request(port, "POST", "/api/pair", {"code": wrong, "name": "vm host"})
    check(status == 403, f"a wrong code ({wrong}) is refused (403)", f"{status} {body[:200]}")
    status, headers, body = request(port, "POST", "/api/pair", {"code": code, "name": "vm host"})
    cookie = next((v for k, v in headers if k.lower() == "set-cookie" and v.startswith("tock_token=")), "")
    flags = [p.strip().lower() for p in cookie.split(";")[1:]]
    if not check(status == 200 and "httponly" in flags and "samesite=strict" in flags,
                 "the code shown on the box pairs the host: a tock_token cookie, HttpOnly, SameSite=Strict",
                 f"{status} {cookie!r} {body[:200]}"):
        return
    token = {"Cookie": cookie.split(";")[0]}
    status, _, body = request(port, "GET", "/api/status", headers=token)
    state = json.loads(body).get("state") if status == 200 else None
    check(state == "running", "with the token the host reads the box's status: the count is running",
          f"{status} {body[:200]}")
    status, _, body = request(port, "POST", "/api/stop", headers={**token, "Origin": "http://evil.example",
                                                                    "Sec-Fetch-Site": "cross-site"})
    check(status == 403, "a cross-origin POST /api/stop is refused (403)", f"{status} {body[:200]}")
    status, _, body = request(port, "GET", "/api/status", headers=token)
    state = json.loads(body).get("state") if status == 200 else None
    check(state == "running", "the refused POST changed nothing: still running", f"{status} {body[:200]}")


if __name__ == "__main__":
    try:
        main()
    except Exception as e:  # a broken connection is a failed check, not a traceback
        check(False, "the page from the host", f"{type(e).__name__}: {e}")
    sys.exit(1 if failed else 0)

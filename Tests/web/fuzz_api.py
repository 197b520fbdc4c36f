"""schemathesis on docs/openapi.yaml against tock-web and a mock box on
loopback, paired as a person pairs, a bounded number of cases per
operation. The live stream (endless) and token revocation (it would
revoke the run's own token) are left out; the browser test covers both.

The token goes in as both of the schema's security schemes (the
`tock_token` cookie and the bearer), through schemathesis.toml: given
only a bearer header, schemathesis fills the cookie scheme with values of
its own, tock-web reads the cookie first, and every such case stopped at
401. Three operations need a state to succeed in, so they get runs of
their own before the general one: the program (the box in interval mode,
ready), snooze and dismiss (a daily alarm ringing, then snoozed). Each
of the three must get at least one 200.

Usage: fuzz_api.py TOCK TOCK_WEB SCHEMATHESIS [MAX_EXAMPLES]"""
import collections
import datetime
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
from harness import Box  # noqa: E402

tock, tock_web, st = sys.argv[1:4]
examples = sys.argv[4] if len(sys.argv) > 4 else "25"
schema = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "openapi.yaml")
CHECKS = "not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance"


def run(box, token, name, *selection):
    """One schemathesis run; its exit status and the replies per operation."""
    config = os.path.join(box.dir, "schemathesis.toml")
    with open(config, "w") as f:
        f.write('[auth.openapi.cookie]\napi_key = "${TOCK_TOKEN}"\n[auth.openapi.bearer]\nbearer = "${TOCK_TOKEN}"\n')
    report = os.path.join(box.dir, f"report-{name}.json")
    done = subprocess.run([st, "--config-file", config, "run", schema, "--url", box.url,
                           "--max-examples", examples, "--seed", "1", "--workers", "1", "--request-timeout", "5",
                           "--checks", CHECKS, *selection,
                           "--report", "ndjson", "--report-ndjson-path", report, "--no-color"],
                          capture_output=True, text=True, env={**os.environ, "SCHEMATHESIS_HOOKS": "", "TOCK_TOKEN": token})
    print(done.stdout[-4000:])
    print(done.stderr[-2000:], file=sys.stderr)
    replies = collections.Counter()

    def walk(o):
        if isinstance(o, dict):
            rq, rs = o.get("request"), o.get("response")
            if isinstance(rq, dict) and "method" in rq and isinstance(rs, dict):
                path = re.sub(r"^https?://[^/]+", "", rq.get("uri") or rq.get("url") or "").split("?")[0]
                replies[(rq["method"], re.sub(r"/\d+(/|$)", r"/{n}\1", path), rs.get("status_code"))] += 1
            for v in o.values():
                walk(v)
        elif isinstance(o, list):
            for v in o:
                walk(v)
    for line in open(report) if os.path.exists(report) else []:
        walk(json.loads(line))
    summary = re.findall(r"(\d+) generated", done.stdout)
    print(f"schemathesis ({name}): exit {done.returncode}; test cases generated: {', '.join(summary) or '?'}")
    return done.returncode, replies


def ok(replies, path):
    return sum(n for (m, p, s), n in replies.items() if m == "POST" and p == path and s == 200)


box = Box(tock, tock_web)
try:
    token = box.pair()
    bearer = {"Authorization": f"Bearer {token}"}
    # A daily alarm at the next minute at least 5 s away: it rings while the program run goes on.
    now = datetime.datetime.now()
    at = (now + datetime.timedelta(seconds=65 if now.second > 55 else 60)).replace(second=0, microsecond=0)
    assert box.http("POST", "/api/alarms", {"at": at.strftime("%H:%M")}, headers=bearer)[0] == 200
    # The program: interval mode, ready.
    assert box.http("POST", "/api/mode", {"mode": "interval"}, headers=bearer)[0] == 200
    codes, replies = [], collections.Counter()
    c, r = run(box, token, "program", "--include-path", "/api/program")
    codes.append(c), replies.update(r)
    assert box.http("POST", "/api/mode", {"mode": "timer"}, headers=bearer)[0] == 200
    # Snooze while it rings, then dismiss the snoozed alarm.
    box.wait(lambda: box.status().get("alarm", "").startswith("ringing"), "the daily alarm", seconds=80)
    for path in ("/api/alarm/snooze", "/api/alarm/dismiss"):
        c, r = run(box, token, path.rsplit("/", 1)[1], "--include-path", path)
        codes.append(c), replies.update(r)
    c, r = run(box, token, "all", "--exclude-path", "/api/events", "--exclude-path", "/api/tokens/{id}")
    codes.append(c), replies.update(r)
    total = sum(replies.values())
    print(f"replies: {total}; by status: {dict(sorted(collections.Counter(s for (_, _, s) in replies.elements()).items()))}")
    for path in ("/api/program", "/api/alarm/snooze", "/api/alarm/dismiss"):
        print(f"{path}: {ok(replies, path)} x 200")
        assert ok(replies, path) > 0, f"{path} never succeeded"
    assert box.appliance.poll() is None, "the appliance survived"
    assert box.web.poll() is None, "tock-web survived"
    # After all that, the box still answers and the token still holds.
    assert box.http("GET", "/api/status", headers=bearer)[0] == 200
    sys.exit(max(codes))
finally:
    box.stop()

"""schemathesis on docs/openapi.yaml against tock-web and a mock box on
loopback, paired as a person pairs, a bounded number of cases per
operation. The live stream (endless) and token revocation (it would
revoke the run's own token) are left out; the browser test covers both.

Usage: fuzz_api.py TOCK TOCK_WEB SCHEMATHESIS [MAX_EXAMPLES]"""
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
box = Box(tock, tock_web)
try:
    token = box.pair()
    report = os.path.join(box.dir, "report.json")
    run = subprocess.run([st, "run", schema, "--url", box.url, "-H", f"Authorization: Bearer {token}",
                          "--max-examples", examples, "--seed", "1", "--workers", "1", "--request-timeout", "5",
                          "--checks", "not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance",
                          "--exclude-path", "/api/events", "--exclude-path", "/api/tokens/{id}",
                          "--report", "ndjson", "--report-ndjson-path", report, "--no-color"],
                         capture_output=True, text=True, env={**os.environ, "SCHEMATHESIS_HOOKS": ""})
    print(run.stdout[-6000:])
    print(run.stderr[-2000:], file=sys.stderr)
    cases = 0
    for line in open(report) if os.path.exists(report) else []:
        cases += line.count('"ScenarioFinished"')
    summary = re.findall(r"(\d+) generated", run.stdout)
    print(f"schemathesis: exit {run.returncode}; test cases generated: {', '.join(summary) or '?'}")
    assert box.appliance.poll() is None, "the appliance survived"
    assert box.web.poll() is None, "tock-web survived"
    # After all that, the box still answers and the token still holds.
    assert box.http("GET", "/api/status", headers={"Authorization": f"Bearer {token}"})[0] == 200
    sys.exit(run.returncode)
finally:
    box.stop()

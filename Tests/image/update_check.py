"""The daily update check and tock-update on the image (image_test.py's
update step; docs/updates.md): the check started as its timer starts it
(tock-update-check.service, as the tock user), its result file and what
tock status says, with the root read-only before and after and no apt hook
run; then tock-update, after which the root is read-only again at once.
"""
import json
import time

CHECK = ("systemctl start tock-update-check.service; echo rc=$?; "
         "cat /var/lib/tock/update-check.json; findmnt -no OPTIONS /")
IDLE = "systemctl list-timers --all --no-legend tock-root-ro-idle.timer"


def root_ro(vm):
    return vm.ssh("findmnt -no OPTIONS /").strip().startswith("ro")


def run_check(vm, check, figures, what, result, latest=None, reason=None, fresh=False):
    """Run the check with the root read-only; assert its result (and latest
    version, and a reason pattern), the root read-only after it and, on a
    boot where apt has not run (fresh), no hook's timer; and tock status
    --json saying the same. Returns the result file."""
    ro_before = root_ro(vm)
    t0 = time.monotonic()
    out = vm.ssh(CHECK, timeout=300, check_rc=False)
    figures[f"update check, {result} (s)"] = round(time.monotonic() - t0)
    lines = out.strip().splitlines()
    try:
        found = json.loads(lines[-2])
    except (ValueError, IndexError):
        found = {}
    ok = found.get("result") == result and (latest is None or found.get("latest") == latest)
    if reason:
        ok = ok and all(r in found.get("reason", "") for r in reason)
    check("rc=0" in out and ok, f"update check: {what}", out[-600:])
    check(ro_before and lines[-1].startswith("ro"), f"update check ({result}): the root read-only before and after it", out[-300:])
    if fresh:
        idle = vm.ssh(IDLE, check_rc=False).strip()
        check(not idle, f"update check ({result}): no apt hook ran (no tock-root-ro-idle timer)", idle)
    journal = vm.ssh("journalctl -b -u tock-update-check --no-pager -o cat | tail -20", check_rc=False)
    check("remount" not in journal and "Read-only file system" not in journal,
          f"update check ({result}): nothing in its journal tried to write the root", journal[-400:])
    status = {}
    for _ in range(20):
        status = json.loads(vm.ssh("tock status --json", check_rc=False) or "{}").get("update") or {}
        if status.get("checked") == found.get("checked"):
            break
        time.sleep(0.5)
    check(status.get("result") == result and status.get("checked") == found.get("checked"),
          f"update check ({result}): tock status --json says it (update-checked reached the service)", status)
    return found


def tock_update(vm, check, figures, version_n1, timeout):
    """tock-update as root over SSH: tock N -> N+1, the root and the boot
    partition read-only again when it returns, the check run after it
    finding tock up to date. Returns whether tock was upgraded."""
    v0 = vm.ssh("dpkg-query -W -f '${Version}' tock")
    t0 = time.monotonic()
    r = vm.ssh("tock-update 2>&1; echo rc=$?; findmnt -no OPTIONS /; findmnt -no OPTIONS /boot/firmware",
               timeout=timeout, check_rc=False)
    figures["tock-update (s)"] = round(time.monotonic() - t0)
    v1 = vm.ssh("dpkg-query -W -f '${Version}' tock")
    lines = r.strip().splitlines()
    ok = check(v1 == version_n1 and "rc=0" in r and f"tock {v0} -> {v1}" in r,
               f"tock-update: tock {v0} -> {v1}", r[-800:])
    check(len(lines) >= 2 and lines[-2].startswith("ro"), "tock-update: the root read-only again when it returns", r[-300:])
    check(lines and lines[-1].startswith("ro"), "tock-update: the boot partition read-only again when it returns", r[-300:])
    # tock-update starts the check again: the service (restarted by the
    # upgrade) is told, and says tock is up to date.
    status = {}
    for _ in range(120):
        status = json.loads(vm.ssh("tock status --json", check_rc=False) or "{}").get("update") or {}
        if status.get("result") == "current" and status.get("installed") == version_n1:
            break
        time.sleep(1)
    check(status.get("result") == "current" and status.get("installed") == version_n1 and status.get("latest") == version_n1,
          "after tock-update the check finds tock up to date, and tock status says so", status)
    return ok

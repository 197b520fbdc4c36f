#!/usr/bin/env python3
"""The image's boot time by stage under QEMU's raspi3b (make bench-boot).

Boots each image three times, the images' boots interleaved so that the
machine's load falls on all of them alike: the first boot of a fresh card
(with a setup file: the data partition grows, the setup is applied), a
later boot after a clean power-off, and a boot after a power cut (QEMU
killed once tock is READY and the host has logged in). For each boot:

  power-on to the kernel's first line   (host clock: QEMU loading the kernel)
  kernel                                (printk time of "Run /init")
  initramfs                             (to systemd's first line in the root)
  each unit on tock.service's critical chain, as systemd measured it
                                        (systemd-analyze critical-chain:
                                        when it became active, and how long
                                        it took itself)
  tock READY                            (tock.service active, guest clock)
  power-on to READY                     (host clock)

and prints one table, the images side by side.

  boot_stages.py --image after.img [--before before.img] --work DIR [--json OUT]
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time

import image_test
from image_test import GOOD_SETUP, VM, make_card, run

# "└─unit @1min 2.345s +678ms", "unit @5.1s" (a target: no own time),
# "tock.service +2.3s" (the unit asked about, when it has no @).
UNIT_LINE = re.compile(r"^[\s└├│─]*(\S+)\s+(?:@([^+]+?))?\s*(?:\+(.+?))?\s*$")


def seconds(text):
    """systemd's time span ("1min 2.345s", "678ms", "3.2s") in seconds."""
    total = 0.0
    for n, unit in re.findall(r"([\d.]+)(min|ms|us|s|h)", text):
        total += float(n) * {"h": 3600, "min": 60, "s": 1, "ms": 1e-3, "us": 1e-6}[unit]
    return total


def critical_chain(vm):
    """[(unit, active at s, own time s or None)] from power-on order, tock last."""
    out = vm.ssh("SYSTEMD_COLORS=0 systemd-analyze critical-chain tock.service --no-pager", timeout=120)
    chain = []
    for line in out.splitlines():
        m = UNIT_LINE.match(line)
        if not m or line.startswith("The time") or not (m.group(2) or m.group(3)):
            continue
        at = seconds(m.group(2)) if m.group(2) else None
        chain.append((m.group(1), at, seconds(m.group(3)) if m.group(3) else None))
    return list(reversed(chain))


# Units of note, on the chain or not: the two partitions' checks, their
# mounts, the image's own units and tock.
NOTE = [r"systemd-fsck@dev-disk-by\x2dpartuuid-746f636b\x2d03.service", "data.mount",
        r"systemd-fsck@dev-disk-by\x2dpartuuid-746f636b\x2d01.service", "boot-firmware.mount",
        "tock-splash.service", "tock-data-grow.service", "tock-clock.service", "tock-setup.service", "systemd-tmpfiles-setup.service",
        "sysinit.target", "tock.service"]


def unit_times(vm):
    """{unit: (started s, active s)} on the guest's monotonic clock."""
    names = " ".join(f"'{u}'" for u in NOTE)
    out = vm.ssh(f"for u in {names}; do echo \"$u $(systemctl show \"$u\" -P InactiveExitTimestampMonotonic)"
                 f" $(systemctl show \"$u\" -P ActiveEnterTimestampMonotonic)\"; done")
    times = {}
    for line in out.splitlines():
        parts = line.rsplit(" ", 2)
        if len(parts) == 3 and parts[1].isdigit() and parts[2].isdigit() and int(parts[2]) > 0:
            times[parts[0]] = (int(parts[1]) / 1e6, int(parts[2]) / 1e6)
    return times


def console_marks(vm):
    """printk times: the kernel's end ("Run /init") and systemd's first line."""
    con = vm.console()
    init = re.search(r"^\[\s*([\d.]+)\] Run /init", con, re.M)
    systemd = re.search(r"^\[\s*([\d.]+)\] systemd\[1\]:", con, re.M)
    return (float(init.group(1)) if init else None, float(systemd.group(1)) if systemd else None)


def measure(vm, ready_host, first_line_host):
    kernel, systemd = console_marks(vm)
    t = dict(line.split("=", 1) for line in vm.ssh(
        "systemctl show tock.service -p ActiveEnterTimestampMonotonic -p ExecMainStartTimestampMonotonic").split())
    return {
        "power-on to the kernel's first line": first_line_host,
        "kernel (to Run /init)": kernel,
        "initramfs (to systemd in the root)": (systemd - kernel) if kernel is not None and systemd is not None else None,
        "chain": critical_chain(vm),
        "units": unit_times(vm),
        "tock started (guest)": int(t["ExecMainStartTimestampMonotonic"]) / 1e6,
        "tock READY (guest)": int(t["ActiveEnterTimestampMonotonic"]) / 1e6,
        "power-on to READY (host)": ready_host,
    }


def one_boot(card, work, name, timeout):
    vm = VM(card, work, name)
    vm.start()
    first = vm.wait_console(r"^\[\s*0\.0+\] Linux version", 120)
    ready = vm.wait_console(image_test.READY, timeout)
    if ready is None or not vm.wait_ssh(180):
        print(f"  {name}: no READY or no ssh ({vm.landed()})", flush=True)
        vm.kill()
        return None, None
    print(f"  {name}: power-on to READY {ready:.1f} s", flush=True)
    return vm, measure(vm, ready, first)


KINDS = ("first boot", "later boot", "after a power cut")


def boots(images, work, timeout, pubkey, each_kind=lambda results: None):
    """{(image name, kind): figures}, the images' boots interleaved;
    each_kind(results so far) after each kind of boot."""
    cards = {}
    for name, path in images:
        card = make_card(path, os.path.join(work, f"card-{name}.img"))
        card.put("tock-setup.txt", GOOD_SETUP.format(key=pubkey))
        cards[name] = card
    results = {}
    for kind in KINDS:
        for name, _ in images:
            tag = f"{name}-{kind.replace(' ', '-')}"
            vm, fig = one_boot(cards[name], work, tag, timeout)
            results[(name, kind)] = fig
            if not vm:
                continue
            if kind == "later boot":
                vm.kill()  # the power cut the next boot recovers from
            else:
                vm.poweroff()
        each_kind(results)
    for card in cards.values():
        os.unlink(card.path)
    return results


def fmt(v):
    return "-" if v is None else f"{v:6.1f}"


def table(images, results):
    names = [n for n, _ in images]
    lines = []
    for kind in KINDS:
        lines.append(f"\n{kind}: seconds. The critical chain (systemd-analyze): '@when active +its own time',"
                     " counted from systemd's start in the root; the rest from the kernel's start")
        head = f"{'stage':48}" + "".join(f"{n:>24}" for n in names)
        lines.append(head)
        lines.append("-" * len(head))
        figs = [results.get((n, kind)) for n in names]
        for key in ("power-on to the kernel's first line", "kernel (to Run /init)", "initramfs (to systemd in the root)"):
            lines.append(f"{key:48}" + "".join(f"{fmt(f and f[key]):>24}" for f in figs))
        units = []
        for f in figs:
            for unit, _, _ in (f or {}).get("chain", []):
                if unit not in units:
                    units.append(unit)
        lines.append("tock.service's critical chain")
        for unit in units:
            row = f"  {unit.replace(chr(92) + 'x2d', '-')[:46]:46}"
            for f in figs:
                hit = [(at, own) for u, at, own in (f or {}).get("chain", []) if u == unit]
                if not hit:
                    row += f"{'(not on the chain)':>24}"
                else:
                    at, own = hit[0]
                    cell = ("@" + format(at, ".1f") if at is not None else "") + (" +" + format(own, ".1f") if own is not None else "")
                    row += f"{cell.strip():>24}"
            lines.append(row)
        lines.append("units of note: started-active (took), from the kernel's start")
        for unit in NOTE:
            row = f"  {unit.replace(chr(92) + 'x2d', '-')[:46]:46}"
            for f in figs:
                t = (f or {}).get("units", {}).get(unit)
                row += f"{'-' if t is None else f'{t[0]:.1f}-{t[1]:.1f} ({t[1] - t[0]:.1f})':>24}"
            lines.append(row)
        for key in ("tock started (guest)", "tock READY (guest)", "power-on to READY (host)"):
            lines.append(f"{key:48}" + "".join(f"{fmt(f and f[key]):>24}" for f in figs))
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--image", required=True)
    ap.add_argument("--before", help="an earlier image, booted in the same run")
    ap.add_argument("--work", required=True)
    ap.add_argument("--timeout", type=int, default=900)
    ap.add_argument("--json")
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    key = os.path.join(args.work, "id_ed25519")
    if not os.path.exists(key):
        run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", key])
    pubkey = open(key + ".pub").read().strip()
    images = ([("before", args.before)] if args.before else []) + [("this", args.image)]
    t0 = time.monotonic()
    def save(results):
        if args.json:
            with open(args.json, "w") as f:
                json.dump({f"{n}/{k}": v for (n, k), v in results.items()}, f, indent=1)
        done = [k for k in KINDS if any((n, k) in results for n, _ in images)]
        print(f"[{len(done)} of {len(KINDS)} kinds of boot measured]", flush=True)

    results = boots(images, args.work, args.timeout, pubkey, save)
    print(table(images, results))
    print(f"\n{len(images) * len(KINDS)} boots in {time.monotonic() - t0:.0f} s; load average {os.getloadavg()[0]:.1f}")
    save(results)
    missing = [f"{n}/{k}" for (n, k), v in results.items() if v is None]
    if missing:
        print(f"boot-stages: no figures for {', '.join(missing)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
